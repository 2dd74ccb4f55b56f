package dev.minitrace.converter.util;

import java.util.Arrays;

/**
 * An open-addressing map from {@code long} to {@code int} without boxing, for id tables that are
 * consulted once per event. {@link #MISSING} is returned for absent keys and cannot be stored.
 */
public final class LongIntMap {
    /** The value {@link #get} returns for an absent key. */
    public static final int MISSING = Integer.MIN_VALUE;

    private long[] keys;
    private int[] values;
    private boolean[] used;
    private int size;

    /** A map sized for about {@code expected} entries without resizing. */
    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        used = new boolean[cap];
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The value of {@code key}, or {@link #MISSING}. */
    public int get(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        return MISSING;
    }

    /** Stores {@code value} for {@code key}. */
    public void put(long key, int value) {
        if (value == MISSING) {
            throw new IllegalArgumentException("cannot store the MISSING marker for key " + key);
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** The number of keys. */
    public int size() {
        return size;
    }

    /** The keys, in no particular order. */
    public long[] keys() {
        long[] r = new long[size];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                r[n++] = keys[i];
            }
        }
        return r;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = values;
        boolean[] ou = used;
        keys = new long[ok.length * 2];
        values = new int[ok.length * 2];
        used = new boolean[ok.length * 2];
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ou[i]) {
                put(ok[i], ov[i]);
            }
        }
    }

    @Override
    public String toString() {
        return "LongIntMap" + Arrays.toString(keys());
    }
}
