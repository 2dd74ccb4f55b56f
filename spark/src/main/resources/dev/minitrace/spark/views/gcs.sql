SELECT gc_id, name, cause, start_ns, duration_ns, point_ns, recording FROM files_gcs
