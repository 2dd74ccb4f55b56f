package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.IOException;
import java.nio.file.Path;

/** The {@code .mtlog} thread-local logger layout: one stream per thread (stream id = thread key), {@code aux} = bytecode index. */
public final class MtlogThreadLayout extends MtlogLayout {
    public MtlogThreadLayout(Path target, long startNanos) throws IOException {
        super(target, MtlogFormat.LAYOUT_THREAD, startNanos);
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        out.records((int) threadKey, type, value, aux, from, to);
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) throws IOException {
        out.record((int) threadKey, MtlogFormat.GC_TIMESTAMP, startNanos, (int) gcId);
    }
}
