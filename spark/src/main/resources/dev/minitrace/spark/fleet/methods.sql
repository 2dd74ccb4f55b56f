-- Calls and inclusive time per method across every JVM: in how many recordings it ran, its calls,
-- their total inclusive and self time and the longest call, most total time first.
SELECT m.class_name,
       m.method_name,
       count(DISTINCT c.recording) AS recordings,
       count(*) AS calls,
       sum(c.duration_ns) AS total_ns,
       sum(c.self_ns) AS self_ns,
       max(c.duration_ns) AS max_ns
FROM calls c
JOIN methods m ON m.recording = c.recording AND m.method_id = c.method_id
GROUP BY m.class_name, m.method_name
ORDER BY total_ns DESC NULLS LAST, calls DESC, m.class_name, m.method_name
