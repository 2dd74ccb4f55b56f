-- The calls of ${method} that took longer than ${over_ns} ns, slowest first, with their thread and
-- when they began.
SELECT c.recording,
       t.name AS thread,
       c.call_seq,
       make_timestamp(c.entry_ns // 1000) AS began,
       round(c.duration_ns / 1e6, 3) AS duration_ms,
       round(c.self_ns / 1e6, 3) AS self_ms,
       c.depth,
       c.exceptional
FROM calls c
JOIN methods m ON m.recording = c.recording AND m.method_id = c.method_id
LEFT JOIN threads t ON t.recording = c.recording AND t.thread = c.thread
WHERE (m.class_name || '::' || m.method_name = ${method}
       OR ends_with('.' || m.class_name || '::' || m.method_name, '.' || ${method}))
  AND c.duration_ns > ${over_ns}
-- calls of equal duration (a recursion's levels can end in the same tick) in a fixed order
ORDER BY c.duration_ns DESC, c.recording, c.thread, c.call_seq
