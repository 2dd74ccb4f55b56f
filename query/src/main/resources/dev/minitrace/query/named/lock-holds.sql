-- The monitors held longest: per monitor (class and object id) the holds, their total and longest
-- time, and the method that held it longest.
SELECT k.name AS monitor_class,
       l.object_id,
       count(*) AS holds,
       round(sum(l.hold_ns) / 1e6, 3) AS total_ms,
       round(max(l.hold_ns) / 1e6, 3) AS longest_ms,
       arg_max(m.class_name || '::' || m.method_name, l.hold_ns) AS longest_in
FROM locks l
JOIN classes k ON k.recording = l.recording AND k.class_id = l.class_id
LEFT JOIN methods m ON m.recording = l.recording AND m.method_id = l.method_id
GROUP BY l.recording, k.name, l.object_id
ORDER BY sum(l.hold_ns) DESC NULLS LAST, holds DESC
LIMIT 20
