package dev.minitrace.converter.jfr;

/**
 * Writes the records of a {@code minitrace.MethodBuffer} event, written from
 * {@code docs/trace-buffer.md} alone (independent of the agent's code), so that tests can make
 * recordings with buffer events without the agent. Times are given as ticks since {@code baseTime}.
 */
public final class TraceBufferEncoder {
    private final StringBuilder sb = new StringBuilder();
    private int count;
    private long lastStamp;
    private boolean wideIds;

    /** From now on, method ids from 4096 to 16383 are written as wide ids (header bit 6, two chars of 7 bits), as the agent writes them. */
    public TraceBufferEncoder wideIds() {
        wideIds = true;
        return this;
    }

    /** A method entry; stamped when {@code ticks} ≥ 0 (ticks since baseTime, not less than the last stamp). */
    public TraceBufferEncoder entry(int methodId, long ticks) {
        return record(0, methodId, 0, ticks);
    }

    /** A method exit by a return instruction at {@code bci}; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder exit(int methodId, int bci, long ticks) {
        return record(1, methodId, bci, ticks);
    }

    /** A method exit by the return instruction its method's definition gives (kind 3, no bytecode index); stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder definedExit(int methodId, long ticks) {
        return record(3, methodId, 0, ticks);
    }

    /** A leaf record of kind 3: the entry of {@code methodId} and its exit by its defined return; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder definedLeaf(int methodId, long ticks) {
        record(0x20 | 3, methodId, 0, ticks);
        count++;
        return this;
    }

    /** A method exit by an exception; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder thrown(int methodId, long ticks) {
        return record(2, methodId, 0, ticks);
    }

    /** A leaf record: the entry of {@code methodId} immediately followed by its exit at {@code bci}; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder leaf(int methodId, int bci, long ticks) {
        record(0x20 | 1, methodId, bci, ticks);
        count++;
        return this;
    }

    /** A leaf record: the entry of {@code methodId} immediately followed by its exit by an exception; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder leafThrown(int methodId, long ticks) {
        record(0x20 | 2, methodId, 0, ticks);
        count++;
        return this;
    }

    /** An object record: monitor {@code classId@identityHash} acquired at {@code bci}; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder acquire(int classId, int identityHash, int bci, long ticks) {
        return object(0, classId, identityHash, bci, ticks);
    }

    /** An object record: monitor {@code classId@identityHash} about to be released at {@code bci}; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder release(int classId, int identityHash, int bci, long ticks) {
        return object(1, classId, identityHash, bci, ticks);
    }

    /** An object record: a new {@code classId@identityHash} allocated at {@code bci}; stamped when {@code ticks} ≥ 0. */
    public TraceBufferEncoder alloc(int classId, int identityHash, int bci, long ticks) {
        return object(2, classId, identityHash, bci, ticks);
    }

    /** A sequence skip of {@code n} numbers (heap kind 7: header 0x1B). */
    public TraceBufferEncoder skip(long n) {
        sb.append((char) 0x1B);
        varint(n);
        return this;
    }

    /** Appends {@code chars} as they are (for damaged input). */
    public TraceBufferEncoder raw(String chars) {
        sb.append(chars);
        return this;
    }

    private TraceBufferEncoder record(int kind, int methodId, int bci, long ticks) {
        boolean stamped = ticks >= 0;
        boolean wide = wideIds && methodId >= 4096 && methodId < 16384;
        sb.append((char) (kind | (stamped ? 4 : 0) | (wide ? 0x40 : 0)));
        if (wide) {
            sb.append((char) (methodId & 0x7F)).append((char) (methodId >> 7));
        } else {
            varint(methodId & 0xFFFFFFFFL);
        }
        if ((kind & 3) == 1) {
            varint(bci & 0xFFFFFFFFL);
        }
        if (stamped) {
            varint(ticks - lastStamp);
            lastStamp = ticks;
        }
        count++;
        return this;
    }

    private TraceBufferEncoder object(int kind, int classId, int identityHash, int bci, long ticks) {
        boolean stamped = ticks >= 0;
        sb.append((char) (8 | kind | (stamped ? 4 : 0)));
        varint(classId & 0xFFFFFFFFL);
        varint(identityHash & 0xFFFFFFFFL); // unsigned 32-bit
        varint(bci & 0xFFFFFFFFL);
        if (stamped) {
            varint(ticks - lastStamp);
            lastStamp = ticks;
        }
        count++;
        return this;
    }

    /** Appends {@code v} as a varint (public for damaged input built from valid parts). */
    public TraceBufferEncoder rawVarint(long v) {
        varint(v);
        return this;
    }

    /** 6 bits per char, least significant first; bit 6 says another char follows. */
    private void varint(long v) {
        do {
            int group = (int) (v & 0x3F);
            v >>>= 6;
            sb.append((char) (v != 0 ? group | 0x40 : group));
        } while (v != 0);
    }

    /** The method and object records written (skips not counted): the event's {@code recordCount}. */
    public int count() {
        return count;
    }

    /** The event's {@code records}. */
    public String records() {
        return sb.toString();
    }

    /** True when nothing was written. */
    public boolean isEmpty() {
        return sb.length() == 0;
    }
}
