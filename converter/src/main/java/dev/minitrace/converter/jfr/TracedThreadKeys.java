package dev.minitrace.converter.jfr;

import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.util.LongRows;
import java.util.Arrays;

/**
 * Finds the thread of a {@code minitrace.MethodBuffer} event whose {@code tracedThread} does not
 * resolve: JDK 17 writes a {@code Thread} field as null once the thread has ended, and a thread's
 * last buffer is often flushed after that. As {@code docs/trace-buffer.md} says, the thread is then
 * found by its Java thread id ({@code tracedThreadId}): the key of the thread declared with that
 * id, so that the records join the thread's stream; for a thread the recording never declares, a
 * key made from the id, declared with {@code tracedThreadName}. Within a chunk the thread's own
 * events may come after the buffer in the file, so an event whose id is not known yet waits
 * (copied into reusable columns) until the end of its chunk. Both engines feed every declaration
 * through {@link #declared} in the same order and resolve at the same points, so they choose the
 * same keys.
 */
public final class TracedThreadKeys {
    /** Made keys lie in the upper half of u32, far above JFR's small sequential thread ids. */
    static final long MADE_KEY_BASE = 0x8000_0000L;
    private final LongIntMap keyIndexByJavaId = new LongIntMap(64);
    private long[] keys = new long[64];
    private int size;

    // Events waiting for the end of their chunk; their records, then their names, in text.
    private static final int JAVA_ID = 0, FIRST_SEQUENCE = 1, RECORD_COUNT = 2, BASE_TIME = 3, TICKS_PER_SECOND = 4,
            RECORDS_LENGTH = 5, NAME_LENGTH = 6;
    private final LongRows waiting = new LongRows(NAME_LENGTH + 1, 8);
    private char[] text = new char[1024];
    private int textSize;

    /** A thread declared to the sink: {@code key} has Java thread id {@code javaThreadId}. */
    public void declared(long key, long javaThreadId) {
        if (javaThreadId <= 0 || key < 0) {
            return;
        }
        int i = keyIndexByJavaId.get(javaThreadId);
        if (i == LongIntMap.MISSING) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
            }
            keyIndexByJavaId.put(javaThreadId, size);
            keys[size++] = key;
        } else {
            keys[i] = key;
        }
    }

    /** The key of the thread declared with {@code javaThreadId}, or -1. */
    public long keyOf(long javaThreadId) {
        int i = javaThreadId <= 0 ? LongIntMap.MISSING : keyIndexByJavaId.get(javaThreadId);
        return i == LongIntMap.MISSING ? -1 : keys[i];
    }

    /**
     * Delivers the buffer event of a thread known only by {@code javaThreadId} (&gt; 0): decoded now
     * when a thread with that id was declared, else at {@link #endOfChunk}.
     */
    public void buffer(long javaThreadId, char[] name, int nameLength, char[] records, int length, long firstSequence,
            int recordCount, long baseTimeNanos, long ticksPerSecond, MethodBufferDecoder decoder, RecordingSink sink) {
        long key = keyOf(javaThreadId);
        if (key != -1) {
            decoder.decode(records, length, key, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, sink);
            return;
        }
        if (text.length - textSize < length + nameLength) {
            text = Arrays.copyOf(text, Math.max(textSize + length + nameLength, text.length * 2));
        }
        int w = waiting.add();
        waiting.set(w, JAVA_ID, javaThreadId);
        waiting.set(w, FIRST_SEQUENCE, firstSequence);
        waiting.set(w, RECORD_COUNT, recordCount);
        waiting.set(w, BASE_TIME, baseTimeNanos);
        waiting.set(w, TICKS_PER_SECOND, ticksPerSecond);
        waiting.set(w, RECORDS_LENGTH, length);
        waiting.set(w, NAME_LENGTH, nameLength);
        System.arraycopy(records, 0, text, textSize, length);
        System.arraycopy(name, 0, text, textSize + length, nameLength);
        textSize += length + nameLength;
    }

    /** As {@link #buffer(long, char[], int, char[], int, long, int, long, long, MethodBufferDecoder, RecordingSink)} with Strings. */
    public void buffer(long javaThreadId, String name, String records, long firstSequence, int recordCount,
            long baseTimeNanos, long ticksPerSecond, MethodBufferDecoder decoder, RecordingSink sink) {
        String n = name == null ? "" : name;
        String r = records == null ? "" : records;
        buffer(javaThreadId, n.toCharArray(), n.length(), r.toCharArray(), r.length(), firstSequence, recordCount,
                baseTimeNanos, ticksPerSecond, decoder, sink);
    }

    /**
     * The chunk's events are all read: decodes the waiting buffer events, each for the thread now
     * declared with its Java id, or for a made key declared with its name.
     */
    public void endOfChunk(MethodBufferDecoder decoder, RecordingSink sink) {
        int at = 0;
        for (int w = 0; w < waiting.size(); w++) {
            int length = (int) waiting.get(w, RECORDS_LENGTH);
            int nameLength = (int) waiting.get(w, NAME_LENGTH);
            long javaId = waiting.get(w, JAVA_ID);
            long key = keyOf(javaId);
            if (key == -1) {
                key = MADE_KEY_BASE | (javaId & 0x7FFF_FFFFL);
                sink.thread(key, javaId, new String(text, at + length, nameLength), false);
                declared(key, javaId);
            }
            char[] records = decoder.buffer(length);
            System.arraycopy(text, at, records, 0, length);
            decoder.decode(records, length, key, waiting.get(w, FIRST_SEQUENCE), (int) waiting.get(w, RECORD_COUNT),
                    waiting.get(w, BASE_TIME), waiting.get(w, TICKS_PER_SECOND), sink);
            at += length + nameLength;
        }
        waiting.truncate(0);
        textSize = 0;
    }
}
