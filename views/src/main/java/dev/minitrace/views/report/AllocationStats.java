package dev.minitrace.views.report;

import dev.minitrace.converter.util.CountTable;

/**
 * Allocations per site (the allocating method and bytecode index) and per class. A site allocates
 * one class unless its instruction does more (then {@link #siteMixed}). Sites beyond
 * {@link #MAX_SITES} are counted only per class.
 */
final class AllocationStats {
    static final int MAX_SITES = 100_000;

    private static final int SITE_CLASS = 0;
    private static final int SITE_MIXED = 1;
    private static final int SITE_COUNT = 2;

    /** Per site, keyed by (method index + 1, bytecode index): its class, whether it is mixed, its count. */
    private final CountTable sites = new CountTable(3, 256, MAX_SITES);
    long unsited;

    /** Per class id: the allocations. */
    private final CountTable classes = new CountTable(1, 64);
    long total;

    void add(int methodIndex, int bci, long objectId) {
        total++;
        long cls = objectId >>> 32;
        classes.add(classes.row(cls), 0, 1);
        int known = sites.rows();
        int s = sites.row(((long) (methodIndex + 1) << 32) | (bci & 0xFFFF_FFFFL));
        if (s == CountTable.FULL) {
            unsited++;
            return;
        }
        if (s == known) {
            sites.set(s, SITE_CLASS, cls);
        } else if (sites.get(s, SITE_CLASS) != cls) {
            sites.set(s, SITE_MIXED, 1);
        }
        sites.add(s, SITE_COUNT, 1);
    }

    /** The number of sites. */
    int sites() {
        return sites.rows();
    }

    /** The method index of site {@code s}'s frame, -1 when no traced method was running. */
    int siteMethod(int s) {
        return (int) (sites.key(s) >>> 32) - 1;
    }

    int siteBci(int s) {
        return (int) sites.key(s);
    }

    long siteClass(int s) {
        return sites.get(s, SITE_CLASS);
    }

    boolean siteMixed(int s) {
        return sites.get(s, SITE_MIXED) != 0;
    }

    long siteCount(int s) {
        return sites.get(s, SITE_COUNT);
    }

    /** The number of classes. */
    int classes() {
        return classes.rows();
    }

    long classId(int c) {
        return classes.key(c);
    }

    long classCount(int c) {
        return classes.get(c, 0);
    }
}
