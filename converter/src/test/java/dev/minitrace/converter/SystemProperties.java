package dev.minitrace.converter;

/** Runs test code with a system property set (e.g. the converter's in-memory bound), restoring it after. */
public final class SystemProperties {
    private SystemProperties() {
    }

    /** The code to run. */
    public interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action} with {@code key} set to {@code value} (null: cleared), then restores it. */
    public static void with(String key, String value, Action action) throws Exception {
        String old = System.getProperty(key);
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
        try {
            action.run();
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }
}
