package dev.minitrace.demo;

/**
 * One worker thread: makes its own deterministic list of orders and processes each through a few
 * nested calls (price, discount, take from the shared warehouse, book in the shared ledger).
 */
final class OrderWorker implements Runnable {
    /** Every this-many-th order has quantity 0 and is rejected with an exception. */
    static final int REJECT_EVERY = 50;

    private final int index;
    private final int orders;
    private final Warehouse warehouse;
    private final Ledger ledger;

    OrderWorker(int index, int orders, Warehouse warehouse, Ledger ledger) {
        this.index = index;
        this.orders = orders;
        this.warehouse = warehouse;
        this.ledger = ledger;
    }

    @Override
    public void run() {
        for (int i = 1; i <= orders; i++) {
            process(makeOrder(i));
        }
    }

    private Order makeOrder(int i) {
        int quantity = i % REJECT_EVERY == 0 ? 0 : 1 + (i * 7 + index) % 5;
        return new Order(index * 1_000_000 + i, (i + index) % DemoMain.ITEMS, quantity, "customer-" + (i % 10));
    }

    private void process(Order order) {
        try {
            warehouse.take(order);
            ledger.accept(price(order));
        } catch (RejectedOrderException e) {
            ledger.reject();
        }
    }

    private long price(Order order) {
        long[] lineTotals = new long[order.quantity()];
        for (int unit = 0; unit < lineTotals.length; unit++) {
            lineTotals[unit] = discount(unitPrice(order.item()), unit);
        }
        long sum = 0;
        for (long t : lineTotals) {
            sum += t;
        }
        return sum;
    }

    private static long unitPrice(int item) {
        return 100 + item * 10L;
    }

    /** Every unit after the first costs 5 % less than the one before it. */
    private static long discount(long price, int unit) {
        return unit == 0 ? price : discount(price * 95 / 100, unit - 1);
    }
}
