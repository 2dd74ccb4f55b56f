package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.mtlog.Names;
import dev.minitrace.converter.util.LongIntMap;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of an {@code .mtlog} file: records per type, per thread and per fragment (fragments are
 * keyed by the GC that opened them; {@code start} is the first fragment), and the most entered
 * methods, most allocated classes and most acquired monitors.
 */
public final class MtlogSummary {
    /** Counts per record type (index = type; unknown types are summed at index 0). */
    public final long[] byType = new long[MtlogFormat.MAX_TYPE + 1];
    /** Records (without GC_TIMESTAMP) per thread id. */
    public final Map<Long, Long> byThread = new TreeMap<>();
    /** Records (without GC_TIMESTAMP) per fragment: -1 = before any GC, else the GC id that opened it. */
    public final Map<Long, Long> byFragment = new TreeMap<>();
    private final CountTable methods = new CountTable();
    private final CountTable classes = new CountTable();
    private final CountTable monitors = new CountTable();
    private final CountTable throwers = new CountTable();
    private final CountTable fields = new CountTable();
    private final CountTable deathsByClass = new CountTable();
    private final CountTable allocsByClass = new CountTable();
    /** Deaths per GC id of their fragment (aux; -1: before any fragment point; thread layout only). */
    public final Map<Long, Long> deathsByGc = new TreeMap<>();
    private final MtlogReader reader;

    private MtlogSummary(MtlogReader reader) {
        this.reader = reader;
    }

    /** Reads every record of {@code reader}. */
    public static MtlogSummary of(MtlogReader reader) throws IOException {
        MtlogSummary s = new MtlogSummary(reader);
        boolean global = reader.globalLayout();
        for (int stream : reader.streamIds()) {
            long[] fragment = {-1};
            reader.forEachRecord(stream, (id, type, value, aux) -> {
                s.byType[type <= MtlogFormat.MAX_TYPE && !MtlogFormat.typeName(type).startsWith("TYPE_") ? type : 0]++;
                if (type == MtlogFormat.GC_TIMESTAMP) {
                    fragment[0] = aux & 0xFFFFFFFFL;
                    return;
                }
                long thread = global ? aux & 0xFFFFFFFFL : id & 0xFFFFFFFFL;
                s.byThread.merge(thread, 1L, Long::sum);
                s.byFragment.merge(fragment[0], 1L, Long::sum);
                switch (type) {
                    case MtlogFormat.METHOD_ENTRY -> s.methods.add(value);
                    case MtlogFormat.OBJECT_ALLOC -> {
                        s.classes.add(value >>> 32);
                        s.allocsByClass.add(value >>> 32);
                    }
                    case MtlogFormat.OBJECT_DEATH -> {
                        s.deathsByClass.add(value >>> 32);
                        if (!global) {
                            s.deathsByGc.merge(aux == -1 ? -1L : aux & 0xFFFFFFFFL, 1L, Long::sum);
                        }
                    }
                    case MtlogFormat.LOCK_ACQUIRE -> s.monitors.add(value);
                    case MtlogFormat.EXCEPTION_THROW -> s.throwers.add(value);
                    case MtlogFormat.FIELD_STORE -> s.fields.add(value);
                    case MtlogFormat.ARRAY_STORE -> s.fields.add(-1); // every array element counted as one "field"
                    default -> {
                    }
                }
            });
        }
        return s;
    }

    /** Prints the summary as text, with the {@code top} most frequent methods, classes and monitors. */
    public void print(PrintWriter out, int top) {
        Names names = new Names(reader.info());
        out.printf("layout %s, %d records, %d threads, %d GCs%s%n", reader.globalLayout() ? "global" : "thread",
                reader.recordCount(), byThread.size(), reader.info().gcs().size(), reader.truncated() ? " (TRUNCATED)" : "");
        out.println("records per type:");
        for (int t = 1; t <= MtlogFormat.MAX_TYPE; t++) {
            if (t <= MtlogFormat.MAX_BASE_TYPE || byType[t] > 0) { // files without heap records print as before
                out.printf("  %-13s %d%n", MtlogFormat.typeName(t), byType[t]);
            }
        }
        if (byType[0] > 0) {
            out.printf("  %-13s %d%n", "other", byType[0]);
        }
        out.println("records per thread:");
        byThread.forEach((t, n) -> out.printf("  %d %s: %d%n", t, names.thread(t), n));
        out.println("records per fragment:");
        byFragment.forEach((f, n) -> out.printf("  %s: %d%n", f < 0 ? "start" : "after gc " + f + " " + names.gc(f), n));
        out.println("top methods (entries):");
        for (long[] e : methods.top(top)) {
            out.printf("  %d %s%n", e[1], names.method(e[0]));
        }
        out.println("top allocated classes:");
        for (long[] e : classes.top(top)) {
            out.printf("  %d %s%n", e[1], names.className(e[0]));
        }
        out.println("top monitors (acquisitions):");
        for (long[] e : monitors.top(top)) {
            out.printf("  %d %s%n", e[1], names.object(e[0]));
        }
        if (byType[MtlogFormat.EXCEPTION_THROW] + byType[MtlogFormat.EXCEPTION_HANDLED] > 0) {
            out.println("top throwing methods (athrow):");
            for (long[] e : throwers.top(top)) {
                out.printf("  %d %s%n", e[1], names.method(e[0]));
            }
        }
        if (byType[MtlogFormat.OBJECT_DEATH] > 0) {
            out.println("deaths per class (of objects whose allocation was recorded):");
            for (long[] e : deathsByClass.top(top)) {
                out.printf("  %d %s%n", e[1], names.className(e[0]));
            }
            if (!deathsByGc.isEmpty()) {
                out.println("deaths per fragment (the GC that found them unreachable):");
                deathsByGc.forEach((g, n) -> out.printf("  %s: %d%n", g < 0 ? "start" : "gc " + g + " " + names.gc(g), n));
            }
            long never = byType[MtlogFormat.OBJECT_ALLOC] - byType[MtlogFormat.OBJECT_DEATH];
            out.printf("objects never seen to die (still reachable when the recording ended, or not watched): %d of %d allocated%n",
                    Math.max(0, never), byType[MtlogFormat.OBJECT_ALLOC]);
        }
        if (byType[MtlogFormat.FIELD_STORE] + byType[MtlogFormat.ARRAY_STORE] > 0) {
            out.println("most updated fields (reference stores):");
            for (long[] e : fields.top(top)) {
                out.printf("  %d %s%n", e[1], e[0] == -1 ? "array elements" : names.field(e[0]));
            }
        }
        out.flush();
    }

    /** Entries of the most frequent methods: {@code {methodId, count}}, most frequent first. */
    public List<long[]> topMethods(int n) {
        return methods.top(n);
    }

    /** Counts per key without boxing. */
    private static final class CountTable {
        private final LongIntMap index = new LongIntMap(256);
        private long[] keys = new long[256];
        private long[] counts = new long[256];
        private int size;

        void add(long key) {
            int i = index.get(key);
            if (i == LongIntMap.MISSING) {
                if (size == keys.length) {
                    keys = java.util.Arrays.copyOf(keys, size * 2);
                    counts = java.util.Arrays.copyOf(counts, size * 2);
                }
                i = size++;
                keys[i] = key;
                index.put(key, i);
            }
            counts[i]++;
        }

        List<long[]> top(int n) {
            List<long[]> all = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                all.add(new long[] {keys[i], counts[i]});
            }
            all.sort((a, b) -> a[1] != b[1] ? Long.compare(b[1], a[1]) : Long.compareUnsigned(a[0], b[0]));
            return all.subList(0, Math.min(n, all.size()));
        }
    }
}
