package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Converts a real in-process recording with a known trace and checks exactness, fragments, filters and the oracles. */
class ConverterTest {
    @TempDir
    static Path dir;
    static TestRecordings.Traced traced;

    @BeforeAll
    static void record() throws Exception {
        traced = TestRecordings.record(dir.resolve("in.jfr"), 4, 50, true);
    }

    private static ConversionReport convert(ConvertOptions o, Path out) throws Exception {
        return BothEngines.convert(o, traced.file(), out);
    }

    private static ConvertOptions with(boolean global, FragmentPolicy f, String from, String to, Set<String> threads, int mask) {
        return new ConvertOptions(global, f, from == null ? null : TimeBound.parse(from), to == null ? null : TimeBound.parse(to),
                threads, mask);
    }

    @Test
    void threadLayoutIsExactPerThreadAndMatchesBothOracles() throws Exception {
        Path out = dir.resolve("thread.mtlog");
        ConversionReport report = convert(ConvertOptions.defaults(), out);
        MtlogContent c = MtlogContent.read(out);
        for (Map.Entry<String, List<String>> e : traced.expected().entrySet()) {
            assertEquals(e.getValue(), c.withoutGc(e.getKey()), "trace of " + e.getKey());
        }
        assertEquals(Oracles.recordingFile(traced.file()), c.traceCounts());
        assertEquals(Oracles.jmc(traced.file()), c.traceCounts());
        assertEquals(c.records, c.headerCount);
        assertEquals(report.records(), c.records);
        assertFalse(report.lostData(), report.warnings().toString());
        // method placeholders are not needed: every used id is defined
        assertEquals("demo.Inner", c.info.methods().get(3L).className());
        assertEquals("<init>", c.info.methods().get(2L).methodName());
        assertTrue(c.info.classes().containsValue("[I"), c.info.classes().toString());
    }

    @Test
    void writingOnTheWriterThreadGivesTheSameBytesAsWritingInPlace() throws Exception {
        for (boolean global : new boolean[] {false, true}) {
            for (String bound : new String[] {null, "400", "40"}) {
                ConvertOptions o = with(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
                Path parallel = dir.resolve("parallel.mtlog");
                Path serial = dir.resolve("serial.mtlog");
                SystemProperties.with("minitrace.maxPendingEvents", bound, () -> convert(o, parallel));
                SystemProperties.with("minitrace.maxPendingEvents", bound,
                        () -> SystemProperties.with("minitrace.serialWrite", "true", () -> convert(o, serial)));
                assertArrayEquals(Files.readAllBytes(serial), Files.readAllBytes(parallel),
                        "global " + global + ", bound " + bound);
            }
        }
    }

    @Test
    void writingRunsFromTheColumnsGivesTheSameBytesAsWritingRecordByRecord() throws Exception {
        // A window around the whole recording selects every record but takes the record-by-record path.
        for (boolean global : new boolean[] {false, true}) {
            for (FragmentPolicy f : FragmentPolicy.values()) {
                Path runs = dir.resolve("runs.mtlog");
                Path single = dir.resolve("single.mtlog");
                convert(with(global, f, null, null, null, ConvertOptions.ALL_TYPES), runs);
                convert(with(global, f, "2000-01-01T00:00:00Z", "2200-01-01T00:00:00Z", null, ConvertOptions.ALL_TYPES), single);
                assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(runs), "global " + global + ", fragments " + f);
            }
        }
    }

    @Test
    void parsingChunksAheadGivesTheSameBytes() throws Exception {
        for (boolean global : new boolean[] {false, true}) {
            ConvertOptions o = with(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            Path ahead = dir.resolve("ahead.mtlog");
            Path inPlace = dir.resolve("inplace.mtlog");
            SystemProperties.with("minitrace.prefetchChunkBytes", Long.toString(Long.MAX_VALUE), () -> convert(o, ahead));
            SystemProperties.with("minitrace.prefetchChunkBytes", "0", () -> convert(o, inPlace));
            assertArrayEquals(Files.readAllBytes(inPlace), Files.readAllBytes(ahead), "global " + global);
        }
    }

    @Test
    void aRepositoryFolderIsReadInPlaceAsTheFileOfItsChunks() throws Exception {
        // the chunk files a JVM keeps in its repository, named as JFR names them, in an order a name sort would get wrong
        Path repo = Files.createDirectories(dir.resolve("repository"));
        List<JfrChunk> chunks = JfrChunks.scan(traced.file()).chunks();
        assertTrue(chunks.size() > 1, "the recording has several chunks: " + chunks.size());
        try (FileChannel in = FileChannel.open(traced.file(), StandardOpenOption.READ)) {
            for (int i = 0; i < chunks.size(); i++) {
                Path f = repo.resolve("2026_01_02_03_04_05" + (i == 0 ? "" : "_" + (i * 9)) + ".jfr");
                try (FileChannel o = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    in.transferTo(chunks.get(i).offset(), chunks.get(i).size(), o);
                }
            }
        }
        for (boolean global : new boolean[] {false, true}) {
            ConvertOptions o = with(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            Path fromFile = dir.resolve("fromfile.mtlog");
            Path fromFolder = dir.resolve("fromfolder.mtlog");
            ConversionReport file = convert(o, fromFile);
            ConversionReport folder = BothEngines.convert(o, repo, fromFolder);
            assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(fromFolder), "global " + global);
            assertEquals(file.chunks(), folder.chunks());
            assertEquals(file.warnings(), folder.warnings());
        }
    }

    @Test
    void theSystemGcCutsEveryWorkerStreamBetweenThePhases() throws Exception {
        Path out = dir.resolve("frag.mtlog");
        convert(ConvertOptions.defaults(), out);
        MtlogContent c = MtlogContent.read(out);
        long systemGc = systemGcId(c.info);
        for (String worker : traced.expected().keySet()) {
            List<String> s = c.byThread.get(worker);
            int perPhase = traced.expected().get(worker).size() / 2;
            int idx = s.indexOf("GC " + systemGc);
            assertTrue(idx > 0, worker + " has no GC_TIMESTAMP of the System.gc(): " + s);
            // exactly the first phase's records precede it
            assertEquals(perPhase, s.subList(0, idx).stream().filter(x -> !x.startsWith("GC ")).count(), worker);
        }
        assertEquals(independentFragments(traced.file(), FragmentPolicy.MOVING), gcPositions(c));
    }

    @Test
    void globalLayoutKeepsEachThreadsOrderAndOrdersByTime() throws Exception {
        Path out = dir.resolve("global.mtlog");
        convert(with(true, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES), out);
        MtlogContent c = MtlogContent.read(out);
        for (Map.Entry<String, List<String>> e : traced.expected().entrySet()) {
            assertEquals(globalForm(e.getValue()), c.withoutGc(e.getKey()), "trace of " + e.getKey());
        }
        assertEquals(Oracles.recordingFile(traced.file()), c.traceCounts());
        long systemGc = systemGcId(c.info);
        assertEquals(1, c.global.stream().filter(s -> s.equals("GC " + systemGc)).count());
        // everything before the System.gc()'s record is first-phase work of some worker
        int idx = c.global.indexOf("GC " + systemGc);
        long before = c.global.subList(0, idx).stream().filter(s -> !s.startsWith("GC ")).count();
        assertEquals(traced.expected().values().stream().mapToInt(l -> l.size() / 2).sum(), before);
    }

    @Test
    void filtersSelectThreadsKindsAndTime() throws Exception {
        Path out = dir.resolve("filtered.mtlog");
        convert(with(false, FragmentPolicy.NONE, null, null, Set.of("worker-1", "worker-3"),
                ConvertOptions.parseEvents("method")), out);
        MtlogContent c = MtlogContent.read(out);
        assertEquals(Set.of("worker-1", "worker-3"), c.byThread.keySet());
        for (String w : c.byThread.keySet()) {
            List<String> methodsOnly = new ArrayList<>(traced.expected().get(w));
            methodsOnly.removeIf(s -> !s.startsWith("METHOD_"));
            assertEquals(methodsOnly, c.byThread.get(w));
        }
        assertFalse(c.counts.containsKey("GC_TIMESTAMP"));

        Path none = dir.resolve("late.mtlog");
        convert(with(false, FragmentPolicy.ALL, "1h", null, null, ConvertOptions.ALL_TYPES), none);
        assertEquals(0, MtlogContent.read(none).records, "nothing is an hour after the start");
        Path all = dir.resolve("window.mtlog");
        convert(with(false, FragmentPolicy.ALL, "0s", "2000-01-01T00:00:00Z", null, ConvertOptions.ALL_TYPES), all);
        assertEquals(0, MtlogContent.read(all).records, "nothing before 2000");
        Path whole = dir.resolve("whole.mtlog");
        convert(with(false, FragmentPolicy.ALL, "0s", "1h", null, ConvertOptions.ALL_TYPES), whole);
        assertEquals(Oracles.recordingFile(traced.file()), MtlogContent.read(whole).traceCounts());
    }

    @Test
    void fragmentsAllWritesAtLeastAsManyAsMovingAndNoneWritesNone() throws Exception {
        Path all = dir.resolve("all.mtlog");
        convert(with(false, FragmentPolicy.ALL, null, null, null, ConvertOptions.ALL_TYPES), all);
        assertEquals(independentFragments(traced.file(), FragmentPolicy.ALL), gcPositions(MtlogContent.read(all)));
        Path none = dir.resolve("none.mtlog");
        convert(with(false, FragmentPolicy.NONE, null, null, null, ConvertOptions.ALL_TYPES), none);
        MtlogContent c = MtlogContent.read(none);
        assertFalse(c.counts.containsKey("GC_TIMESTAMP"));
        assertFalse(c.info.gcs().isEmpty(), "*gcs lists every GC even when none starts a fragment");
    }

    @Test
    void timesAreRecordingFilesForTheWholeFileInEveryChunk() throws Exception {
        assertTrue(dev.minitrace.converter.jfr.JfrChunks.scan(traced.file()).chunks().size() > 1);
        Map<Long, long[]> gcs = new TreeMap<>();
        Map<Long, Long> firstPause = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(traced.file())) {
            long t = e.getStartTime().getEpochSecond() * 1_000_000_000L + e.getStartTime().getNano();
            if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                gcs.put((long) e.getInt("gcId"), new long[] {t, e.getDuration().toNanos()});
            } else if (e.getEventType().getName().equals("jdk.GCPhasePause")) {
                firstPause.merge((long) e.getInt("gcId"), t, Math::min);
            }
        }
        Path out = dir.resolve("times.mtlog");
        convert(new ConvertOptions(false, FragmentPolicy.ALL, null, null, null, ConvertOptions.ALL_TYPES), out);
        try (dev.minitrace.converter.mtlog.MtlogReader r = dev.minitrace.converter.mtlog.MtlogReader.open(out)) {
            assertEquals(gcs.keySet(), r.info().gcs().keySet());
            gcs.forEach((id, v) -> {
                assertEquals(v[0], r.info().gcs().get(id).startNanos(), "start of GC " + id);
                assertEquals(v[1], r.info().gcs().get(id).durationNanos(), "duration of GC " + id);
            });
            long[] checked = {0};
            r.forEachRecord((s, type, value, aux) -> {
                if (type == dev.minitrace.converter.mtlog.MtlogFormat.GC_TIMESTAMP) {
                    assertEquals(firstPause.get((long) aux), value, "pause start of GC " + aux);
                    checked[0]++;
                }
            });
            assertTrue(checked[0] >= 2, "GC_TIMESTAMP records checked: " + checked[0]);
        }
    }

    static long systemGcId(MtlogInfo info) {
        return info.gcs().entrySet().stream().filter(e -> e.getValue().cause().equals("System.gc()"))
                .mapToLong(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError("no System.gc() in " + info.gcs()));
    }

    static List<String> globalForm(List<String> lines) {
        List<String> r = new ArrayList<>();
        for (String s : lines) {
            r.add(s.startsWith("METHOD_ENTRY") ? s : s.substring(0, s.lastIndexOf(' ')) + " ?");
        }
        return r;
    }

    /** For each thread: the GC ids of its GC_TIMESTAMP records with the number of data records before each. */
    static Map<String, List<String>> gcPositions(MtlogContent c) {
        Map<String, List<String>> m = new TreeMap<>();
        c.byThread.forEach((t, lines) -> {
            List<String> l = new ArrayList<>();
            int n = 0;
            for (String s : lines) {
                if (s.startsWith("GC ")) {
                    l.add(s.substring(3) + "@" + n);
                } else {
                    n++;
                }
            }
            m.put(t, l);
        });
        return m;
    }

    /**
     * The fragment rule computed independently and naively from RecordingFile: per thread, events
     * sorted by sequence; a GC's point is its first pause's start (its start when it has no pause event); the GC precedes the first event
     * whose time is at or after the point, given a record before it whose time is before the point.
     */
    static Map<String, List<String>> independentFragments(Path file, FragmentPolicy policy) throws Exception {
        Map<String, List<long[]>> events = new TreeMap<>();
        Map<Long, String> gcName = new TreeMap<>();
        Map<Long, Long> gcPoint = new TreeMap<>();
        Map<Long, Long> gcStart = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String n = e.getEventType().getName();
            long t = e.getStartTime().getEpochSecond() * 1_000_000_000L + e.getStartTime().getNano();
            if (Oracles.typeOf(n) != 0) {
                events.computeIfAbsent(e.getThread().getJavaName(), k -> new ArrayList<>()).add(new long[] {e.getLong("sequence"), t});
            } else if (n.equals("jdk.GarbageCollection")) {
                gcName.put((long) e.getInt("gcId"), e.getString("name"));
                gcStart.put((long) e.getInt("gcId"), t);
            } else if (n.equals("jdk.GCPhasePause")) {
                gcPoint.merge((long) e.getInt("gcId"), t, Math::min);
            }
        }
        gcStart.forEach(gcPoint::putIfAbsent); // a GC without pause events: its start
        Map<String, List<String>> m = new TreeMap<>();
        events.forEach((thread, list) -> {
            list.sort((a, b) -> Long.compare(a[0], b[0]));
            List<String> l = new ArrayList<>();
            Set<Long> done = new java.util.HashSet<>();
            long maxSoFar = Long.MIN_VALUE;
            for (int i = 0; i < list.size(); i++) {
                long t = list.get(i)[1];
                for (Map.Entry<Long, Long> g : gcPoint.entrySet().stream().sorted(Map.Entry.comparingByValue()).toList()) {
                    if (gcName.containsKey(g.getKey()) && policy.startsFragment(gcName.get(g.getKey())) && i > 0
                            && !done.contains(g.getKey()) && g.getValue() > maxSoFar && g.getValue() <= t) {
                        l.add(g.getKey() + "@" + i);
                        done.add(g.getKey());
                    }
                }
                maxSoFar = Math.max(maxSoFar, t);
            }
            m.put(thread, l);
        });
        return m;
    }
}
