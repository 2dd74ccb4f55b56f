-- The methods where the time went: calls, inclusive and self time per method, most self time first
-- (from an .mtlog, which has no times, most calls first).
SELECT m.class_name || '::' || m.method_name AS method,
       count(*) AS calls,
       round(sum(c.self_ns) / 1e6, 3) AS self_ms,
       round(sum(c.duration_ns) / 1e6, 3) AS total_ms,
       round(avg(c.duration_ns) / 1e3, 3) AS avg_us,
       round(max(c.duration_ns) / 1e6, 3) AS max_ms
FROM calls c
JOIN methods m ON m.recording = c.recording AND m.method_id = c.method_id
GROUP BY m.class_name, m.method_name
ORDER BY sum(c.self_ns) DESC NULLS LAST, calls DESC, method
LIMIT 20
