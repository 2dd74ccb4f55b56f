SELECT class_id, name, recording FROM files_classes
