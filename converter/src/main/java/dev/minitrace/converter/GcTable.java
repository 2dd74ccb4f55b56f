package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.IndexSort;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GCs of a recording: what {@code jdk.GarbageCollection} says of each and the start of its
 * first pause ({@code jdk.GCPhasePause}), and from them the sorted list of fragment points (pause
 * start, GC id) that a {@link FragmentPolicy} selects. GCs are few, so plain maps suffice.
 */
final class GcTable {
    private static final class Gc {
        String name;
        String cause;
        long start;
        long duration;
        long firstPause = Long.MAX_VALUE;
        /** True while every pause seen is one of G1's concurrent-cycle pauses. */
        boolean onlyConcurrentCyclePauses = true;
    }

    private final FragmentPolicy policy;
    private final Map<Long, Gc> gcs = new TreeMap<>();
    private boolean dirty = true;
    private long[] pointTime = new long[0];
    private long[] pointGc = new long[0];

    GcTable(FragmentPolicy policy) {
        this.policy = policy;
    }

    void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos) {
        Gc g = gcs.computeIfAbsent(gcId, k -> new Gc());
        g.name = name;
        g.cause = cause;
        g.start = startNanos;
        g.duration = durationNanos;
        dirty = true;
    }

    void pause(long gcId, String name, long startNanos) {
        Gc g = gcs.computeIfAbsent(gcId, k -> new Gc());
        if (!FragmentPolicy.isConcurrentCyclePause(name)) {
            g.onlyConcurrentCyclePauses = false;
        }
        if (startNanos < g.firstPause) {
            g.firstPause = startNanos;
            dirty = true;
        }
    }

    int size() {
        return (int) gcs.values().stream().filter(g -> g.name != null || g.firstPause != Long.MAX_VALUE).count();
    }

    /**
     * Rebuilds the fragment points if GCs were added since. A GC whose jdk.GarbageCollection has
     * not arrived yet (a concurrent cycle still running at the end of a chunk) is judged by its
     * pauses' names; a GC known by neither is left out.
     */
    private void refresh() {
        if (!dirty) {
            return;
        }
        int n = 0;
        long[] t = new long[gcs.size()];
        long[] id = new long[gcs.size()];
        for (Map.Entry<Long, Gc> e : gcs.entrySet()) {
            Gc g = e.getValue();
            boolean starts = g.name != null ? policy.startsFragment(g.name)
                    : g.firstPause != Long.MAX_VALUE && policy.startsFragmentByPauses(g.onlyConcurrentCyclePauses);
            if (starts) {
                t[n] = g.firstPause != Long.MAX_VALUE ? g.firstPause : g.start;
                id[n] = e.getKey();
                n++;
            }
        }
        // gcs iterates by id, so equal times stay ordered by GC id (stable sort).
        int[] order = IndexSort.byKey(t, n);
        pointTime = new long[n];
        pointGc = new long[n];
        for (int i = 0; i < n; i++) {
            pointTime[i] = t[order[i]];
            pointGc[i] = id[order[i]];
        }
        dirty = false;
    }

    /** Fragment point times, ascending. */
    long[] pointTimes() {
        refresh();
        return pointTime;
    }

    /** The GC ids of {@link #pointTimes()}, index by index. */
    long[] pointGcIds() {
        refresh();
        return pointGc;
    }

    /**
     * Adds every GC to the INFO tables. A GC known only by its pauses (a concurrent cycle still
     * running when the recording ended) is listed with collector and cause {@code ?}, its first
     * pause as start and duration -1 (unknown).
     */
    void addTo(MtlogInfo info) {
        gcs.forEach((id, g) -> {
            if (g.name != null) {
                info.putGc(id, g.name, g.cause, g.start, g.duration);
            } else if (g.firstPause != Long.MAX_VALUE) {
                info.putGc(id, "?", "?", g.firstPause, -1);
            }
        });
    }
}
