package dev.minitrace.bench.convert;

/**
 * The code the converter benchmark's recording traces (the only class the agent instruments
 * there): a call tree of depth 10 with an allocation at every level and a monitor held at every
 * other level, so a tree makes 10 entries, 10 exits, 10 allocations and 5 lock pairs.
 */
public final class TracedTree {
    private TracedTree() {
    }

    /** One level of the tree; {@code lock} is the monitor of the even levels. */
    public static int level(int depth, Object lock) {
        Object made = switch (depth & 3) {
            case 0 -> new Object();
            case 1 -> new int[1];
            case 2 -> new StringBuilder();
            default -> new long[1];
        };
        int below;
        if ((depth & 1) == 0) {
            synchronized (lock) {
                below = depth <= 1 ? 0 : level(depth - 1, lock);
            }
        } else {
            below = depth <= 1 ? 0 : level(depth - 1, lock);
        }
        return below + (made.hashCode() & 1);
    }
}
