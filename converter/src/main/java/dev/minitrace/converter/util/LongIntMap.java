package dev.minitrace.converter.util;

import java.util.Arrays;

/**
 * An open-addressing map from a {@code long} key to a non-negative {@code int} (an index, an id or
 * a chunk stamp) without boxing, for tables consulted once per event. {@link #get} answers
 * {@link #MISSING} for an absent key; a negative value cannot be stored, so it never looks absent.
 * Key 0 is kept beside the table, which uses 0 to mark a free slot.
 */
public final class LongIntMap {
    /** The value {@link #get} returns for an absent key. */
    public static final int MISSING = -1;

    private long[] keys;
    private int[] values;
    private boolean hasZeroKey;
    private int zeroValue;
    private int size;
    private int mask;

    /** A map sized for about {@code expected} entries without rehashing. */
    public LongIntMap(int expected) {
        allocate(capacityFor(expected));
    }

    private static int capacityFor(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        return Math.max(8, cap);
    }

    /** The bytes of the table of a map sized for {@code expected} entries. */
    public static long tableBytes(int expected) {
        return capacityFor(expected) * (long) (Long.BYTES + Integer.BYTES);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new int[capacity];
        mask = capacity - 1;
    }

    /** Makes room for {@code more} further entries without rehashing on the way. */
    public void ensureRoomFor(int more) {
        long needed = (long) size + more;
        if (needed * 2 > keys.length) {
            rehash(capacityFor((int) Math.min(Integer.MAX_VALUE / 4, needed)));
        }
    }

    /** The number of keys. */
    public int size() {
        return size;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The value of {@code key}, or {@link #MISSING}. */
    public int get(long key) {
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

    /**
     * Maps {@code key} to {@code value}, replacing an earlier value.
     *
     * @throws IllegalArgumentException for a negative value
     */
    public void put(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("LongIntMap holds values >= 0; got " + value + " for key " + key);
        }
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

    /** Removes {@code key}; true when it was there. */
    public boolean remove(long key) {
        if (key == 0) {
            boolean had = hasZeroKey;
            if (had) {
                hasZeroKey = false;
                size--;
            }
            return had;
        }
        int i = slot(key, mask);
        while (true) {
            long cur = keys[i];
            if (cur == 0) {
                return false;
            }
            if (cur == key) {
                break;
            }
            i = (i + 1) & mask;
        }
        // backward-shift deletion: every key after the hole that may sit there moves up, so that no
        // probe sequence meets a free slot before its key (linear probing has no tombstones)
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long k = keys[j];
            if (k == 0) {
                break;
            }
            int home = slot(k, mask);
            // k may fill the hole when its home is not cyclically within (hole, j]
            if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
                keys[hole] = k;
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        size--;
        return true;
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

    /** Removes every key, keeping the capacity. */
    public void clear() {
        Arrays.fill(keys, 0L);
        hasZeroKey = false;
        size = 0;
    }

    /** The keys, in no particular order. */
    public long[] keys() {
        long[] r = new long[size];
        int n = 0;
        if (hasZeroKey) {
            r[n++] = 0;
        }
        for (long k : keys) {
            if (k != 0) {
                r[n++] = k;
            }
        }
        return r;
    }

    /** The keys ordered by their value, for maps whose values are 0..n-1. */
    public long[] keysByValue(int n) {
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

    @Override
    public String toString() {
        return "LongIntMap" + Arrays.toString(keys());
    }
}
