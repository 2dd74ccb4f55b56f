package dev.minitrace.events;

/** The JFR names of MiniTrace's events, for code that reads recordings without loading the classes. */
public final class EventNames {
    /** {@link MethodEntryEvent}. */
    public static final String METHOD_ENTRY = MethodEntryEvent.NAME;
    /** {@link MethodExitEvent}. */
    public static final String METHOD_EXIT = MethodExitEvent.NAME;
    /** {@link LockAcquireEvent}. */
    public static final String LOCK_ACQUIRE = LockAcquireEvent.NAME;
    /** {@link LockReleaseEvent}. */
    public static final String LOCK_RELEASE = LockReleaseEvent.NAME;
    /** {@link ObjectAllocEvent}. */
    public static final String OBJECT_ALLOC = ObjectAllocEvent.NAME;
    /** {@link ArrayLengthEvent}. */
    public static final String ARRAY_LENGTH = ArrayLengthEvent.NAME;
    /** {@link MethodBufferEvent}. */
    public static final String METHOD_BUFFER = MethodBufferEvent.NAME;
    /** {@link MethodCaptureEvent}. */
    public static final String METHOD_CAPTURE = MethodCaptureEvent.NAME;
    /** {@link ClassDefinitionEvent}. */
    public static final String CLASS_DEFINITION = ClassDefinitionEvent.NAME;
    /** {@link MethodDefinitionEvent}. */
    public static final String METHOD_DEFINITION = MethodDefinitionEvent.NAME;

    /** {@link ExceptionThrowEvent}. */
    public static final String EXCEPTION_THROW = ExceptionThrowEvent.NAME;
    /** {@link ExceptionHandledEvent}. */
    public static final String EXCEPTION_HANDLED = ExceptionHandledEvent.NAME;
    /** {@link ReferenceStoreEvent}. */
    public static final String REFERENCE_STORE = ReferenceStoreEvent.NAME;
    /** {@link MethodReceiverEvent}. */
    public static final String METHOD_RECEIVER = MethodReceiverEvent.NAME;
    /** {@link ObjectDeathEvent}. */
    public static final String OBJECT_DEATH = ObjectDeathEvent.NAME;
    /** {@link FieldDefinitionEvent}. */
    public static final String FIELD_DEFINITION = FieldDefinitionEvent.NAME;

    private EventNames() {
    }
}
