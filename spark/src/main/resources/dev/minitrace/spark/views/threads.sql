SELECT thread, java_thread_id, name, recording FROM files_threads
