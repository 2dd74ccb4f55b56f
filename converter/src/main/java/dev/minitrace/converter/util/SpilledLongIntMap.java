package dev.minitrace.converter.util;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A map from a {@code long} key to a non-negative {@code int} whose heap stays bounded however many
 * keys it holds: the latest changes are kept in a {@link LongIntMap} of at most {@code memoryEntries}
 * keys; when it is full, its entries go to a scratch file as one run sorted by key, which is mapped
 * and searched by halving, the newest run first. A removal is a mark kept until the oldest run (a
 * key may still be in an older run).
 *
 * <p>Why: a writer that must answer for every object of a trace (Elephant Tracks' ids) would
 * otherwise hold a map entry per object in the heap, tens of millions on a real recording; most
 * are never asked for again, and a run that is never read costs its disk bytes only (mapped pages
 * enter memory when read). A lookup costs a hash probe, then a binary search per run.
 */
public final class SpilledLongIntMap implements Closeable {
    /** The value {@link #get} returns for an absent key. */
    public static final int MISSING = LongIntMap.MISSING;
    /** Bytes of a run entry: the key, then the value + 1 (0 marks a removed key). */
    private static final int ENTRY_BYTES = 12;
    private static final int REMOVED = 0;

    private final Path dir;
    private final int memoryEntries;
    /** Key -> value + 1, or {@link #REMOVED}. */
    private final LongIntMap recent;
    private ScratchFile file;
    private long fileBytes;
    /** Sorted runs, oldest first. */
    private final List<MappedByteBuffer> runs = new ArrayList<>();

    /** A map that keeps at most {@code memoryEntries} keys in the heap and the rest in a scratch file in {@code dir}. */
    public SpilledLongIntMap(Path dir, int memoryEntries) {
        this.dir = dir;
        this.memoryEntries = memoryEntries;
        this.recent = new LongIntMap(memoryEntries);
    }

    /** The heap a map of {@code memoryEntries} keys holds at most: its table and the keys sorted for a spill. */
    public static long heapBytes(int memoryEntries) {
        return LongIntMap.tableBytes(memoryEntries) + 8L * memoryEntries + (1 << 16);
    }

    /** The value of {@code key}, or {@link #MISSING}. */
    public int get(long key) {
        int v = recent.get(key);
        for (int r = runs.size() - 1; v == MISSING && r >= 0; r--) {
            v = find(runs.get(r), key);
        }
        return v == MISSING || v == REMOVED ? MISSING : v - 1;
    }

    /** Maps {@code key} to {@code value} ({@code 0 <= value < Integer.MAX_VALUE}). */
    public void put(long key, int value) throws IOException {
        if (value < 0 || value == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("SpilledLongIntMap holds values in [0, 2^31 - 1); got " + value + " for key " + key);
        }
        roomForOne();
        recent.put(key, value + 1);
    }

    /** Removes {@code key} (which may be absent). */
    public void remove(long key) throws IOException {
        if (runs.isEmpty()) {
            recent.remove(key);
        } else {
            roomForOne();
            recent.put(key, REMOVED);
        }
    }

    /** The runs written so far (for tests and reports). */
    public int runs() {
        return runs.size();
    }

    private void roomForOne() throws IOException {
        if (recent.size() >= memoryEntries) {
            spill();
        }
    }

    private void spill() throws IOException {
        if (file == null) {
            file = new ScratchFile(dir, "spilled-ids", ".tmp");
        }
        long[] keys = recent.keys();
        Arrays.sort(keys);
        ByteBuffer b = ByteBuffer.allocate((1 << 16) / ENTRY_BYTES * ENTRY_BYTES);
        FileChannel ch = file.channel();
        long at = fileBytes;
        for (long k : keys) {
            if (!b.hasRemaining()) {
                at += drain(b, ch, at);
            }
            b.putLong(k).putInt(recent.get(k));
        }
        at += drain(b, ch, at);
        long bytes = (long) keys.length * ENTRY_BYTES;
        runs.add(ch.map(FileChannel.MapMode.READ_ONLY, fileBytes, bytes));
        fileBytes += bytes;
        recent.clear();
    }

    private static long drain(ByteBuffer b, FileChannel ch, long at) throws IOException {
        b.flip();
        long n = 0;
        while (b.hasRemaining()) {
            n += ch.write(b, at + n);
        }
        b.clear();
        return n;
    }

    /** The stored value (value + 1, or {@link #REMOVED}) of {@code key} in {@code run}, or {@link #MISSING}. */
    private static int find(MappedByteBuffer run, long key) {
        int lo = 0;
        int hi = run.capacity() / ENTRY_BYTES - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = run.getLong(mid * ENTRY_BYTES);
            if (k < key) {
                lo = mid + 1;
            } else if (k > key) {
                hi = mid - 1;
            } else {
                return run.getInt(mid * ENTRY_BYTES + 8);
            }
        }
        return MISSING;
    }

    @Override
    public void close() throws IOException {
        runs.clear();
        if (file != null) {
            file.close();
        }
    }
}
