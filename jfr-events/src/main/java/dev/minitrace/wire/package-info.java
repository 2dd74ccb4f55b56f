/**
 * The formats that cross from one side of MiniTrace to the other, each owned by one class that
 * both ends use: {@link dev.minitrace.wire.TraceBufferFormat} (the agent writes packed records,
 * the converter reads them), {@link dev.minitrace.wire.AttachRequest} ({@code mt attach} asks, the
 * agent answers) and {@link dev.minitrace.wire.AgentOptionsSyntax} ({@code mt run} and
 * {@code mt attach} write agent options, the agent parses them), and
 * {@link dev.minitrace.wire.RecorderOptions}, the JFR settings {@code mt run} and the benchmarks
 * give a traced JVM. This module ships inside the
 * agent jar, so the classes use nothing but {@code java.base}.
 */
package dev.minitrace.wire;
