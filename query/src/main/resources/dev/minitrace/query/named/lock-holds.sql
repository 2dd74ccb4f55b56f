-- The monitors held longest: per monitor (class and object id) the holds, their total and longest
-- time, and the method that held it longest.
WITH per_monitor AS (
    SELECT recording, class_id, object_id, count(*) AS holds, sum(hold_ns) AS total_ns, max(hold_ns) AS longest_ns,
           arg_max(method_id, hold_ns) AS longest_method
    FROM locks
    GROUP BY recording, class_id, object_id)
SELECT k.name AS monitor_class,
       p.object_id,
       p.holds,
       round(p.total_ns / 1e6, 3) AS total_ms,
       round(p.longest_ns / 1e6, 3) AS longest_ms,
       m.class_name || '::' || m.method_name AS longest_in
FROM per_monitor p
JOIN classes k ON k.recording = p.recording AND k.class_id = p.class_id
LEFT JOIN methods m ON m.recording = p.recording AND m.method_id = p.longest_method
ORDER BY p.total_ns DESC NULLS LAST, p.holds DESC, monitor_class, p.object_id
LIMIT 20
