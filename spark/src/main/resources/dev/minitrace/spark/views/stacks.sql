SELECT stack_id, parent_stack_id, method_id, calls, total_ns, self_ns, recording FROM files_stacks
