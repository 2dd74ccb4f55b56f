package dev.minitrace.injector.runtime;

import dev.minitrace.events.ExceptionHandledEvent;
import dev.minitrace.events.ExceptionThrowEvent;
import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import dev.minitrace.events.ReferenceStoreEvent;
import dev.minitrace.wire.TraceBufferFormat;

/** One {@code minitrace.*} JFR event per record. */
final class EventRecords extends Records {
    @Override
    void method(ThreadState s, int kind, int methodId, int bci) {
        if (kind == TraceBufferFormat.ENTRY) {
            MethodEntryEvent e = new MethodEntryEvent();
            if (e.shouldCommit()) {
                e.methodId = methodId;
                e.sequence = ++s.sequence;
                e.commit();
            }
            return;
        }
        MethodExitEvent e = new MethodExitEvent();
        if (e.shouldCommit()) {
            e.methodId = methodId;
            e.bytecodeIndex = bci;
            e.exceptional = kind == TraceBufferFormat.EXIT_BY_EXCEPTION;
            e.sequence = ++s.sequence;
            e.commit();
        }
    }

    @Override
    void leaf(ThreadState s, int kind, int methodId, int bci) {
        method(s, TraceBufferFormat.ENTRY, methodId, 0);
        method(s, kind, methodId, bci);
    }

    @Override
    void heap(ThreadState s, int kind, int id, int bci, Object a, Object b, Object c) {
        heapEvent(s, kind, id, bci, a, b, c);
    }

    @Override
    void death(ThreadState s, Class<?> type, int hash) {
        dev.minitrace.events.ObjectDeathEvent e = new dev.minitrace.events.ObjectDeathEvent();
        if (e.shouldCommit()) {
            e.objectClass = type;
            e.identityHash = hash;
            e.sequence = ++s.sequence;
            e.commit();
        }
    }

    // Each kind has its own JFR event class (their fields differ in name), hence one branch each.
    @Override
    void object(ThreadState s, int kind, Object object, int hash, int bci) {
        switch (kind) {
            case TraceBufferFormat.ACQUIRE -> {
                LockAcquireEvent e = new LockAcquireEvent();
                if (e.shouldCommit()) {
                    e.monitorClass = object.getClass();
                    e.identityHash = hash != 0 ? hash : System.identityHashCode(object);
                    e.bytecodeIndex = bci;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
            case TraceBufferFormat.RELEASE -> {
                LockReleaseEvent e = new LockReleaseEvent();
                if (e.shouldCommit()) {
                    e.monitorClass = object.getClass();
                    e.identityHash = System.identityHashCode(object);
                    e.bytecodeIndex = bci;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
            default -> allocEvent(s, object, bci);
        }
    }

    /** A {@code minitrace.ObjectAlloc} event; the class's definition (with its size) is committed the first time. */
    private static boolean allocEvent(ThreadState s, Object object, int bci) {
        ObjectAllocEvent e = new ObjectAllocEvent();
        if (!e.shouldCommit()) {
            return false;
        }
        ClassIds.ofAllocated(object);
        e.objectClass = object.getClass();
        e.identityHash = System.identityHashCode(object);
        e.bytecodeIndex = bci;
        e.sequence = ++s.sequence;
        e.commit();
        return true;
    }

    /**
     * One event per heap record; it takes as many sequence numbers as the packed record, so the
     * converter numbers the parts alike.
     */
    private static void heapEvent(ThreadState s, int kind, int id, int bci, Object a, Object b, Object c) {
        if (kind == TraceBufferFormat.ARRAY_ALLOC) {
            if (allocEvent(s, a, bci)) {
                dev.minitrace.events.ArrayLengthEvent e = new dev.minitrace.events.ArrayLengthEvent();
                if (e.shouldCommit()) {
                    e.length = id;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
            return;
        }
        if (kind == TraceBufferFormat.RECEIVER) {
            dev.minitrace.events.MethodReceiverEvent e = new dev.minitrace.events.MethodReceiverEvent();
            if (e.shouldCommit()) {
                e.methodId = id;
                e.receiverClass = a.getClass();
                e.identityHash = System.identityHashCode(a);
                e.sequence = ++s.sequence;
                e.commit();
            }
            return;
        }
        if (kind <= TraceBufferFormat.HANDLED) {
            if (kind == TraceBufferFormat.THROW) {
                ExceptionThrowEvent e = new ExceptionThrowEvent();
                if (e.shouldCommit()) {
                    e.methodId = id;
                    e.bytecodeIndex = bci;
                    e.exceptionClass = a.getClass();
                    e.identityHash = System.identityHashCode(a);
                    e.sequence = s.sequence + 1;
                    s.sequence += TraceBufferFormat.THROW_PARTS;
                    e.commit();
                }
            } else {
                ExceptionHandledEvent e = new ExceptionHandledEvent();
                if (e.shouldCommit()) {
                    e.methodId = id;
                    e.bytecodeIndex = bci;
                    e.exceptionClass = a.getClass();
                    e.identityHash = System.identityHashCode(a);
                    e.sequence = s.sequence + 1;
                    s.sequence += TraceBufferFormat.THROW_PARTS;
                    e.commit();
                }
            }
            return;
        }
        ReferenceStoreEvent e = new ReferenceStoreEvent();
        if (e.shouldCommit()) {
            boolean array = kind == TraceBufferFormat.ARRAY_STORE;
            e.fieldId = array ? -1 : id;
            e.index = array ? id : 0;
            e.bytecodeIndex = bci;
            e.holderClass = a == null ? null : a.getClass();
            e.holderHash = a == null ? 0 : System.identityHashCode(a);
            e.oldClass = b == null ? null : b.getClass();
            e.oldHash = b == null ? 0 : System.identityHashCode(b);
            e.newClass = c == null ? null : c.getClass();
            e.newHash = c == null ? 0 : System.identityHashCode(c);
            e.sequence = s.sequence + 1;
            s.sequence += TraceBufferFormat.STORE_PARTS;
            e.commit();
        }
    }
}
