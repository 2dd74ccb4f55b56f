package dev.minitrace.injector.attach;

/**
 * JFR's {@code preserve-repository} for the time an attached session runs (JDK 21 and later; an
 * older JVM has no such setting and nothing is done). While it is on, a target that exits in any
 * way keeps its chunk files, where {@code mt recover} finds them; the session turns it off again
 * once it has written its recording, so the target's later exits leave nothing behind.
 * Set through the JVM's own diagnostic command ({@code JFR.configure}), in process.
 */
final class RepositoryKeeping {
    /** The first JDK whose JFR has {@code preserve-repository}. */
    static final int SINCE = 21;

    private RepositoryKeeping() {
    }

    /** Turns {@code preserve-repository} on or off; false if this JVM has no such setting or refused. */
    static boolean set(boolean keep) {
        if (Runtime.version().feature() < SINCE) {
            return false;
        }
        try {
            javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            server.invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                    new Object[] {new String[] {"preserve-repository=" + keep}}, new String[] {String[].class.getName()});
            return true;
        } catch (Throwable t) {
            return false; // the recording still works; only the chunks' keeping after an exit is lost
        }
    }
}
