package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.LongIntMap;
import java.util.Arrays;

/**
 * The constant pools of one chunk that MiniTrace needs, resolved: threads, classes, methods
 * (JDK 25's {@code jdk.types.Method}), GC names and causes, symbols and strings. Keys are the
 * constant-pool references that events carry ({@code threadRef}, {@code classRef},
 * {@code methodRef}, ...); they are valid only within their chunk. Struct-of-arrays behind a
 * primitive long-keyed index; lookups of an unknown key return {@code null}, 0 or -1 as documented.
 * Valid until the reader moves to the next chunk; copy what must outlive it.
 */
public final class ChunkConstants {
    // Tables; each has an index (key -> row) and parallel columns.
    final Table threads = new Table();
    String[] threadOsName = new String[0];
    String[] threadJavaName = new String[0];
    long[] threadOsId = new long[0];
    long[] threadJavaId = new long[0];
    boolean[] threadVirtual = new boolean[0];

    final Table classes = new Table();
    long[] classNameRef = new long[0];
    long[] classPackageRef = new long[0];
    int[] classModifiers = new int[0];
    String[] className = new String[0];

    final Table packages = new Table();
    long[] packageNameRef = new long[0];

    final Table methods = new Table();
    long[] methodClassRef = new long[0];
    long[] methodNameRef = new long[0];
    long[] methodDescriptorRef = new long[0];
    int[] methodModifiers = new int[0];

    final Table symbols = new Table();
    String[] symbol = new String[0];
    final Table strings = new Table();
    /** A string-pool entry's text, when it is kept as text (null, empty, or resolved from another entry). */
    String[] string = new String[0];
    /**
     * Otherwise where its text is in the chunk: encoding ({@link ChunkInput#STRING_UTF8},
     * {@code LATIN1} or {@code CHAR_ARRAY}; 0 when kept as text), chunk offset, chars and bytes. JDK 25
     * puts the packed records' strings in the pool, hundreds of MB a chunk: they are read when used.
     */
    byte[] stringEncoding = new byte[0];
    long[] stringAt = new long[0];
    int[] stringChars = new int[0];
    int[] stringBytes = new int[0];
    /** Reads pooled text from the chunk. */
    ChunkInput input;
    final Table gcNames = new Table();
    String[] gcName = new String[0];
    final Table gcCauses = new Table();
    String[] gcCause = new String[0];

    /** A key index with a row count; the columns live in the enclosing object. */
    static final class Table {
        final LongIntMap index = new LongIntMap(16);
        int rows;

        void clear() {
            index.clear();
            rows = 0;
        }

        /** Returns the row for {@code key}, adding one (row = rows) when new; grows nothing itself. */
        int rowFor(long key) {
            int row = index.get(key);
            if (row < 0) {
                row = rows++;
                index.put(key, row);
            }
            return row;
        }

        int capacityNeeded(int more) {
            index.ensureRoomFor(more);
            return rows + more;
        }
    }

    void clear() {
        threads.clear();
        classes.clear();
        packages.clear();
        methods.clear();
        symbols.clear();
        strings.clear();
        gcNames.clear();
        gcCauses.clear();
        Arrays.fill(className, null);
        threadKeyCache = null;
    }

    // ---- threads ----

    /** @return the number of threads in this chunk's pool */
    public int threadCount() {
        return threads.rows;
    }

    /** @return the key of the {@code i}-th thread (0 ≤ i < {@link #threadCount()}), in pool order */
    public long threadRefAt(int i) {
        return threadKeys()[i];
    }

    private long[] threadKeyCache;

    private long[] threadKeys() {
        if (threadKeyCache == null || threadKeyCache.length != threads.rows) {
            threadKeyCache = threads.index.keysByValue(threads.rows);
        }
        return threadKeyCache;
    }

    /** @return true when {@code threadRef} is in this chunk's thread pool */
    public boolean hasThread(long threadRef) {
        return threads.index.get(threadRef) >= 0;
    }

    /** @return the OS thread name, or {@code null} when unknown */
    public String threadOsName(long threadRef) {
        int r = threads.index.get(threadRef);
        return r < 0 ? null : threadOsName[r];
    }

    /** @return the Java thread name, or {@code null} when unknown or not a Java thread */
    public String threadJavaName(long threadRef) {
        int r = threads.index.get(threadRef);
        return r < 0 ? null : threadJavaName[r];
    }

    /** @return the OS thread id; -1 when unknown and for virtual threads (as {@code RecordedThread}) */
    public long threadOsId(long threadRef) {
        int r = threads.index.get(threadRef);
        return r < 0 || threadVirtual[r] ? -1 : threadOsId[r];
    }

    /**
     * @return {@code Thread.threadId()}; -1 when unknown and for threads that are not Java threads
     *         (JFR writes 0; JDK 25's {@code RecordedThread} maps it to -1 too, JDK 17's does not)
     */
    public long threadJavaId(long threadRef) {
        int r = threads.index.get(threadRef);
        return r < 0 || threadJavaId[r] == 0 ? -1 : threadJavaId[r];
    }

    /** @return true for a virtual thread (JDK 21+ recordings; always false before) */
    public boolean threadVirtual(long threadRef) {
        int r = threads.index.get(threadRef);
        return r >= 0 && threadVirtual[r];
    }

    // ---- classes ----

    /** @return the class name with dots ({@code java.lang.String}, {@code [I}), or {@code null} */
    public String className(long classRef) {
        int r = classes.index.get(classRef);
        return r < 0 ? null : className[r];
    }

    /** @return the class's access flags, or 0 when unknown */
    public int classModifiers(long classRef) {
        int r = classes.index.get(classRef);
        return r < 0 ? 0 : classModifiers[r];
    }

    // ---- methods (jdk.types.Method, used by JDK 25's jdk.MethodTrace) ----

    /** @return true when {@code methodRef} is in this chunk's method pool */
    public boolean hasMethod(long methodRef) {
        return methods.index.get(methodRef) >= 0;
    }

    /** @return the class reference of the method's declaring class, or 0 when unknown */
    public long methodClassRef(long methodRef) {
        int r = methods.index.get(methodRef);
        return r < 0 ? 0 : methodClassRef[r];
    }

    /** @return the declaring class name with dots, or {@code null} */
    public String methodClassName(long methodRef) {
        return className(methodClassRef(methodRef));
    }

    /** @return the method name, or {@code null} */
    public String methodName(long methodRef) {
        int r = methods.index.get(methodRef);
        return r < 0 ? null : symbol(methodNameRef[r]);
    }

    /** @return the JVM method descriptor, or {@code null} */
    public String methodDescriptor(long methodRef) {
        int r = methods.index.get(methodRef);
        return r < 0 ? null : symbol(methodDescriptorRef[r]);
    }

    /** @return the method's access flags, or 0 when unknown */
    public int methodModifiers(long methodRef) {
        int r = methods.index.get(methodRef);
        return r < 0 ? 0 : methodModifiers[r];
    }

    // ---- GC names, symbols, strings ----

    /** @return the collector name of a {@code jdk.types.GCName} reference, or {@code null} */
    public String gcName(long gcNameRef) {
        int r = gcNames.index.get(gcNameRef);
        return r < 0 ? null : gcName[r];
    }

    /** @return the cause of a {@code jdk.types.GCCause} reference, or {@code null} */
    public String gcCause(long gcCauseRef) {
        int r = gcCauses.index.get(gcCauseRef);
        return r < 0 ? null : gcCause[r];
    }

    /** @return the text of a {@code jdk.types.Symbol} reference, or {@code null} */
    public String symbol(long symbolRef) {
        int r = symbols.index.get(symbolRef);
        return r < 0 ? null : symbol[r];
    }

    /** @return the string-pool entry ({@code java.lang.String} pool), or {@code null} */
    public String string(long stringRef) {
        int r = strings.index.get(stringRef);
        if (r < 0) {
            return null;
        }
        return stringEncoding[r] == 0 ? string[r] : readPlaced(r);
    }

    void stringText(int row, String s) {
        string[row] = s;
        stringEncoding[row] = 0;
    }

    void stringPlace(int row, byte encoding, long chunkOffset, int chars, int bytes) {
        string[row] = null;
        stringEncoding[row] = encoding;
        stringAt[row] = chunkOffset;
        stringChars[row] = chars;
        stringBytes[row] = bytes;
    }

    /** The text of a placed entry, read from the chunk (not kept: a chunk's pool can exceed the heap). */
    private String readPlaced(int r) {
        int n = stringBytes[r];
        int p = place(r);
        byte[] bytes = input.placed();
        switch (stringEncoding[r]) {
            case ChunkInput.STRING_UTF8:
                return new String(bytes, p, n, java.nio.charset.StandardCharsets.UTF_8);
            case ChunkInput.STRING_LATIN1:
                return new String(bytes, p, n, java.nio.charset.StandardCharsets.ISO_8859_1);
            default: {
                char[] c = new char[stringChars[r]];
                charArray(bytes, p, c, c.length);
                return new String(c);
            }
        }
    }

    /** Makes entry {@code r}'s bytes readable in {@link ChunkInput#placed()}; where they start there. */
    private int place(int r) {
        try {
            return input.placed(stringAt[r], stringBytes[r]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A char array's {@code n} chars from {@code bytes[p]} on: one varint per char, or two bytes when integers are not compressed. */
    private void charArray(byte[] bytes, int p, char[] dst, int n) {
        for (int i = 0; i < n; i++) {
            if (input.compressed) {
                int v = 0;
                for (int shift = 0; ; shift += 7) {
                    byte b = bytes[p++];
                    v |= (b & 0x7F) << shift;
                    if (b >= 0 || shift >= 14) {
                        break;
                    }
                }
                dst[i] = (char) v;
            } else {
                dst[i] = (char) ((bytes[p] & 0xFF) << 8 | bytes[p + 1] & 0xFF);
                p += 2;
            }
        }
    }
}
