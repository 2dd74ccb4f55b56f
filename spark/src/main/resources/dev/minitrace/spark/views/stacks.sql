SELECT stack_id, parent_stack_id, method_id, depth, calls, total_ns, self_ns, max_ns, recording FROM files_stacks
