/**
 * The JFR event types MiniTrace's injected code commits. Their JFR names ({@code minitrace.*}) are
 * public API: users name them in {@code .jfc} files and JMC shows them. The classes are pure
 * declarations; the injector's runtime fills and commits them.
 *
 * <p>Every event but {@link dev.minitrace.events.MethodDefinitionEvent} carries a per-thread
 * {@code sequence}: JFR writes events in buffer-flush order and its timestamps are not strictly
 * monotonic within a thread, so the sequence is what makes each thread's order exact.
 */
package dev.minitrace.events;
