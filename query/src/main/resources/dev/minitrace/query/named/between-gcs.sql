-- What was allocated between GC ${from_gc} and GC ${to_gc}: from the start of the one to the start
-- of the other by time, or, from an .mtlog (no times), by fragment (records after GC ${from_gc}'s
-- fragment point and before GC ${to_gc}'s), per class and site, most first.
WITH window_of AS (
    SELECT a.recording, a.start_ns AS from_ns, b.start_ns AS to_ns
    FROM gcs a
    JOIN gcs b ON b.recording = a.recording AND b.gc_id = ${to_gc}
    WHERE a.gc_id = ${from_gc}),
sites AS (
    SELECT r.recording, r.class_id, r.method_id, r.bci, count(*) AS allocations
    FROM records r
    JOIN window_of w ON w.recording = r.recording
    WHERE r.kind = 'OBJECT_ALLOC'
      AND ((r.time_ns IS NOT NULL AND r.time_ns >= w.from_ns AND r.time_ns < w.to_ns)
        OR (r.time_ns IS NULL AND r.fragment >= ${from_gc} AND r.fragment < ${to_gc}))
    GROUP BY r.recording, r.class_id, r.method_id, r.bci)
SELECT k.name AS class,
       m.class_name || '::' || m.method_name AS method,
       s.bci,
       sum(s.allocations) AS allocations
FROM sites s
JOIN classes k ON k.recording = s.recording AND k.class_id = s.class_id
LEFT JOIN methods m ON m.recording = s.recording AND m.method_id = s.method_id
GROUP BY k.name, m.class_name, m.method_name, s.bci
ORDER BY allocations DESC, class, method, s.bci
LIMIT 20
