SELECT field_id, class_name, field_name, descriptor, is_static, recording FROM files_fields
