package dev.minitrace.views.timeline;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.TraceWriter;
import dev.minitrace.converter.write.TraceWriterFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The timeline: writes the trace in the Trace Event Format (JSON), which Perfetto's UI,
 * {@code chrome://tracing} and speedscope open. Records come merged by time
 * ({@link Order#TIME}), so the {@code --max-events} cut falls at one moment for all threads. Each
 * thread's records are laid out in time by a {@link TickGroup} and become slices on the thread's
 * {@link ThreadTrack}; the events wait in an {@link EventSpool} until the names are known and are
 * written by {@link TraceEventJson} at the end, with the GCs and the fragment points.
 */
public final class ChromeTraceWriter implements TraceWriter {
    private final Path out;
    private final long origin;
    private final long recordingEnd;
    private final long windowStart;
    private final long windowEnd;
    private final EventSpool spool;
    private final ThreadTrack.Cut cut;
    private final Map<Long, ThreadTrack> tracks = new HashMap<>();
    private final List<ThreadTrack> order = new ArrayList<>();
    private ThreadTrack lastTrack;
    private final List<long[]> fragments = new ArrayList<>();
    private TimelineSummary summary;

    /**
     * A writer for a recording of {@code [startNanos, endNanos)}; times in the file are relative to
     * {@code startNanos}.
     */
    public ChromeTraceWriter(Path out, TimelineOptions options, long startNanos, long endNanos) throws IOException {
        this.out = out;
        this.origin = startNanos;
        this.recordingEnd = endNanos;
        this.windowStart = options.from() == null ? startNanos : Math.max(startNanos, options.from().resolve(startNanos));
        this.windowEnd = options.to() == null ? endNanos : Math.min(endNanos, options.to().resolve(startNanos));
        Path dir = options.spoolDir() != null ? options.spoolDir() : out.toAbsolutePath().getParent();
        this.spool = new EventSpool(dir);
        this.cut = new ThreadTrack.Cut(options.maxEvents());
    }

    /** The factory the converter opens this writer with. */
    public static TraceWriterFactory factory(Path out, TimelineOptions options, List<ChromeTraceWriter> opened) {
        return (start, end) -> {
            ChromeTraceWriter w = new ChromeTraceWriter(out, options, start, end);
            opened.add(w);
            return w;
        };
    }

    @Override
    public Order order() {
        return Order.TIME;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        ThreadTrack track = track(threadKey);
        TickGroup ticks = track.ticks;
        for (int i = from; i < to; i++) {
            ticks.add(type[i], value[i], aux[i], time[i], track);
        }
    }

    private ThreadTrack track(long key) {
        ThreadTrack t = lastTrack;
        if (t != null && t.key == key) {
            return t;
        }
        t = tracks.get(key);
        if (t == null) {
            t = new ThreadTrack(key, spool, cut);
            tracks.put(key, t);
            order.add(t);
        }
        lastTrack = t;
        return t;
    }

    /**
     * A GC pause starts a fragment: every thread's records before it happened before it, so the
     * records waiting for their next stamp are laid out before the pause.
     */
    @Override
    public void fragment(long threadKey, long gcId, long startNanos) throws IOException {
        for (ThreadTrack t : order) {
            if (t.ticks.pending()) {
                t.ticks.flush(startNanos, t);
            }
        }
        fragments.add(new long[] {gcId, startNanos});
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        // After a cut the open calls still ended at their real ends; what never ended ends here.
        int endKind = windowEnd < recordingEnd ? ThreadTrack.END_WINDOW : ThreadTrack.END_RECORDING;
        for (ThreadTrack t : order) {
            t.ticks.flush(windowEnd, t);
            t.endAll(windowEnd, endKind);
        }
        summary = new TraceEventJson(tables, origin, windowStart, windowEnd, cut, order, fragments).write(spool, out);
    }

    /** What was written, once {@link #finish} ran. */
    public TimelineSummary summary() {
        return summary;
    }

    @Override
    public void close() throws IOException {
        spool.close();
    }
}
