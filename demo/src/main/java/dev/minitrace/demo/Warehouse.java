package dev.minitrace.demo;

/**
 * Stock shared by all workers, guarded by {@code synchronized} methods (instance and static), so
 * a trace shows monitor events on one shared object and on its class.
 */
final class Warehouse {
    private static int reservations;

    private final long[] stock;

    Warehouse(int items, long perItem) {
        stock = new long[items];
        java.util.Arrays.fill(stock, perItem);
    }

    /** Takes {@code quantity} of {@code item}; rejects a non-positive quantity. */
    synchronized long take(Order order) throws RejectedOrderException {
        if (order.quantity() <= 0) {
            throw new RejectedOrderException(order, "quantity " + order.quantity());
        }
        stock[order.item()] -= order.quantity();
        countReservation();
        return stock[order.item()];
    }

    /** The stock left of every item. */
    synchronized long[] snapshot() {
        return stock.clone();
    }

    private static synchronized void countReservation() {
        reservations++;
    }

    static synchronized int reservations() {
        return reservations;
    }
}
