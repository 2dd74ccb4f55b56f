-- Allocations per site: the allocating method and bytecode index, and the class allocated, most
-- first. Counted per id first, then named.
WITH sites AS (
    SELECT recording, method_id, bci, class_id, count(*) AS allocations
    FROM records
    WHERE kind = 'OBJECT_ALLOC'
    GROUP BY recording, method_id, bci, class_id)
SELECT m.class_name || '::' || m.method_name AS method,
       s.bci,
       k.name AS class,
       sum(s.allocations) AS allocations
FROM sites s
JOIN classes k ON k.recording = s.recording AND k.class_id = s.class_id
LEFT JOIN methods m ON m.recording = s.recording AND m.method_id = s.method_id
GROUP BY m.class_name, m.method_name, s.bci, k.name
ORDER BY allocations DESC, method, s.bci, class
LIMIT 20
