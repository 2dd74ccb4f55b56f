-- The call-tree question as first written: each line's path built as text, which grows with the depth
-- in every row. Too large for a real application's trees, it states what the question means, and
-- CallTreeOracleTest holds the question as it runs to it on random trees.
-- The calls made below ${method}, as a tree: each line is a call path from ${method} down, with its
-- calls and inclusive and self time. Calls along the same path share a stack_id, so the tree is
-- built from the distinct stacks, not from every call. A call of ${method} inside another one
-- (recursion) belongs to the outer one's tree.
WITH RECURSIVE
stacks AS (
    SELECT recording, stack_id, parent_stack_id, method_id,
           count(*) AS calls, sum(duration_ns) AS total_ns, sum(self_ns) AS self_ns
    FROM calls
    GROUP BY recording, stack_id, parent_stack_id, method_id),
named AS (
    SELECT m.recording, m.method_id, m.class_name || '::' || m.method_name AS name
    FROM methods m),
tree AS (
    SELECT s.recording, s.stack_id AS root, s.stack_id, 0 AS level, n.name AS path, n.name AS method,
           s.calls, s.total_ns, s.self_ns
    FROM stacks s
    JOIN named n ON n.recording = s.recording AND n.method_id = s.method_id
    WHERE n.name = ${method} OR ends_with('.' || n.name, '.' || ${method})
    UNION ALL
    SELECT s.recording, t.root, s.stack_id, t.level + 1, t.path || ' > ' || n.name, n.name,
           s.calls, s.total_ns, s.self_ns
    FROM tree t
    JOIN stacks s ON s.recording = t.recording AND s.parent_stack_id = t.stack_id
    JOIN named n ON n.recording = s.recording AND n.method_id = s.method_id),
outer_trees AS (
    SELECT * FROM tree
    WHERE (recording, root) NOT IN (SELECT recording, stack_id FROM tree WHERE level > 0))
SELECT repeat('  ', level) || method AS call_path,
       sum(calls) AS calls,
       round(sum(total_ns) / 1e6, 3) AS total_ms,
       round(sum(self_ns) / 1e6, 3) AS self_ms
FROM outer_trees
GROUP BY path, level, method
ORDER BY path
