package dev.minitrace.demo;

/** Thrown for an order the warehouse cannot take; the worker catches it and counts a rejection. */
final class RejectedOrderException extends Exception {
    private static final long serialVersionUID = 1L;

    RejectedOrderException(Order order, String reason) {
        super("order " + order.id() + " rejected: " + reason);
    }
}
