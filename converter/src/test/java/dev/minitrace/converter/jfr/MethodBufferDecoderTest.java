package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The record encoding of docs/trace-buffer.md, decoded: kinds, varints, skips, times, and every kind of damage. */
class MethodBufferDecoderTest {
    private static final long BASE = 1_700_000_000_000_000_000L;

    private static CapturingSink decode(String records, long firstSequence, int recordCount, long ticksPerSecond) {
        CapturingSink sink = new CapturingSink();
        new MethodBufferDecoder().decode(records, 7, firstSequence, recordCount, BASE, ticksPerSecond, sink);
        return sink;
    }

    @Test
    void decodesKindsSequencesSkipsAndTimes() {
        TraceBufferEncoder e = new TraceBufferEncoder()
                .entry(1, 10)              // stamped: base + 10 ticks
                .entry(70, -1)             // unstamped: shares the time of the record before
                .exit(70, 64, 4_000_000)   // 2-char bci, 4-char delta
                .skip(2)                   // two lock events of the thread in between
                .entry(5000, -1)
                .thrown(5000, 4_000_001)
                .skip(1)
                .exit(1, 31, -1);
        CapturingSink s = decode(e.records(), 100, e.count(), 3_000_000_000L);
        double nsPerTick = 1e9 / 3_000_000_000L;
        long t10 = BASE + (long) (10 * nsPerTick);
        long t4m = BASE + (long) (4_000_000 * nsPerTick);
        long t4m1 = BASE + (long) (4_000_001 * nsPerTick);
        assertEquals(List.of(
                "1 7 100 " + t10 + " 1 0",
                "1 7 101 " + t10 + " 70 0",
                "2 7 102 " + t4m + " 70 64",
                "1 7 105 " + t4m + " 5000 0",
                "2 7 106 " + t4m1 + " 5000 0",
                "2 7 108 " + t4m1 + " 1 31"), s.methodEvents);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
    }

    @Test
    void unstampedRecordsBeforeAnyStampHaveTheBaseTimeAndLargeValuesRoundTrip() {
        TraceBufferEncoder e = new TraceBufferEncoder().entry(-1, -1).exit(Integer.MAX_VALUE, 65535, -1)
                .entry(3, Long.MAX_VALUE);
        CapturingSink s = decode(e.records(), 1, 3, 1_000_000_000L);
        assertEquals(List.of("1 7 1 " + BASE + " -1 0", "2 7 2 " + BASE + " 2147483647 65535",
                "1 7 3 " + (BASE + (long) (Long.MAX_VALUE * 1.0)) + " 3 0"), s.methodEvents);
    }

    @Test
    void anExitByTheDefinedReturnCarriesNoIndexAndLeavesItToTheDefinition() {
        TraceBufferEncoder e = new TraceBufferEncoder().wideIds()
                .entry(1, 10)
                .definedLeaf(70, -1)        // leaf, unstamped: entry and exit at the entry's time
                .entry(5000, -1)
                .definedExit(5000, 20)      // wide id, stamped
                .skip(1)
                .definedExit(1, -1);
        assertEquals(6, e.count());
        assertEquals("\u0004\u0001\n" + "\u0023\u0046\u0001" + "\u0040\u0008\u0027" + "\u0047\u0008\u0027\n"
                + "\u001b\u0001" + "\u0003\u0001", e.records(), "header 0x03 + id, nothing more; docs/trace-buffer.md");
        CapturingSink s = decode(e.records(), 100, e.count(), 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        int d = RecordingSink.DEFINED_RETURN_BCI;
        assertEquals(List.of("1 7 100 " + (BASE + 10) + " 1 0", "1 7 101 " + (BASE + 10) + " 70 0", "2 7 102 " + (BASE + 10) + " 70 " + d,
                "1 7 103 " + (BASE + 10) + " 5000 0", "2 7 104 " + (BASE + 20) + " 5000 " + d, "2 7 106 " + (BASE + 20) + " 1 " + d),
                s.methodEvents);
    }

    @Test
    void aBufferMayStartWithASkip() {
        TraceBufferEncoder e = new TraceBufferEncoder().skip(3).entry(4, 0);
        assertEquals(List.of("1 7 13 " + BASE + " 4 0"), decode(e.records(), 10, 1, 1_000_000_000L).methodEvents);
    }

    @Test
    void anEmptyBufferIsNoRecord() {
        CapturingSink s = decode("", 5, 0, 1_000_000_000L);
        assertTrue(s.methodEvents.isEmpty());
        assertTrue(s.corrupt.isEmpty());
    }

    @Test
    void damageSkipsTheWholeEventWithAReason() {
        String good = new TraceBufferEncoder().entry(1, 5).exit(1, 9, -1).records();
        assertCorrupt(good + "\u0020\u0001", 3, "header char 0x20 at char 6 has reserved bits set");
        assertCorrupt(good + "\u0080\u0001", 3, "header char 0x80 at char 6 has reserved bits set");
        assertCorrupt(good + "\u001f\u0001", 2, "sequence skip at char 6 is stamped");
        assertCorrupt(good + "\u001b\u0000", 2, "sequence skip at char 6 of 0 (must be at least 1)");
        // a skip of an earlier format (method kind 3, now an exit without index) is counted as a record: damage
        assertCorrupt(good + "\u0003\u0001", 2, "more records than recordCount 2");
        assertCorrupt(good + "\u0000\u0041", 3, "a varint runs past the end in the record at char 6");
        assertCorrupt(good + "\u0001\u0001", 3, "a varint runs past the end in the record at char 6");
        assertCorrupt(good + "\u0000\u00c1", 3, "char 0xc1 at char 7 is not below 128 in the record at char 6");
        assertCorrupt(good + "\u0000\u0041\u0041\u0041\u0041\u0041\u0041\u0001", 3,
                "a varint longer than 6 chars in the record at char 6");
        assertCorrupt(good + "\u0000\u0040\u0040\u0040\u0040\u0040", 3, "a varint runs past the end in the record at char 6");
        assertCorrupt(good + "\u0000\u0040\u0040\u0040\u0040\u0040\u0004", 3, "record at char 6 has a value above 32 bits");
        assertCorrupt(good, 3, "2 record(s) where recordCount says 3");
        assertCorrupt(good + "\u0000\u0001", 2, "more records than recordCount 2");
        assertCorrupt(good, 1, "more records than recordCount 1");
        assertCorrupt(good, -1, "negative recordCount -1");
        assertCorrupt(good, 1_000_000, "recordCount 1000000 does not fit 6 chars");
        CapturingSink s = new CapturingSink();
        new MethodBufferDecoder().decode(good, 7, 1, 2, BASE, 0, s);
        assertEquals(List.of("7 2: ticksPerSecond 0 is not positive"), s.corrupt);
        assertTrue(s.methodEvents.isEmpty());
    }

    @Test
    void aLeafRecordDecodesToItsEntryAndExitAtOneTime() {
        TraceBufferEncoder e = new TraceBufferEncoder()
                .entry(1, 10)
                .leaf(70, 64, -1)           // unstamped: both share the entry's time
                .skip(1)
                .leaf(5000, 3, 4_000_000)   // stamped: both at the new time
                .leafThrown(9, -1)          // by an exception: no bytecode index
                .exit(1, 31, -1);
        assertEquals(8, e.count());
        CapturingSink s = decode(e.records(), 100, e.count(), 3_000_000_000L);
        double nsPerTick = 1e9 / 3_000_000_000L;
        long t10 = BASE + (long) (10 * nsPerTick);
        long t4m = BASE + (long) (4_000_000 * nsPerTick);
        assertEquals(List.of(
                "1 7 100 " + t10 + " 1 0",
                "1 7 101 " + t10 + " 70 0",
                "2 7 102 " + t10 + " 70 64",
                "1 7 104 " + t4m + " 5000 0",
                "2 7 105 " + t4m + " 5000 3",
                "1 7 106 " + t4m + " 9 0",
                "2 7 107 " + t4m + " 9 0",
                "2 7 108 " + t4m + " 1 31"), s.methodEvents);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
    }

    @Test
    void wideMethodIdsDecodeAsTheirVarintForm() {
        TraceBufferEncoder varints = new TraceBufferEncoder().entry(4096, 3).entry(70, -1).leaf(16383, 64, -1).exit(70, 9, -1)
                .thrown(4096, 5).entry(16384, -1);
        TraceBufferEncoder wide = new TraceBufferEncoder().wideIds().entry(4096, 3).entry(70, -1).leaf(16383, 64, -1).exit(70, 9, -1)
                .thrown(4096, 5).entry(16384, -1);
        assertEquals(varints.records().length() - 3, wide.records().length(), "one char less for each id from 4096 to 16383 (three records)");
        CapturingSink a = decode(varints.records(), 1, varints.count(), 1_000_000_000L);
        CapturingSink b = decode(wide.records(), 1, wide.count(), 1_000_000_000L);
        assertTrue(b.corrupt.isEmpty(), b.corrupt.toString());
        assertEquals(7, b.methodEvents.size());
        assertEquals(a.methodEvents, b.methodEvents);
    }

    @Test
    void aWideIdBitAnywhereButOnAMethodRecordOrAnIdCutShortIsDamage() {
        String good = new TraceBufferEncoder().entry(1, 5).exit(1, 9, -1).records();
        assertCorrupt(good + "\u005b\u0001", 3, "header char 0x5b at char 6 has reserved bits set"); // on a skip
        assertCorrupt(good + "\u0059\u0001\u0001\u0000\u0000", 4, "header char 0x59 at char 6 has reserved bits set"); // on a heap record
        assertCorrupt(good + "\u0040\u0001", 3, "a method id runs past the end in the record at char 6");
        assertCorrupt(good + "\u0040\u0001\u0080", 3, "a method id char at char 7 is not below 128 in the record at char 6");
    }

    @Test
    void aLeafBitAnywhereButOnAnExitIsDamage() {
        String good = new TraceBufferEncoder().entry(1, 5).exit(1, 9, -1).records();
        assertCorrupt(good + "\u0020\u0001", 3, "header char 0x20 at char 6 has reserved bits set"); // on an entry
        assertCorrupt(good + "\u003b\u0001", 3, "header char 0x3b at char 6 has reserved bits set"); // on a skip
        assertCorrupt(good + "\u002a\u0001\u0001\u0001", 3, "header char 0x2a at char 6 has reserved bits set"); // on an object record
        assertCorrupt(good + "\u0031\u0001\u0001\u0000\u0000", 4, "header char 0x31 at char 6 has reserved bits set"); // on a heap record
        // a leaf takes two numbers: a count that leaves room for one is damage
        assertCorrupt(good + "\"\u0001", 3, "more records than recordCount 3"); // 0x22: a leaf by exception
        assertCorrupt(new TraceBufferEncoder().leafThrown(1, -1).entry(2, -1).records(), 4, "3 record(s) where recordCount says 4");
        assertCorrupt(new TraceBufferEncoder().leafThrown(1, -1).records(), 3, "recordCount 3 does not fit 2 chars");
    }

    @Test
    void decodesObjectRecordsBetweenMethodRecords() {
        TraceBufferEncoder e = new TraceBufferEncoder()
                .entry(1, 10)
                .alloc(1, 0x1234, 4, -1)                   // unstamped: the time of the entry
                .acquire(4097, 0x9E370007, 12, 4_000_000)  // 2-char class id, hash above Integer.MAX_VALUE
                .skip(2)                                   // per-event events of the thread still count
                .release(4097, -1, 0, -1)                  // hash 0xFFFFFFFF, bci 0 (synchronized method)
                .exit(1, 31, 4_000_001);
        CapturingSink s = decode(e.records(), 100, e.count(), 3_000_000_000L);
        double nsPerTick = 1e9 / 3_000_000_000L;
        long t10 = BASE + (long) (10 * nsPerTick);
        long t4m = BASE + (long) (4_000_000 * nsPerTick);
        long t4m1 = BASE + (long) (4_000_001 * nsPerTick);
        assertEquals(5, e.count());
        assertEquals(List.of("1 7 100 " + t10 + " 1 0", "2 7 106 " + t4m1 + " 1 31"), s.methodEvents);
        long key1 = RecordingSink.AGENT_CLASS_KEY_BIT | 1;
        long key4097 = RecordingSink.AGENT_CLASS_KEY_BIT | 4097;
        assertEquals(List.of(
                "5 7 101 " + t10 + " " + Long.toHexString(key1) + " " + 0x1234 + " 4",
                "3 7 102 " + t4m + " " + Long.toHexString(key4097) + " " + 0x9E370007 + " 12",
                "4 7 105 " + t4m + " " + Long.toHexString(key4097) + " -1 0"), s.objectEvents);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        assertEquals(key4097, RecordingSink.agentClassKey(4097));
        assertEquals(RecordingSink.AGENT_CLASS_KEY_BIT | 0xFFFFFFFFL, RecordingSink.agentClassKey(-1), "class ids are unsigned");
    }

    @Test
    void heapRecordsDecodeIntoOneRecordPerSequenceNumber() {
        // docs/trace-buffer.md, Heap records: a throw (method 5, bci 7, exception of class id 2 (+1 = 3), hash 9)
        CapturingSink s = decode("\u0010\u0005\u0007\u0003\u0009", 100, 2, 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        long key2 = RecordingSink.agentClassKey(2);
        assertEquals(List.of("16 7 100 " + BASE + " 5 7"), s.methodEvents);
        assertEquals(List.of("18 7 101 " + BASE + " " + Long.toHexString(key2) + " 9 0"), s.objectEvents);
        // a static field store (field 4, bci 8): no holder, old = class 2 hash 5, new = null
        s = decode("\u0012\u0004\u0008\u0000\u0000\u0003\u0005\u0000\u0000", 100, 4, 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        String nul = Long.toHexString(RecordingSink.NULL_CLASS_KEY);
        assertEquals(List.of("19 7 100 " + BASE + " 4 8"), s.methodEvents);
        assertEquals(List.of("21 7 101 " + BASE + " " + nul + " 0 0", "22 7 102 " + BASE + " " + Long.toHexString(key2) + " 5 0",
                "23 7 103 " + BASE + " " + nul + " 0 0"), s.objectEvents);
        // a receiver (kind 4: header 0x18; method 6, bci 0, class id 2, hash 9) is one record
        s = decode("\u0018\u0006\u0000\u0003\u0009", 100, 1, 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        assertEquals(List.of("25 7 100 " + BASE + " " + Long.toHexString(key2) + " 9 0"), s.objectEvents);
        // an array allocation (kind 5: header 0x19; length 3, bci 4, class id 2, hash 9) is the
        // allocation, then its length, one sequence number each
        s = decode("\u0019\u0003\u0004\u0003\u0009", 100, 2, 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        assertEquals(List.of("5 7 100 " + BASE + " " + Long.toHexString(key2) + " 9 4"), s.objectEvents);
        assertEquals(List.of("26 7 101 " + BASE + " 3 0"), s.methodEvents);
        // an allocation site (kind 6: header 0x1a; method 6, bci 8, no object) is one ALLOC_SITE record
        s = decode("\u001a\u0006\u0008\u0000\u0000", 100, 1, 1_000_000_000L);
        assertTrue(s.corrupt.isEmpty(), s.corrupt.toString());
        assertEquals(List.of("27 7 100 " + BASE + " 6 8"), s.methodEvents);
        // an array store (kind 3: header 0x13) counts four records too: a recordCount of 3 is corrupt
        assertCorrupt("\u0013\u0001\u0002\u0000\u0000\u0000\u0000\u0000\u0000", 3, "more records than recordCount 3");
    }

    @Test
    void damagedObjectRecordsSkipTheWholeEvent() {
        String good = new TraceBufferEncoder().entry(1, 5).alloc(2, 3, 4, -1).records(); // 3 + 4 chars
        String alloc = new TraceBufferEncoder().alloc(2, 3, 4, -1).records();
        assertEquals(List.of(), decode(good + alloc, 1, 3, 1_000_000_000L).corrupt, "the undamaged form decodes");
        // bit 4 with bits 3, 1 and 0: heap kind 7, the skip, which is no record
        assertCorrupt(good + "\u001b\u0002", 3, "2 record(s) where recordCount says 3");
        // an allocation site (kind 6) with an object
        assertCorrupt(good + "\u001a\u0002\u0003\u0004\u0001", 3, "heap record at char 7 has a value out of range");
        // an array allocation (kind 5) without an array
        assertCorrupt(good + "\u0019\u0002\u0003\u0000\u0000", 4, "array allocation at char 7 has no array");
        // bits 5-6
        assertCorrupt(good + "\u002a\u0002\u0003\u0004", 3, "header char 0x2a at char 7 has reserved bits set");
        assertCorrupt(good + "\u004a\u0002\u0003\u0004", 3, "header char 0x4a at char 7 has reserved bits set");
        // varints that overrun the records: class id, hash, bci, and the time delta of a stamped one
        assertCorrupt(good + "\n\u0042", 3, "a varint runs past the end in the object record at char 7");
        assertCorrupt(good + "\n\u0002", 3, "a varint runs past the end in the object record at char 7");
        assertCorrupt(good + "\n\u0002\u0003", 3, "a varint runs past the end in the object record at char 7");
        assertCorrupt(good + "\u000e\u0002\u0003\u0004", 3, "a varint runs past the end in the object record at char 7");
        assertCorrupt(good + "\n\u0002\u0043\u0043\u0043\u0043\u0043\u0043\u0001\u0004", 3,
                "a varint longer than 6 chars in the object record at char 7");
        // a hash (or class id, or bci) above 32 bits: 36 bits fit 6 chars
        String big = new TraceBufferEncoder().rawVarint(1L << 32).records();
        assertCorrupt(good + "\n\u0002" + big + "\u0004", 3, "object record at char 7 has a value above 32 bits");
        assertCorrupt(good + "\u0008" + big + "\u0003\u0004", 3, "object record at char 7 has a value above 32 bits");
        assertCorrupt(good + "\u0009\u0002\u0003" + big, 3, "object record at char 7 has a value above 32 bits");
        String max = new TraceBufferEncoder().rawVarint(0xFFFFFFFFL).records();
        assertEquals(List.of(), decode(good + "\n\u0002" + max + "\u0004", 1, 3, 1_000_000_000L).corrupt,
                "the largest unsigned 32-bit hash is fine");
        // object records count in recordCount
        assertCorrupt(good + alloc, 2, "more records than recordCount 2");
        assertCorrupt(good, 3, "2 record(s) where recordCount says 3");
    }

    private static void assertCorrupt(String records, int recordCount, String reason) {
        CapturingSink s = decode(records, 1, recordCount, 1_000_000_000L);
        assertEquals(List.of("7 " + recordCount + ": " + reason), s.corrupt, "records " + escape(records));
        assertTrue(s.methodEvents.isEmpty(), "nothing of a corrupt event is delivered: " + s.methodEvents);
        assertTrue(s.objectEvents.isEmpty(), "nothing of a corrupt event is delivered: " + s.objectEvents);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(String.format("\\u%04x", (int) c));
        }
        return b.toString();
    }
}
