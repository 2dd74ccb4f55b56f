package dev.minitrace.views.report;

import dev.minitrace.converter.util.LongIntMap;
import java.util.Arrays;

/**
 * Allocations per site (the allocating method and bytecode index) and per class. A site allocates
 * one class unless its instruction does more (then {@link #siteMixed}). Sites beyond
 * {@link #MAX_SITES} are counted only per class.
 */
final class AllocationStats {
    static final int MAX_SITES = 100_000;

    private final LongIntMap siteIndex = new LongIntMap(1024);
    /** Method index of the site's frame, -1 when no traced method was running. */
    int[] siteMethod = new int[256];
    int[] siteBci = new int[256];
    long[] siteClass = new long[256];
    boolean[] siteMixed = new boolean[256];
    long[] siteCount = new long[256];
    int sites;
    long unsited;

    private final LongIntMap classIndex = new LongIntMap(256);
    long[] classId = new long[64];
    long[] classCount = new long[64];
    int classes;
    long total;

    void add(int methodIndex, int bci, long objectId) {
        total++;
        long cls = objectId >>> 32;
        int c = classIndex.get(cls);
        if (c == LongIntMap.MISSING) {
            if (classes == classId.length) {
                classId = Arrays.copyOf(classId, classes * 2);
                classCount = Arrays.copyOf(classCount, classes * 2);
            }
            c = classes++;
            classId[c] = cls;
            classIndex.put(cls, c);
        }
        classCount[c]++;
        long key = ((long) (methodIndex + 1) << 32) | (bci & 0xFFFF_FFFFL);
        int s = siteIndex.get(key);
        if (s == LongIntMap.MISSING) {
            if (sites >= MAX_SITES) {
                unsited++;
                return;
            }
            if (sites == siteMethod.length) {
                int n = sites * 2;
                siteMethod = Arrays.copyOf(siteMethod, n);
                siteBci = Arrays.copyOf(siteBci, n);
                siteClass = Arrays.copyOf(siteClass, n);
                siteMixed = Arrays.copyOf(siteMixed, n);
                siteCount = Arrays.copyOf(siteCount, n);
            }
            s = sites++;
            siteMethod[s] = methodIndex;
            siteBci[s] = bci;
            siteClass[s] = cls;
            siteIndex.put(key, s);
        } else if (siteClass[s] != cls) {
            siteMixed[s] = true;
        }
        siteCount[s]++;
    }
}
