package dev.minitrace.converter.jfr.fast;

import dev.minitrace.events.EventNames;

/**
 * The event types the fast reader decodes; every other event is skipped by its size. MiniTrace's
 * own names come from {@link EventNames}; the {@code jdk.*} ones are the JDK's.
 */
public enum JfrEventKind {
    /** {@code minitrace.MethodEntry}. */
    METHOD_ENTRY(EventNames.METHOD_ENTRY, "methodId", "sequence"),
    /** {@code minitrace.MethodExit}. */
    METHOD_EXIT(EventNames.METHOD_EXIT, "methodId", "bytecodeIndex", "exceptional", "sequence"),
    /** {@code minitrace.LockAcquire}. */
    LOCK_ACQUIRE(EventNames.LOCK_ACQUIRE, "monitorClass", "identityHash", "bytecodeIndex", "sequence"),
    /** {@code minitrace.LockRelease}. */
    LOCK_RELEASE(EventNames.LOCK_RELEASE, "monitorClass", "identityHash", "bytecodeIndex", "sequence"),
    /** {@code minitrace.ObjectAlloc}. */
    OBJECT_ALLOC(EventNames.OBJECT_ALLOC, "objectClass", "identityHash", "bytecodeIndex", "sequence"),
    /** {@code minitrace.MethodDefinition}; string fields are named with a leading '$'. */
    METHOD_DEFINITION(EventNames.METHOD_DEFINITION, "methodId", "modifiers", "$className", "$methodName", "$descriptor",
            "returnBci"),
    /** {@code jdk.GarbageCollection}. */
    GARBAGE_COLLECTION("jdk.GarbageCollection", "gcId", "name", "cause", "sumOfPauses", "longestPause"),
    /** {@code jdk.GCPhasePause}. */
    GC_PHASE_PAUSE("jdk.GCPhasePause", "gcId", "$name"),
    /** {@code jdk.DataLoss}. */
    DATA_LOSS("jdk.DataLoss", "amount", "total"),
    /** {@code jdk.MethodTrace} (JDK 25, JEP 520). */
    METHOD_TRACE("jdk.MethodTrace", "method"),
    /** {@code jdk.ThreadStart}. */
    THREAD_START("jdk.ThreadStart", "thread", "parentThread"),
    /** {@code jdk.ThreadEnd}. */
    THREAD_END("jdk.ThreadEnd", "thread"),
    /**
     * {@code minitrace.MethodBuffer}: packed method records of {@code tracedThread}; the string
     * fields marked '%' are copied as chars into reusable buffers (the first into the first), never
     * made Strings.
     */
    METHOD_BUFFER(EventNames.METHOD_BUFFER, "tracedThread", "firstSequence", "recordCount", "baseTime", "ticksPerSecond",
            "%records", "tracedThreadId", "%tracedThreadName"),
    /** {@code minitrace.ClassDefinition}: the name of a class id of the buffered object records. */
    CLASS_DEFINITION(EventNames.CLASS_DEFINITION, "classId", "$className", "instanceSize", "elementSize", "objectAlignment"),
    /** {@code minitrace.FieldDefinition}: the name of a field id of reference store records. */
    FIELD_DEFINITION(EventNames.FIELD_DEFINITION, "fieldId", "isStatic", "$className", "$fieldName", "$descriptor"),
    /** {@code minitrace.ExceptionThrow} (per-event form). */
    EXCEPTION_THROW(EventNames.EXCEPTION_THROW, "methodId", "bytecodeIndex", "exceptionClass", "identityHash", "sequence"),
    /** {@code minitrace.ExceptionHandled} (per-event form). */
    EXCEPTION_HANDLED(EventNames.EXCEPTION_HANDLED, "methodId", "bytecodeIndex", "exceptionClass", "identityHash", "sequence"),
    /** {@code minitrace.MethodReceiver} (per-event form). */
    METHOD_RECEIVER(EventNames.METHOD_RECEIVER, "receiverClass", "identityHash", "sequence"),
    /** {@code minitrace.ObjectDeath} (per-event form). */
    OBJECT_DEATH(EventNames.OBJECT_DEATH, "objectClass", "identityHash", "sequence"),
    /** {@code minitrace.ArrayLength} (per-event form). */
    ARRAY_LENGTH(EventNames.ARRAY_LENGTH, "length", "sequence"),
    /** {@code minitrace.ReferenceStore} (per-event form). */
    REFERENCE_STORE(EventNames.REFERENCE_STORE, "fieldId", "index", "bytecodeIndex", "holderClass", "holderHash", "oldClass",
            "oldHash", "newClass", "newHash", "sequence");

    private final String eventName;
    /** Field names in slot order after the common slots; '$' marks a string field, '%' a string read as chars. */
    final String[] fields;

    JfrEventKind(String eventName, String... fields) {
        this.eventName = eventName;
        this.fields = fields;
    }

    /** @return the JFR event type name */
    public String eventName() {
        return eventName;
    }
}
