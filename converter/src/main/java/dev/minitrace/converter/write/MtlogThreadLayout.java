package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;
import java.nio.file.Path;

/** The {@code .mtlog} thread-local logger layout: one stream per thread (stream id = thread key), {@code aux} = bytecode index. */
public final class MtlogThreadLayout implements TraceWriter {
    private final MtlogWriter out;

    public MtlogThreadLayout(Path target, long startNanos) throws IOException {
        this.out = new MtlogWriter(target, MtlogFormat.LAYOUT_THREAD, startNanos);
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] value, int[] aux, int from, int to) throws IOException {
        out.records((int) threadKey, type, value, aux, from, to);
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) throws IOException {
        out.record((int) threadKey, MtlogFormat.GC_TIMESTAMP, startNanos, (int) gcId);
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        out.finish(tables);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
