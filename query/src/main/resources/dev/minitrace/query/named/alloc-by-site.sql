-- Allocations per site: the allocating method and bytecode index, and the class allocated, most first.
SELECT m.class_name || '::' || m.method_name AS method,
       r.bci,
       k.name AS class,
       count(*) AS allocations
FROM records r
JOIN classes k ON k.recording = r.recording AND k.class_id = r.class_id
LEFT JOIN methods m ON m.recording = r.recording AND m.method_id = r.method_id
WHERE r.kind = 'OBJECT_ALLOC'
GROUP BY m.class_name, m.method_name, r.bci, k.name
ORDER BY allocations DESC, method, r.bci, class
LIMIT 20
