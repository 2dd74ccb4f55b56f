SELECT method_id, class_name, method_name, descriptor, recording FROM files_methods
