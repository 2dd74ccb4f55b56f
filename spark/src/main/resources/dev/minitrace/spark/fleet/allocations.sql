-- Allocations per site (allocating method, bytecode index, class allocated) across every JVM, most first.
SELECT m.class_name,
       m.method_name,
       r.bci,
       k.name AS allocated_class,
       count(DISTINCT r.recording) AS recordings,
       count(*) AS allocations
FROM records r
JOIN classes k ON k.recording = r.recording AND k.class_id = r.class_id
LEFT JOIN methods m ON m.recording = r.recording AND m.method_id = r.method_id
WHERE r.kind = 'OBJECT_ALLOC'
GROUP BY m.class_name, m.method_name, r.bci, k.name
ORDER BY allocations DESC, m.class_name, m.method_name, r.bci, allocated_class
