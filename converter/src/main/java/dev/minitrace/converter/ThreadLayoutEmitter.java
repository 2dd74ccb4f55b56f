package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;

/** The thread-local logger layout: one stream per thread (stream id = thread id), {@code aux} = bytecode index. */
final class ThreadLayoutEmitter extends RecordEmitter {
    ThreadLayoutEmitter(MtlogWriter writer, GcTable gcs, long from, long to, int typeMask) {
        super(writer, gcs, from, to, typeMask);
    }

    @Override
    void emit(ThreadState[] threads, EventBuffer[] batches, int n) throws IOException {
        for (int k = 0; k < n; k++) {
            ThreadState ts = threads[k];
            EventBuffer b = batches[k];
            int stream = ts.streamId();
            for (int i = 0; i < b.size; i++) {
                if (!selected(b, i)) {
                    continue;
                }
                ts.cursor = fragmentsBefore(stream, ts.started, ts.cursor, b.time[i]);
                ts.started = true;
                ts.used = true;
                write(stream, b.type[i], b.value[i], b.aux[i]);
            }
        }
    }
}
