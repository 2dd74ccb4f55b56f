-- Lock holds per monitor class across every JVM: holds, their total and longest time, in how many
-- recordings, most total hold time first.
SELECT k.name AS monitor_class,
       count(DISTINCT l.recording) AS recordings,
       count(*) AS holds,
       sum(l.hold_ns) AS total_ns,
       max(l.hold_ns) AS max_ns
FROM locks l
JOIN classes k ON k.recording = l.recording AND k.class_id = l.class_id
GROUP BY k.name
ORDER BY total_ns DESC NULLS LAST, holds DESC, monitor_class
