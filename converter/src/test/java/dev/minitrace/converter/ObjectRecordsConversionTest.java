package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same trace recorded twice, once with per-event lock and allocation events and once with
 * object records in the buffers (classes by {@code minitrace.ClassDefinition}, committed by
 * another thread after the records, in each chunk), converts to the same records: same types,
 * object ids, bytecode indexes and INFO class names, per thread, in both layouts, with both
 * engines byte for byte ({@link BothEngines}).
 */
class ObjectRecordsConversionTest {
    @TempDir
    static Path dir;
    static MethodBufferRecordings.Traced perEvent;
    static MethodBufferRecordings.Traced buffered;

    @BeforeAll
    static void record() throws Exception {
        perEvent = MethodBufferRecordings.record(dir.resolve("per-event.jfr"), 3, 20, false);
        buffered = MethodBufferRecordings.record(dir.resolve("object-records.jfr"), 3, 20, true);
    }

    @Test
    void bothRecordingsHoldTheSameTrace() {
        assertEquals(perEvent.expected(), buffered.expected());
    }

    @Test
    void theObjectRecordingHasNoObjectEventsAndItsClassDefinitionsFollowTheRecordsInEachChunk() throws Exception {
        assertTrue(JfrChunks.scan(buffered.file()).chunks().size() >= 2, "the fixture spans chunks");
        int index = 0;
        int firstMainBuffer = -1;
        int firstDefinition = -1;
        int definitions = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(buffered.file())) {
            String name = e.getEventType().getName();
            assertTrue(!name.equals(EventNames.LOCK_ACQUIRE) && !name.equals(EventNames.LOCK_RELEASE)
                    && !name.equals(EventNames.OBJECT_ALLOC), name);
            if (name.equals(EventNames.METHOD_BUFFER) && e.getThread().getJavaName().equals("main") && firstMainBuffer < 0) {
                firstMainBuffer = index;
            }
            if (name.equals(EventNames.CLASS_DEFINITION)) {
                definitions++;
                if (firstDefinition < 0) {
                    firstDefinition = index;
                }
            }
            index++;
        }
        // main commits the workers' partly filled buffers, then the definitions, into its own JFR buffer
        assertTrue(firstMainBuffer >= 0 && firstMainBuffer < firstDefinition, firstMainBuffer + " " + firstDefinition);
        assertEquals(4, definitions, "two classes, once in each chunk");
    }

    /** RecordingFile as an oracle: every buffered record and every per-event event becomes one record. */
    @Test
    void recordCountsAddUpToTheConvertedRecords() throws Exception {
        for (MethodBufferRecordings.Traced t : List.of(perEvent, buffered)) {
            long packed = 0;
            long events = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(t.file())) {
                switch (e.getEventType().getName()) {
                    case EventNames.METHOD_BUFFER -> packed += e.getInt("recordCount");
                    case EventNames.LOCK_ACQUIRE, EventNames.LOCK_RELEASE, EventNames.OBJECT_ALLOC, EventNames.METHOD_ENTRY,
                            EventNames.METHOD_EXIT -> events++;
                    default -> {
                    }
                }
            }
            long traceLines = t.expected().values().stream().mapToLong(List::size).sum();
            assertEquals(traceLines, packed + events, t.file().toString());
            Path out = dir.resolve(t.file().getFileName() + ".count.mtlog");
            ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), t.file(), out);
            assertEquals(List.of(), report.warnings());
            assertEquals(packed + events, report.minitraceEvents());
            MtlogContent m = MtlogContent.read(out);
            for (Map.Entry<String, List<String>> e : t.expected().entrySet()) {
                assertEquals(e.getValue(), m.withoutGc(e.getKey()), e.getKey());
            }
        }
    }

    @Test
    void objectRecordsGiveTheSameRecordsAsPerEventEventsInBothLayouts() throws Exception {
        for (boolean global : new boolean[] {false, true}) {
            ConvertOptions options = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            Path a = dir.resolve("per-event-" + global + ".mtlog");
            Path b = dir.resolve("object-records-" + global + ".mtlog");
            ConversionReport ra = BothEngines.convert(options, perEvent.file(), a);
            ConversionReport rb = BothEngines.convert(options, buffered.file(), b);
            assertEquals(List.of(), ra.warnings());
            assertEquals(List.of(), rb.warnings(), "every class id resolves, though its definition came later");
            Map<String, List<String>> expected = records(a);
            Map<String, List<String>> actual = records(b);
            assertEquals(List.of("buffered-0", "buffered-1", "buffered-2"), List.copyOf(actual.keySet()));
            long objects = actual.values().stream().flatMap(List::stream).filter(l -> !l.startsWith("1 ") && !l.startsWith("2 "))
                    .count();
            assertEquals(3 * 2 * 20 * 3, objects, "an allocation and a lock pair per round");
            assertEquals(expected, actual, "global " + global);
            try (MtlogReader ma = MtlogReader.open(a); MtlogReader mb = MtlogReader.open(b)) {
                assertEquals(Map.of(1L, "[I", 2L, "java.lang.Object"), ma.info().classes());
                assertEquals(ma.info().classes(), mb.info().classes());
            }
            assertEquals(ra.countByType()[MtlogFormat.LOCK_ACQUIRE], rb.countByType()[MtlogFormat.LOCK_ACQUIRE]);
            assertEquals(ra.countByType()[MtlogFormat.OBJECT_ALLOC], rb.countByType()[MtlogFormat.OBJECT_ALLOC]);
        }
    }

    @Test
    void aClassIdWithoutDefinitionIsWrittenAsUnknownWithAWarning() throws Exception {
        Path file = dir.resolve("undefined.jfr");
        long[] clock = MethodBufferRecordings.probeTicks(dir.resolve("undefined.probe.jfr"));
        try (jdk.jfr.Recording rec = new jdk.jfr.Recording()) {
            rec.enable(dev.minitrace.events.MethodBufferEvent.class);
            rec.enable(dev.minitrace.events.ClassDefinitionEvent.class);
            rec.start();
            MethodBufferRecordings.defineClass(1, "demo.Known");
            MethodBufferRecordings.commit(Thread.currentThread(), 1, clock[0], clock[1],
                    new dev.minitrace.converter.jfr.TraceBufferEncoder().alloc(1, 0x10, 3, 0).alloc(9, 0x20, 4, -1)
                            .acquire(9, 0x20, 5, -1));
            rec.stop();
            rec.dump(file);
        }
        Path out = dir.resolve("undefined.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), file, out);
        assertEquals(List.of("1 class id(s) of buffered lock/allocation records have no minitrace.ClassDefinition"
                + " (first: 9); written with class '?'"), report.warnings());
        MtlogContent m = MtlogContent.read(out);
        assertEquals(List.of("OBJECT_ALLOC demo.Known@10 3", "OBJECT_ALLOC ?@20 4", "LOCK_ACQUIRE ?@20 5"),
                m.withoutGc(Thread.currentThread().getName()));
    }

    /** Per thread name: each record but GC_TIMESTAMP as {@code type objectOrMethodId aux} (aux only in the thread layout). */
    static Map<String, List<String>> records(Path mtlog) throws Exception {
        Map<String, List<String>> byThread = new TreeMap<>();
        try (MtlogReader r = MtlogReader.open(mtlog)) {
            boolean global = r.globalLayout();
            Map<Long, dev.minitrace.converter.mtlog.MtlogInfo.ThreadInfo> threads = r.info().threads();
            r.forEachRecord((stream, type, value, aux) -> {
                if (type == MtlogFormat.GC_TIMESTAMP) {
                    return;
                }
                long thread = global ? aux & 0xFFFFFFFFL : stream & 0xFFFFFFFFL;
                String name = threads.get(thread).name();
                byThread.computeIfAbsent(name, k -> new ArrayList<>()).add(type + " " + Long.toHexString(value)
                        + (global ? "" : " " + aux));
            });
        }
        return byThread;
    }
}
