package dev.minitrace.converter;

import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.openjdk.jmc.flightrecorder.writer.api.Recording;
import org.openjdk.jmc.flightrecorder.writer.api.Recordings;
import org.openjdk.jmc.flightrecorder.writer.api.Type;
import org.openjdk.jmc.flightrecorder.writer.api.TypedValueBuilder;
import org.openjdk.jmc.flightrecorder.writer.api.Types;

/**
 * Writes recordings that a JVM would not produce on demand, with JMC's {@code flightrecorder.writer}:
 * chosen threads, sequences in any order, unknown event types, missing definitions, data loss.
 */
public final class SyntheticRecordings implements AutoCloseable {
    private final Recording rec;
    private final Type entry;
    private final Type exit;
    private final Type alloc;
    private final Type definition;
    private final Type unknown;
    private final Type dataLoss;
    private final Type buffer;
    private long ticks = 1_000_000L;

    /** Starts writing {@code file}. */
    public SyntheticRecordings(Path file) throws Exception {
        this(file, -1);
    }

    /** Starts writing {@code file} as a chunk that starts at {@code startNanos} (ns since the epoch; -1: now). */
    public SyntheticRecordings(Path file, long startNanos) throws Exception {
        rec = startNanos < 0 ? Recordings.newRecording(file)
                : Recordings.newRecording(file, s -> s.withTimestamp(startNanos).withJdkTypeInitialization());
        ticks = 0;
        entry = rec.registerEventType(EventNames.METHOD_ENTRY,
                t -> t.addField("methodId", Types.Builtin.INT).addField("sequence", Types.Builtin.LONG));
        exit = rec.registerEventType(EventNames.METHOD_EXIT, t -> t.addField("methodId", Types.Builtin.INT)
                .addField("bytecodeIndex", Types.Builtin.INT).addField("exceptional", Types.Builtin.BOOLEAN)
                .addField("sequence", Types.Builtin.LONG));
        alloc = rec.registerEventType(EventNames.OBJECT_ALLOC, t -> t.addField("objectClass", Types.JDK.CLASS)
                .addField("identityHash", Types.Builtin.INT).addField("bytecodeIndex", Types.Builtin.INT)
                .addField("sequence", Types.Builtin.LONG));
        definition = rec.registerEventType(EventNames.METHOD_DEFINITION, t -> t.addField("methodId", Types.Builtin.INT)
                .addField("className", Types.Builtin.STRING).addField("methodName", Types.Builtin.STRING)
                .addField("descriptor", Types.Builtin.STRING).addField("modifiers", Types.Builtin.INT)
                .addField("returnBci", Types.Builtin.INT));
        unknown = rec.registerEventType("acme.Unknown", t -> t.addField("payload", Types.Builtin.STRING)
                .addField("sequence", Types.Builtin.LONG));
        // baseTime without the @Timestamp(TICKS) annotation: engines must read it as raw ticks all the same
        buffer = rec.registerEventType(EventNames.METHOD_BUFFER, t -> t.addField("tracedThread", Types.JDK.THREAD)
                .addField("firstSequence", Types.Builtin.LONG).addField("recordCount", Types.Builtin.INT)
                .addField("baseTime", Types.Builtin.LONG).addField("ticksPerSecond", Types.Builtin.LONG)
                .addField("records", Types.Builtin.STRING));
        dataLoss = rec.registerEventType("jdk.DataLoss", t -> t.addField("amount", Types.Builtin.LONG)
                .addField("total", Types.Builtin.LONG));
    }

    private static Consumer<TypedValueBuilder> thread(String name, long osId) {
        return t -> t.putField("javaName", name).putField("osName", name).putField("osThreadId", osId);
    }

    /** Advances the clock by {@code n} ticks. */
    public void tick(long n) {
        ticks += n;
    }

    /** A method entry of thread {@code name}. */
    public void entry(String thread, long osId, int methodId, long sequence) {
        long t = ticks++;
        rec.writeEvent(entry.asValue(v -> v.putField("startTime", t).putField("eventThread", thread(thread, osId))
                .putField("methodId", methodId).putField("sequence", sequence)));
    }

    /** A method entry whose thread the recording does not name (no eventThread). */
    public void entryWithoutThread(int methodId, long sequence) {
        long t = ticks++;
        rec.writeEvent(entry.asValue(v -> v.putField("startTime", t).putField("methodId", methodId).putField("sequence", sequence)));
    }

    /** A method exit of thread {@code name}. */
    public void exit(String thread, long osId, int methodId, int bci, long sequence) {
        long t = ticks++;
        rec.writeEvent(exit.asValue(v -> v.putField("startTime", t).putField("eventThread", thread(thread, osId))
                .putField("methodId", methodId).putField("bytecodeIndex", bci).putField("exceptional", false)
                .putField("sequence", sequence)));
    }

    /** An allocation of thread {@code name}. */
    public void alloc(String thread, long osId, String className, int hash, int bci, long sequence) {
        long t = ticks++;
        rec.writeEvent(alloc.asValue(v -> v.putField("startTime", t).putField("eventThread", thread(thread, osId))
                .putField("objectClass", c -> c.putField("name", className)).putField("identityHash", hash)
                .putField("bytecodeIndex", bci).putField("sequence", sequence)));
    }

    /** A method definition. */
    public void define(int methodId, String cls, String name, String desc) {
        define(methodId, cls, name, desc, -1);
    }

    /** A method definition whose only return instruction is at {@code returnBci} (-1: none). */
    public void define(int methodId, String cls, String name, String desc, int returnBci) {
        long t = ticks++;
        rec.writeEvent(definition.asValue(v -> v.putField("startTime", t).putField("methodId", methodId)
                .putField("className", cls).putField("methodName", name).putField("descriptor", desc).putField("modifiers", 1)
                .putField("returnBci", returnBci)));
    }

    /** A method buffer event of {@code traced} committed by thread {@code committer}. */
    public void buffer(String committer, long committerOsId, String traced, long tracedOsId, long firstSequence, int recordCount,
            long baseTicks, long ticksPerSecond, String records) {
        long t = ticks++;
        rec.writeEvent(buffer.asValue(v -> v.putField("startTime", t).putField("eventThread", thread(committer, committerOsId))
                .putField("tracedThread", thread(traced, tracedOsId)).putField("firstSequence", firstSequence)
                .putField("recordCount", recordCount).putField("baseTime", baseTicks)
                .putField("ticksPerSecond", ticksPerSecond).putField("records", records)));
    }

    /** An event of a type the converter does not know. */
    public void unknown(String thread, long osId, String payload) {
        long t = ticks++;
        rec.writeEvent(unknown.asValue(v -> v.putField("startTime", t).putField("eventThread", thread(thread, osId))
                .putField("payload", payload).putField("sequence", 5L)));
    }

    /** A jdk.DataLoss event. */
    public void dataLoss(long amount) {
        long t = ticks++;
        rec.writeEvent(dataLoss.asValue(v -> v.putField("startTime", t).putField("amount", amount).putField("total", amount)));
    }

    /**
     * Concatenates single-chunk files into one multi-chunk recording, which is what a JFR file is
     * (the writer's own chunk rotation loses events, so chunks are written as separate files).
     */
    public static void concatenate(Path out, Path... chunks) throws java.io.IOException {
        try (java.io.OutputStream o = java.nio.file.Files.newOutputStream(out)) {
            for (Path c : chunks) {
                java.nio.file.Files.copy(c, o);
            }
        }
    }

    @Override
    public void close() throws Exception {
        rec.close();
    }
}
