package dev.minitrace.converter.jfr.fast;

import java.io.IOException;

/**
 * The bytes of a chunk's pooled strings, read when an event refers to one (the pools are not kept
 * in memory: a chunk's can exceed the heap). A real recording's chunk refers to a million of them
 * (JDK 17 pools every string of 16 to 128 chars, small MethodBuffer events' records among them;
 * JDK 25 up to 128 K chars, every MethodBuffer's), so one system call each is what reading costs.
 *
 * <p>Two windows of the chunk, each loaded as the kernel reads ahead: a miss just past a window's
 * start reloads that window from the miss with twice its last size (up to a limit); any other miss
 * loads a small window in place of the one used least recently. So the records' strings, which
 * follow one another in the pool, are read a large window at a time while a string the events
 * refer to again and again (a thread's name between them) keeps the other window, and strings
 * read in no order cost a small read each, as they did before.
 */
final class PlacedText {
    /** Bytes a window starts with. */
    static final int FIRST = 4096;

    private final int first;
    private final int maxWindow;
    private final byte[][] bytes = {new byte[0], new byte[0]};
    private final long[] base = new long[2];
    private final int[] length = new int[2];
    private final int[] next = new int[2];
    /** The window used last. */
    private int recent;

    /** @param maxWindow the largest window; below {@link #FIRST} (tests), also the first */
    PlacedText(int maxWindow) {
        this.maxWindow = Math.max(1, maxWindow);
        this.first = Math.min(FIRST, this.maxWindow);
        clear();
    }

    /** Forgets what was loaded: a new chunk. */
    void clear() {
        for (int w = 0; w < 2; w++) {
            length[w] = 0;
            next[w] = first;
        }
    }

    /**
     * Makes {@code [chunkOffset, chunkOffset + n)} readable in {@link #bytes()} and returns where it
     * starts there; {@code chunkSize} clips what is read ahead.
     */
    int at(ChunkInput.Loader loader, long chunkOffset, int n, long chunkSize) throws IOException {
        for (int w = 0; w < 2; w++) {
            if (chunkOffset >= base[w] && chunkOffset + n <= base[w] + length[w]) {
                recent = w;
                return (int) (chunkOffset - base[w]);
            }
        }
        int w;
        int size;
        int ahead = forward(0, chunkOffset) ? 0 : forward(1, chunkOffset) ? 1 : -1;
        if (ahead >= 0) {
            w = ahead;
            size = Math.min(maxWindow, 2 * next[w]);
        } else {
            w = 1 - recent;
            size = first;
        }
        int load = (int) Math.max(n, Math.min(size, chunkSize - chunkOffset));
        if (bytes[w].length < load) {
            bytes[w] = new byte[Math.max(load, Math.min(maxWindow, 2 * bytes[w].length))];
        }
        length[w] = 0; // until loaded: a failed load leaves nothing that looks valid
        loader.load(chunkOffset, bytes[w], load);
        base[w] = chunkOffset;
        length[w] = load;
        next[w] = size;
        recent = w;
        return 0;
    }

    /** The window of the last {@link #at}. */
    byte[] bytes() {
        return bytes[recent];
    }

    /** True when a miss at {@code chunkOffset} continues window {@code w} forward (past its start, within its size again). */
    private boolean forward(int w, long chunkOffset) {
        return length[w] > 0 && chunkOffset > base[w] && chunkOffset <= base[w] + 2L * length[w];
    }
}
