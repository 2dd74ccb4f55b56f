package dev.minitrace.views.report;

import dev.minitrace.converter.util.LongIntMap;
import java.util.Arrays;

/**
 * Per monitor (object id): acquisitions, holds (outermost acquire to its release), their total and
 * longest time, and the threads that took it (the number, and the first few). The same per class
 * of monitor. Monitors beyond {@link #MAX_MONITORS} are counted only per class.
 */
final class MonitorStats {
    static final int MAX_MONITORS = 100_000;
    /** Thread ordinals kept per monitor for the page. */
    static final int NAMED_THREADS = 4;

    private final LongIntMap index = new LongIntMap(1024);
    long[] object = new long[256];
    long[] acquisitions = new long[256];
    long[] holds = new long[256];
    long[] holdTime = new long[256];
    long[] longest = new long[256];
    int[] threads = new int[256];
    int[] lastThread = new int[256];
    int[] named = new int[256 * NAMED_THREADS];
    int size;
    long unlisted;

    private final LongIntMap classIndex = new LongIntMap(256);
    long[] classId = new long[64];
    long[] classAcquisitions = new long[64];
    long[] classHoldTime = new long[64];
    long[] classLongest = new long[64];
    int classes;

    /** A monitor acquire by thread {@code thread} (an ordinal). */
    void acquire(long objectId, int thread) {
        int c = classSlot(objectId >>> 32);
        classAcquisitions[c]++;
        int i = slot(objectId);
        if (i < 0) {
            return;
        }
        acquisitions[i]++;
        if (lastThread[i] != thread) {
            // threads are written one after another, so a monitor meets each thread in one run
            if (threads[i] < NAMED_THREADS) {
                named[i * NAMED_THREADS + threads[i]] = thread;
            }
            threads[i]++;
            lastThread[i] = thread;
        }
    }

    /** The end of an outermost hold of {@code durationNanos} (unknown: -1). */
    void hold(long objectId, long durationNanos) {
        int c = classSlot(objectId >>> 32);
        int i = index.get(objectId);
        if (i != LongIntMap.MISSING) {
            holds[i]++;
        }
        if (durationNanos >= 0) {
            classHoldTime[c] += durationNanos;
            classLongest[c] = Math.max(classLongest[c], durationNanos);
            if (i != LongIntMap.MISSING) {
                holdTime[i] += durationNanos;
                longest[i] = Math.max(longest[i], durationNanos);
            }
        }
    }

    private int slot(long objectId) {
        int i = index.get(objectId);
        if (i != LongIntMap.MISSING) {
            return i;
        }
        if (size >= MAX_MONITORS) {
            unlisted++;
            return -1;
        }
        if (size == object.length) {
            int n = size * 2;
            object = Arrays.copyOf(object, n);
            acquisitions = Arrays.copyOf(acquisitions, n);
            holds = Arrays.copyOf(holds, n);
            holdTime = Arrays.copyOf(holdTime, n);
            longest = Arrays.copyOf(longest, n);
            threads = Arrays.copyOf(threads, n);
            lastThread = Arrays.copyOf(lastThread, n);
            named = Arrays.copyOf(named, n * NAMED_THREADS);
        }
        object[size] = objectId;
        lastThread[size] = -1;
        index.put(objectId, size);
        return size++;
    }

    private int classSlot(long cls) {
        int c = classIndex.get(cls);
        if (c == LongIntMap.MISSING) {
            if (classes == classId.length) {
                int n = classes * 2;
                classId = Arrays.copyOf(classId, n);
                classAcquisitions = Arrays.copyOf(classAcquisitions, n);
                classHoldTime = Arrays.copyOf(classHoldTime, n);
                classLongest = Arrays.copyOf(classLongest, n);
            }
            c = classes++;
            classId[c] = cls;
            classIndex.put(cls, c);
        }
        return c;
    }
}
