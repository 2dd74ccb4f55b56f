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
           dense_rank() OVER (ORDER BY m.class_name || '::' || m.method_name)::INTEGER AS name_rank,
           m.class_name || '::' || m.method_name = ${method}
               OR ends_with('.' || m.class_name || '::' || m.method_name, '.' || ${method}) AS asked
    FROM methods m
    JOIN recordings k ON k.recording = m.recording),
paths AS MATERIALIZED (
    SELECT k.r, p.stack_id, p.parent_stack_id, n.name_rank, n.asked, p.calls, p.total_ns, p.self_ns
    FROM stacks p
    JOIN recordings k ON k.recording = p.recording
    JOIN named n ON n.r = k.r AND n.method_id = p.method_id),
-- The walks below go a level per step. A join in a step would hash all the stacks again at every
-- step, so each step keeps the stacks whose caller (or callee) the step before found, a semi-join
-- that hashes only those few. First the stacks of ${method} and all their callers, up to the
-- outermost: the few stacks the walk up needs.
around AS MATERIALIZED (
    SELECT r, stack_id, parent_stack_id, asked FROM paths WHERE asked
    UNION
    SELECT p.r, p.stack_id, p.parent_stack_id, p.asked
    FROM paths p
    SEMI JOIN around c ON c.r = p.r AND c.parent_stack_id = p.stack_id),
-- From each stack of ${method} up its callers to the first that is ${method} too, if any: such a
-- stack runs inside another call of ${method}, whose tree it belongs to.
up AS (
    SELECT r, stack_id AS start, parent_stack_id AS caller, false AS stop FROM paths WHERE asked
    UNION ALL
    SELECT u.r, u.start, s.parent_stack_id, s.asked
    FROM up u
    JOIN around s ON s.r = u.r AND s.stack_id = u.caller
    WHERE NOT u.stop),
roots AS (
    SELECT r, stack_id FROM paths WHERE asked
    EXCEPT
    SELECT r, start FROM up WHERE stop),
-- Every stack below a root, once, with its level: the stacks of one step are all one level below
-- the root (a stack has one caller, and no root lies below another).
below AS MATERIALIZED (
    SELECT s.r, s.stack_id, s.parent_stack_id, s.name_rank, s.calls, s.total_ns, s.self_ns, 0 AS level
    FROM roots o
    JOIN paths s ON s.r = o.r AND s.stack_id = o.stack_id
    UNION ALL
    SELECT p.r, p.stack_id, p.parent_stack_id, p.name_rank, p.calls, p.total_ns, p.self_ns, (SELECT max(level) FROM below) + 1
    FROM paths p
    SEMI JOIN (SELECT r, stack_id FROM below WHERE level < ${depth}) b ON b.r = p.r AND b.stack_id = p.parent_stack_id),
-- A line of the tree is a path from ${method} down, kept as the ranks of its names, a few bytes
-- each, rather than as text, which would grow with the depth in every row (a compiler's recursive
-- descent has millions of stacks, 70 deep). The ranks also put the lines under one parent in the
-- order of their names. Each step joins only the next level's stacks.
digits AS (
    SELECT CASE WHEN max(name_rank) < 65536 THEN 4 ELSE 6 END AS n FROM named),
tree AS (
    SELECT s.r, s.stack_id, 0 AS level, from_hex(lpad(to_hex(s.name_rank), d.n, '0')) AS place, s.name_rank,
           s.calls, s.total_ns, s.self_ns
    FROM below s
    CROSS JOIN digits d
    WHERE s.level = 0
    UNION ALL
    SELECT s.r, s.stack_id, t.level + 1, t.place || from_hex(lpad(to_hex(s.name_rank), d.n, '0')), s.name_rank,
           s.calls, s.total_ns, s.self_ns
    FROM tree t
    JOIN (SELECT * FROM below WHERE level = (SELECT max(level) FROM tree) + 1) s ON s.r = t.r AND s.parent_stack_id = t.stack_id
    CROSS JOIN digits d),
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
