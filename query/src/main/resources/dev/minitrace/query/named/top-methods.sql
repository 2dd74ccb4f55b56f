-- The methods where the time went: calls, inclusive and self time per method, most self time first
-- (from an .mtlog, which has no times, most calls first). Summed from the calls per path (stacks:
-- a path's calls are all of its method), per method id first, then named.
WITH per_method AS (
    SELECT recording, method_id, sum(calls) AS calls, sum(self_ns) AS self_ns, sum(total_ns) AS total_ns,
           max(max_ns) AS max_ns
    FROM stacks
    GROUP BY recording, method_id)
SELECT m.class_name || '::' || m.method_name AS method,
       sum(p.calls) AS calls,
       round(sum(p.self_ns) / 1e6, 3) AS self_ms,
       round(sum(p.total_ns) / 1e6, 3) AS total_ms,
       round(sum(p.total_ns) / sum(p.calls) / 1e3, 3) AS avg_us,
       round(max(p.max_ns) / 1e6, 3) AS max_ms
FROM per_method p
JOIN methods m ON m.recording = p.recording AND m.method_id = p.method_id
GROUP BY m.class_name, m.method_name
ORDER BY sum(p.self_ns) DESC NULLS LAST, calls DESC, method
LIMIT 20
