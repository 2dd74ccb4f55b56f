package dev.minitrace.converter;

import java.util.Locale;
import java.util.Set;

/**
 * Which GCs start a fragment ({@code --fragments}). Each GC of the recording starts at most one
 * fragment, at the start of its first pause. {@link #MOVING} decides by the collector name of
 * {@code jdk.GarbageCollection}; the table is documented in {@code docs/mtlog-format.md}.
 */
public enum FragmentPolicy {
    /** GCs that can move objects (the default). */
    MOVING,
    /** Every GC. */
    ALL,
    /** No GC: every stream is one fragment. */
    NONE;

    /**
     * Collector names whose GCs never move objects: only G1's concurrent cycle ({@code G1Old},
     * whose pauses are Remark and Cleanup). Every other name moves objects: DefNew, SerialOld,
     * ParallelScavenge, ParallelOld, G1New (young and mixed), G1Full, and the concurrent
     * collectors' cycles (Z, ZGC Minor, ZGC Major, Shenandoah), which relocate objects while the
     * application runs. A collector this table does not know is taken as moving: a fragment too
     * many is harmless, one too few is not.
     */
    private static final Set<String> NOT_MOVING = Set.of("G1Old");

    /** True when a GC of collector {@code collectorName} starts a fragment under this policy. */
    public boolean startsFragment(String collectorName) {
        return switch (this) {
            case ALL -> true;
            case NONE -> false;
            case MOVING -> !NOT_MOVING.contains(collectorName);
        };
    }

    /** The pauses of G1's concurrent cycle, which do not move objects. */
    private static final Set<String> CONCURRENT_CYCLE_PAUSES = Set.of("Pause Remark", "Pause Cleanup");

    /** True for a pause name of G1's concurrent cycle ({@code Pause Remark}, {@code Pause Cleanup}). */
    static boolean isConcurrentCyclePause(String pauseName) {
        return CONCURRENT_CYCLE_PAUSES.contains(pauseName);
    }

    /**
     * The decision for a GC whose collector name is not known yet (its jdk.GarbageCollection comes
     * at the end of a concurrent cycle, possibly chunks later): by its pauses, which agrees with the
     * collector table (only G1's concurrent cycle has only Remark and Cleanup pauses).
     */
    boolean startsFragmentByPauses(boolean onlyConcurrentCyclePauses) {
        return switch (this) {
            case ALL -> true;
            case NONE -> false;
            case MOVING -> !onlyConcurrentCyclePauses;
        };
    }

    /** Parses {@code moving|all|none}, case-insensitive. */
    public static FragmentPolicy parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown fragment policy '" + s + "' (expected moving, all or none)");
        }
    }
}
