package dev.minitrace.injector.runtime;

import dev.minitrace.wire.TraceBufferFormat;

/**
 * Where the records of method entries and exits, monitor uses and allocations go: packed into
 * the thread's buffer, or one JFR event each. Chosen when tracing is switched on, so the hooks
 * never ask; the JIT sees one implementation at a time.
 */
abstract class Records {
    /** Packed records in the thread's {@link TraceBuffer}, committed as {@code minitrace.MethodBuffer}. */
    static final Records PACKED = new PackedRecords();
    /** One {@code minitrace.*} event per record. */
    static final Records EVENTS = new EventRecords();

    /** A method record of {@code kind} ({@link TraceBufferFormat#ENTRY}, {@code EXIT}, {@code EXIT_BY_EXCEPTION}); {@code bci} only for an exit. */
    abstract void method(ThreadState s, int kind, int methodId, int bci);

    /**
     * A leaf call of {@code methodId}: its entry immediately followed by its exit of {@code kind}
     * ({@link TraceBufferFormat#EXIT} at {@code bci}, or {@code EXIT_BY_EXCEPTION}), with nothing
     * recorded between them; two sequence numbers, as the two records it stands for.
     */
    abstract void leaf(ThreadState s, int kind, int methodId, int bci);

    /**
     * An object record of {@code kind} ({@link TraceBufferFormat#ACQUIRE}, {@code RELEASE},
     * {@code ALLOC}); {@code hash} is the object's identity hash when the caller knows it, else 0.
     */
    abstract void object(ThreadState s, int kind, Object object, int hash, int bci);

    /**
     * A heap record of {@code kind}: for {@link TraceBufferFormat#THROW} and {@code HANDLED}
     * {@code id} is the method and {@code a} the exception; for {@code FIELD_STORE} the field,
     * holder {@code a} (null: static), old target {@code b}, new target {@code c}; for
     * {@code ARRAY_STORE} the index, array {@code a}, old {@code b}, new {@code c}.
     */
    abstract void heap(ThreadState s, int kind, int id, int bci, Object a, Object b, Object c);

    /** A death record of an object of class {@code type} with identity hash {@code hash}. */
    abstract void death(ThreadState s, Class<?> type, int hash);

    /** The sequence numbers a heap record of {@code kind} takes. */
    static int parts(int kind) {
        return TraceBufferFormat.heapParts(kind);
    }
}
