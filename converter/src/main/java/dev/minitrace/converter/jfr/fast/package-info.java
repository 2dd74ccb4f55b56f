/**
 * MiniTrace's purpose-built JFR reader, the engine of the converter.
 *
 * <p>{@link dev.minitrace.converter.jfr.fast.JfrChunkReader} is the one entry point: it reads the
 * chunks of a recording one at a time (a {@code .jfr} file is a concatenation of self-contained
 * chunks, found by {@code jfr.JfrChunks}) and delivers the events MiniTrace needs to a
 * {@link dev.minitrace.converter.jfr.fast.JfrEventSink}, one call with primitive arguments per
 * event, optionally parsing the next chunk ahead on a second thread. Per chunk, the parser:
 * <ol>
 *   <li>reads the metadata event and compiles, for each wanted event type, an
 *       {@code EventPlan} from the declared layout (never a hard-coded one), reusing it while the
 *       type system is unchanged;</li>
 *   <li>reads every checkpoint via the constant-pool chain before any event, since with JDK 14+
 *       flushes an event may refer to a constant written later in the chunk, into the primitive
 *       tables of {@link dev.minitrace.converter.jfr.fast.ChunkConstants};</li>
 *   <li>walks the events through a 1 MB window, skipping unwanted ones by their size prefix and
 *       decoding wanted ones with their plan.</li>
 * </ol>
 * Integers may be compressed (varints) or fixed big-endian, as the chunk header says. Times are
 * converted from ticks exactly as {@code jdk.jfr.consumer.RecordingFile} does. Malformed input is
 * a {@link dev.minitrace.converter.jfr.fast.JfrFormatException} that names the chunk, the offset
 * and the type. Heap use is bounded by the window and the largest metadata or checkpoint event,
 * not by the chunk or file size.
 */
package dev.minitrace.converter.jfr.fast;
