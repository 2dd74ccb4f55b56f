package dev.minitrace.converter.jfr;

import java.io.IOException;

/** The input is not a JFR recording this converter can read; the message says why in one line. */
public final class JfrInputException extends IOException {
    private static final long serialVersionUID = 1L;

    /** An input error with a one-line message. */
    public JfrInputException(String message) {
        super(message);
    }

    /** An input error with a one-line message and its cause. */
    public JfrInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
