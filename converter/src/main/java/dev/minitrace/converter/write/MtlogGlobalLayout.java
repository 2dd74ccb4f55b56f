package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.IOException;
import java.nio.file.Path;

/** The {@code .mtlog} global logger layout: one stream ({@code 0xFFFFFFFF}) in time order, {@code aux} = thread key. */
public final class MtlogGlobalLayout extends MtlogLayout {
    public MtlogGlobalLayout(Path target, long startNanos) throws IOException {
        super(target, MtlogFormat.LAYOUT_GLOBAL, startNanos);
    }

    @Override
    public Order order() {
        return Order.TIME;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        out.records(MtlogFormat.GLOBAL_STREAM_ID, type, value, (int) threadKey, from, to);
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) throws IOException {
        out.record(MtlogFormat.GLOBAL_STREAM_ID, MtlogFormat.GC_TIMESTAMP, startNanos, (int) gcId);
    }
}
