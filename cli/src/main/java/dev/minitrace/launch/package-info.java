/**
 * Starting a Java program under MiniTrace: where the installation's files are
 * ({@link dev.minitrace.launch.MiniTraceHome}), the agent's option string
 * ({@link dev.minitrace.launch.AgentOptions}), the JFR recording options
 * ({@link dev.minitrace.launch.RecordingOptions}) and the child JVM itself
 * ({@link dev.minitrace.launch.TracedProcess}). The {@code mt run} and {@code mt demo} commands
 * are thin command-line layers over this package.
 */
package dev.minitrace.launch;
