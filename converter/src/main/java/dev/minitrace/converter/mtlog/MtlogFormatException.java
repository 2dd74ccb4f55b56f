package dev.minitrace.converter.mtlog;

import java.io.IOException;

/** The bytes are not a valid {@code .mtlog} file of a version this code reads; the message says where. */
public final class MtlogFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** A format error with a message naming what and where. */
    public MtlogFormatException(String message) {
        super(message);
    }
}
