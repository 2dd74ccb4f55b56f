package dev.minitrace.attach;

/** A failure to reach or drive a target JVM, with a one-line message meant for the user. */
public final class AttachFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the failure. */
    public AttachFailure(String message) {
        super(message);
    }
}
