package dev.minitrace.injector.runtime;

import dev.minitrace.wire.TraceBufferFormat;

/** Packed records in the thread's {@link TraceBuffer}, committed as {@code minitrace.MethodBuffer} events. */
final class PackedRecords extends Records {
    @Override
    void method(ThreadState s, int kind, int methodId, int bci) {
        buffer(s).record(kind, methodId, bci, ++s.sequence);
    }

    @Override
    void leaf(ThreadState s, int kind, int methodId, int bci) {
        TraceBuffer buffer = buffer(s); // before the sequence moves: a first buffer starts after the last number taken
        long entry = s.sequence + 1;
        s.sequence += 2;
        buffer.recordLeaf(kind, methodId, bci, entry);
    }

    @Override
    void object(ThreadState s, int kind, Object object, int hash, int bci) {
        Trace.sync(s);
        long ids = kind == TraceBufferFormat.RELEASE ? s.monitorReleased(object) : -1;
        if (ids < 0) {
            int classId = kind == TraceBufferFormat.ALLOC ? ClassIds.ofAllocated(object) : ClassIds.of(object.getClass());
            ids = (long) classId << 32 | (hash != 0 ? hash : System.identityHashCode(object)) & 0xFFFFFFFFL;
            if (kind == TraceBufferFormat.ACQUIRE) {
                s.monitorAcquired(object, ids);
            }
        }
        buffer(s).recordObject(kind, (int) (ids >>> 32), (int) ids, bci, ++s.sequence);
    }

    @Override
    void death(ThreadState s, Class<?> type, int hash) {
        Trace.sync(s);
        buffer(s).recordObject(TraceBufferFormat.DEATH, ClassIds.of(type), hash, 0, ++s.sequence);
    }

    @Override
    void heap(ThreadState s, int kind, int id, int bci, Object a, Object b, Object c) {
        Trace.sync(s);
        // The buffer first: a thread's first buffer starts at the sequence after the last one taken.
        TraceBuffer buffer = buffer(s);
        long first = s.sequence + 1;
        s.sequence += parts(kind);
        buffer.recordHeap(kind, id, bci, a, b, c, first, parts(kind));
    }

    /** The thread's buffer, made on its first record. */
    private static TraceBuffer buffer(ThreadState s) {
        TraceBuffer b = s.buffer;
        if (b == null) {
            b = TraceBuffers.create(s.sequence + 1);
            s.buffer = b;
        }
        return b;
    }
}
