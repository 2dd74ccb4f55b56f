-- The 3 slowest calls of each method and the JVM each happened in (host, process, recording), with
-- the thread: the slowest first within each method.
WITH ranked AS (
    SELECT c.recording, c.thread, c.call_seq, c.method_id, c.duration_ns,
           row_number() OVER (PARTITION BY m.class_name, m.method_name
                              ORDER BY c.duration_ns DESC, c.recording, c.thread, c.call_seq) AS rank,
           m.class_name, m.method_name
    FROM calls c
    JOIN methods m ON m.recording = c.recording AND m.method_id = c.method_id
    WHERE c.duration_ns IS NOT NULL)
SELECT k.class_name,
       k.method_name,
       k.rank,
       k.duration_ns,
       r.host,
       r.pid,
       k.recording,
       t.name AS thread,
       k.call_seq
FROM ranked k
JOIN recording r ON r.recording = k.recording
LEFT JOIN threads t ON t.recording = k.recording AND t.thread = k.thread
WHERE k.rank <= 3
ORDER BY k.class_name, k.method_name, k.rank
