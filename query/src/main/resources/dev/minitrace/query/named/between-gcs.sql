-- What was allocated between GC ${from_gc} and GC ${to_gc}: from the start of the one to the start
-- of the other by time, or, from an .mtlog (no times), by fragment (records after GC ${from_gc}'s
-- fragment point and before GC ${to_gc}'s), per class and site, most first.
SELECT k.name AS class,
       m.class_name || '::' || m.method_name AS method,
       r.bci,
       count(*) AS allocations
FROM records r
JOIN gcs a ON a.recording = r.recording AND a.gc_id = ${from_gc}
JOIN gcs b ON b.recording = r.recording AND b.gc_id = ${to_gc}
JOIN classes k ON k.recording = r.recording AND k.class_id = r.class_id
LEFT JOIN methods m ON m.recording = r.recording AND m.method_id = r.method_id
WHERE r.kind = 'OBJECT_ALLOC'
  AND ((r.time_ns IS NOT NULL AND r.time_ns >= a.start_ns AND r.time_ns < b.start_ns)
    OR (r.time_ns IS NULL AND r.fragment >= ${from_gc} AND r.fragment < ${to_gc}))
GROUP BY k.name, m.class_name, m.method_name, r.bci
ORDER BY allocations DESC, class, method, r.bci
LIMIT 20
