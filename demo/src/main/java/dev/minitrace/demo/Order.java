package dev.minitrace.demo;

/** One order a worker processes: which item, how many, and who placed it. */
record Order(int id, int item, int quantity, String customer) {
}
