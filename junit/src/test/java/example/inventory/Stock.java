package example.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The code the extension's tests count (outside {@code dev.minitrace}, which the agent never
 * traces): a reservation looks the item up once, takes the stock's monitor and allocates one
 * {@link Reservation}. {@link #regression} makes it look up twice, the deliberate regression.
 */
public final class Stock {
    /** When set, {@link #reserve} looks the item up twice. */
    public static volatile boolean regression;

    private final Map<String, Integer> counts = new HashMap<>();
    private final List<Reservation> reservations = new ArrayList<>();

    /** A stock of {@code n} of each item. */
    public Stock(int n, String... items) {
        for (String i : items) {
            counts.put(i, n);
        }
    }

    /** One reservation. */
    public record Reservation(String item, int n) {
    }

    /** Reserves {@code n} of {@code item}; false when there are fewer. */
    public boolean reserve(String item, int n) {
        int have = lookup(item);
        if (regression) {
            have = lookup(item);
        }
        if (have < n) {
            return false;
        }
        synchronized (this) {
            counts.put(item, have - n);
            reservations.add(new Reservation(item, n));
        }
        return true;
    }

    int lookup(String item) {
        Integer n = counts.get(item);
        if (n == null) {
            throw new IllegalArgumentException("no item " + item);
        }
        return n;
    }
}
