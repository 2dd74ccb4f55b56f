-- The calls made below ${method}, as a tree: each line is a call path from ${method} down, with its
-- calls and inclusive and self time, down to ${depth} levels below ${method} (the times include
-- the levels below). Calls along the same path share a stack_id, so the tree is built from the
-- calls summed per path (the stacks table: a row per path), not from every call. A call of ${method} inside another
-- one (recursion) belongs to the outer one's tree.
WITH RECURSIVE
-- Each recording as a small number: grouping and recursing by the recording's name would carry
-- that text in every row (PMD's trace has 4.2 M distinct stacks).
recordings AS (
    SELECT recording, row_number() OVER (ORDER BY recording)::INTEGER AS r
    FROM (SELECT DISTINCT recording FROM methods)),
named AS (
    SELECT k.r, m.method_id, m.class_name || '::' || m.method_name AS name,
           -- names in order, for the order of the lines under one parent
           dense_rank() OVER (ORDER BY m.class_name || '::' || m.method_name)::INTEGER AS name_rank
    FROM methods m
    JOIN recordings k ON k.recording = m.recording),
paths AS MATERIALIZED (
    SELECT g.r, g.stack_id, g.parent_stack_id, n.name_rank,
           n.name = ${method} OR ends_with('.' || n.name, '.' || ${method}) AS asked,
           g.calls, g.total_ns, g.self_ns
    FROM (SELECT k.r, p.stack_id, p.parent_stack_id, p.method_id, p.calls, p.total_ns, p.self_ns
          FROM stacks p
          JOIN recordings k ON k.recording = p.recording) g
    JOIN named n ON n.r = g.r AND n.method_id = g.method_id),
-- From each stack of ${method} up its callers to the first that is ${method} too, if any: such a
-- stack runs inside another call of ${method}, whose tree it belongs to. A step's stop is tested in
-- the next step, not filtered on the stacks joined: so DuckDB hashes the few stacks being walked,
-- not all the stacks again at every step.
up AS (
    SELECT r, stack_id AS start, parent_stack_id AS caller, false AS stop FROM paths WHERE asked
    UNION ALL
    SELECT u.r, u.start, s.parent_stack_id, s.asked
    FROM up u
    JOIN paths s ON s.r = u.r AND s.stack_id = u.caller
    WHERE NOT u.stop),
roots AS (
    SELECT r, stack_id FROM paths WHERE asked
    EXCEPT
    SELECT r, start FROM up WHERE stop),
-- Every stack below a root, once. A line of the tree is a path from ${method} down, kept as the
-- ranks of its names, a few bytes each, rather than as text, which would grow with the depth in
-- every row (a compiler's recursive descent has millions of stacks, 70 deep). The ranks also put
-- the lines under one parent in the order of their names.
digits AS (
    SELECT CASE WHEN max(name_rank) < 65536 THEN 4 ELSE 6 END AS n FROM named),
tree AS (
    SELECT s.r, s.stack_id, 0 AS level, from_hex(lpad(to_hex(s.name_rank), d.n, '0')) AS place, s.name_rank,
           s.calls, s.total_ns, s.self_ns
    FROM roots o
    JOIN paths s ON s.r = o.r AND s.stack_id = o.stack_id
    CROSS JOIN digits d
    UNION ALL
    SELECT s.r, s.stack_id, t.level + 1, t.place || from_hex(lpad(to_hex(s.name_rank), d.n, '0')), s.name_rank,
           s.calls, s.total_ns, s.self_ns
    FROM tree t
    JOIN paths s ON s.r = t.r AND s.parent_stack_id = t.stack_id
    CROSS JOIN digits d
    WHERE t.level < ${depth}),
nodes AS (
    SELECT place, any_value(level) AS level, any_value(name_rank) AS name_rank,
           sum(calls) AS calls, sum(total_ns) AS total_ns, sum(self_ns) AS self_ns
    FROM tree
    GROUP BY place),
names AS (
    SELECT DISTINCT name_rank, name FROM named)
SELECT repeat('  ', level) || name AS call_path,
       calls,
       round(total_ns / 1e6, 3) AS total_ms,
       round(self_ns / 1e6, 3) AS self_ms
FROM nodes
JOIN names USING (name_rank)
ORDER BY place
