package dev.minitrace.converter.jfr.fast;

import java.util.Arrays;

/**
 * Open-addressing map from a {@code long} key to a non-negative {@code int} (an index into the
 * struct-of-arrays tables of {@link ChunkConstants}). No boxing; sized up front from the entry
 * count a constant pool declares, grows only when a pool is split over several checkpoints.
 */
final class LongIntMap {
    /** Returned by {@link #get} for a key that is not present. */
    static final int MISSING = -1;

    private long[] keys;
    private int[] values;
    private boolean hasZeroKey;
    private int zeroValue;
    private int size;
    private int mask;

    LongIntMap(int expected) {
        allocate(capacityFor(expected));
    }

    private static int capacityFor(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        return Math.max(8, cap);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new int[capacity];
        mask = capacity - 1;
    }

    /** Makes room for {@code more} further entries without rehashing on the way. */
    void ensureRoomFor(int more) {
        long needed = (long) size + more;
        if (needed * 2 > keys.length) {
            rehash(capacityFor((int) Math.min(Integer.MAX_VALUE / 4, needed)));
        }
    }

    int size() {
        return size;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    int get(long key) {
        if (key == 0) {
            return hasZeroKey ? zeroValue : MISSING;
        }
        long[] k = keys;
        int m = mask;
        int i = slot(key, m);
        while (true) {
            long cur = k[i];
            if (cur == key) {
                return values[i];
            }
            if (cur == 0) {
                return MISSING;
            }
            i = (i + 1) & m;
        }
    }

    /** Maps {@code key} to {@code value}, replacing an earlier value. */
    void put(long key, int value) {
        if (key == 0) {
            if (!hasZeroKey) {
                size++;
            }
            hasZeroKey = true;
            zeroValue = value;
            return;
        }
        if ((size + 1) * 2 > keys.length) {
            rehash(keys.length * 2);
        }
        int i = slot(key, mask);
        while (true) {
            long cur = keys[i];
            if (cur == key) {
                values[i] = value;
                return;
            }
            if (cur == 0) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    private void rehash(int capacity) {
        long[] oldKeys = keys;
        int[] oldValues = values;
        allocate(capacity);
        for (int i = 0; i < oldKeys.length; i++) {
            long key = oldKeys[i];
            if (key != 0) {
                int j = slot(key, mask);
                while (keys[j] != 0) {
                    j = (j + 1) & mask;
                }
                keys[j] = key;
                values[j] = oldValues[i];
            }
        }
    }

    void clear() {
        Arrays.fill(keys, 0L);
        hasZeroKey = false;
        size = 0;
    }

    /** @return the keys ordered by their value, for maps whose values are 0..n-1 */
    long[] keysByValue(int n) {
        long[] out = new long[n];
        if (hasZeroKey && zeroValue < n) {
            out[zeroValue] = 0;
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0 && values[i] < n) {
                out[values[i]] = keys[i];
            }
        }
        return out;
    }
}
