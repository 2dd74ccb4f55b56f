package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.util.SpilledLongIntMap;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Elephant Tracks' trace format ({@code docs/elephant-tracks.md}): a folder with {@code trace} (one
 * event a line, all threads merged by time) and {@code names} (classes, methods, fields and
 * allocation sites). Every integer is hexadecimal, each file ends with a blank line. Objects get
 * unique ids here, one per allocation, in order; a later reference to the class and identity hash
 * of a recorded allocation names the latest such allocation (two live objects of one class with
 * one identity hash cannot be told apart: the later one wins). An object never seen allocated gets
 * an id on first use and no allocation line. A death ({@code D}) is written for an allocated
 * object only, and frees its class and hash for the next allocation. MiniTrace records an allocation once its constructor
 * returned, after the constructor's own stores: an object named before its allocation record gets
 * its id there, and its allocation line is put at that first mention, so that it precedes every
 * line naming it, as the analyzer needs. Sizes are the JVM's shallow sizes that the recording's
 * class definitions carry ({@code *classsizes}), with the array length from the ARRAY_LENGTH record
 * after an array's allocation; 0 when the recording has none.
 *
 * <p>Class names are only known at the end, so allocation lines are written with the class id and
 * the trace is rewritten once with the type names when {@link #finish} runs; the files appear
 * (renamed from temporary ones) only then.
 */
public final class ElephantTracksWriter implements TraceWriter {
    /** Object ids the heap keeps before the oldest go to a sorted run on disk ({@link SpilledLongIntMap}). */
    static final int IDS_IN_MEMORY = 1 << 20;
    /**
     * A raw allocation line: {@code &}, {@code +} (allocated) or {@code -} (named, not yet
     * allocated), then fixed-width hexadecimal fields, filled in when the allocation or its array
     * length comes: ET id, class id, site, thread, length.
     */
    private static final int AT_STATE = 1;
    private static final int AT_ID = 2;
    private static final int AT_CLASS = AT_ID + 8;
    private static final int AT_SITE = AT_CLASS + 8;
    private static final int AT_THREAD = AT_SITE + 8;
    private static final int AT_LENGTH = AT_THREAD + 16;
    private static final int ALLOC_LINE = AT_LENGTH + 8 + 1;

    private final Path dir;
    private final Path rawTrace;
    private final PatchableText out;
    /** Thread key -> index in {@link #threadList}, in order of first record. */
    private final LongIntMap threadIndex = new LongIntMap(64);
    private final List<ThreadState> threadList = new ArrayList<>();
    /** The ET id of the latest allocation of each .mtlog object id (class id and identity hash). */
    private final SpilledLongIntMap ids;
    private int nextId = 1;
    /**
     * Objects named before any allocation record of theirs: .mtlog object id -> slot of
     * {@link #namedAt}, the raw trace position of the {@code &-} line that their allocation fills in.
     */
    private final LongIntMap namedFirst = new LongIntMap(1024);
    private long[] namedAt = new long[1024];
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private int slotsUsed;
    /** Allocation sites: (method, bytecode index) -> site id, method ids by their index here. */
    private final LongIntMap methodIndex = new LongIntMap(1024);
    private final LongIntMap siteIds = new LongIntMap(1024);
    /** Per site id - 1: its method, the class id of its first allocation, the next site of its method (0: none). */
    private long[] siteMethod = new long[256];
    private int[] siteClass = new int[256];
    private int[] nextSiteOfMethod = new int[256];
    private int siteCount;
    /** Per method index: its first and last site id. */
    private int[] firstSite = new int[256];
    private int[] lastSite = new int[256];

    /** What one thread is in the middle of: its open methods, a heap record's parts, an exception in flight. */
    private static final class ThreadState {
        final long key;
        long[] stack = new long[16];
        int depth;
        int pendingType;
        long pendingValue;
        /** The method of the ALLOC_SITE just before (an allocation in an untraced method, alloc-scope=all), or -1. */
        long allocSite = -1;
        long holder;
        long old;
        int inFlight;
        /** The method of an entry whose M line waits for its receiver record (-1: none). */
        long pendingEntry = -1;
        /** Where the length of the allocation that was this thread's last record goes, for the ARRAY_LENGTH after it (-1: none). */
        long lengthAt = -1;

        ThreadState(long key) {
            this.key = key;
        }
    }

    /** Writes into folder {@code dir} (created if missing). */
    public ElephantTracksWriter(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        rawTrace = Files.createTempFile(dir, ".trace-", ".tmp");
        out = new PatchableText(rawTrace);
        ids = new SpilledLongIntMap(dir, IDS_IN_MEMORY);
    }

    @Override
    public Order order() {
        return Order.TIME;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        int ti = threadIndex.get(threadKey);
        if (ti == LongIntMap.MISSING) {
            ti = threadList.size();
            threadIndex.put(threadKey, ti);
            threadList.add(new ThreadState(threadKey));
        }
        ThreadState t = threadList.get(ti);
        for (int i = from; i < to; i++) {
            record(threadKey, t, type[i], value[i], aux[i]);
        }
    }

    private void record(long thread, ThreadState t, int type, long v, int aux) throws IOException {
        long lengthAt = t.lengthAt;
        t.lengthAt = -1;
        if (type == MtlogFormat.ARRAY_LENGTH) {
            if (lengthAt != -1) {
                out.patchHex(lengthAt, Math.max(0, Math.min(v, Integer.MAX_VALUE)), 8); // written into its line by finish()
            }
            return;
        }
        if (type == MtlogFormat.METHOD_RECEIVER && t.pendingEntry != -1) {
            int receiver = object(v);
            out.put('M').put(' ').hex(t.pendingEntry).put(' ').hex(receiver).put(' ').hex(thread).put('\n');
            t.pendingEntry = -1;
            return;
        }
        flushEntry(thread, t);
        switch (type) {
            case MtlogFormat.METHOD_ENTRY -> {
                if (t.depth == t.stack.length) {
                    t.stack = java.util.Arrays.copyOf(t.stack, t.depth * 2);
                }
                t.stack[t.depth++] = v;
                t.pendingEntry = v; // its M line waits for a receiver record, if one follows
            }
            case MtlogFormat.METHOD_EXIT -> {
                if (t.depth > 0) {
                    t.depth--;
                }
                // aux 0 is an exit by exception (or a return at bytecode 0): X only with an exception in flight
                if (aux == 0 && t.inFlight != 0) {
                    out.put('X').put(' ').hex(v).put(' ').hex(0).put(' ').hex(t.inFlight).put(' ').hex(thread).put('\n');
                } else {
                    out.put('E').put(' ').hex(v).put(' ').hex(0).put(' ').hex(thread).put('\n');
                }
            }
            case MtlogFormat.ALLOC_SITE -> t.allocSite = v;
            case MtlogFormat.OBJECT_ALLOC -> {
                long method = t.allocSite != -1 ? t.allocSite : t.depth == 0 ? -1 : t.stack[t.depth - 1];
                t.allocSite = -1;
                int site = site(method, aux, MtlogFormat.classIdOf(v));
                long classId = MtlogFormat.classIdOf(v) & 0xFFFFFFFFL;
                int slot = namedFirst.get(v);
                if (slot != LongIntMap.MISSING) {
                    // its line goes to its first mention, which keeps the ET id given there
                    namedFirst.remove(v);
                    long at = namedAt[slot];
                    freeSlot(slot);
                    out.patch(at + AT_STATE, '+');
                    out.patchHex(at + AT_CLASS, classId, 8);
                    out.patchHex(at + AT_SITE, site, 8);
                    out.patchHex(at + AT_THREAD, thread, 16);
                    t.lengthAt = at + AT_LENGTH;
                    return;
                }
                int id = newId();
                ids.put(v, id);
                // the line gets its kind, size, type name and array length in finish()
                long at = allocationLine('+', id, classId, site, thread);
                t.lengthAt = at + AT_LENGTH;
            }
            case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.FIELD_STORE, MtlogFormat.ARRAY_STORE -> {
                t.pendingType = type;
                t.pendingValue = v;
            }
            case MtlogFormat.EXCEPTION_OBJECT -> {
                int e = object(v);
                boolean thrown = t.pendingType == MtlogFormat.EXCEPTION_THROW;
                t.inFlight = thrown ? e : 0;
                out.put(thrown ? 'T' : 'H').put(' ').hex(t.pendingValue).put(' ').hex(0).put(' ').hex(e).put('\n');
            }
            case MtlogFormat.OBJECT_DEATH -> {
                // only an allocated object may die in the trace; its class and hash are free again after
                int id = ids.get(v);
                if (id != SpilledLongIntMap.MISSING && namedFirst.get(v) == LongIntMap.MISSING) {
                    ids.remove(v);
                    out.put('D').put(' ').hex(id).put(' ').hex(thread).put('\n');
                }
            }
            case MtlogFormat.STORE_HOLDER -> t.holder = object(v);
            case MtlogFormat.STORE_OLD -> t.old = object(v);
            case MtlogFormat.STORE_NEW -> {
                int target = object(v);
                // field ids are shifted by one (0 means a static to the analyzer); an array element's "field" is its index + 1
                out.put('U').put(' ').hex(t.old).put(' ').hex(t.holder).put(' ').hex(target).put(' ').hex(t.pendingValue + 1).put(' ')
                        .hex(thread).put('\n');
            }
            default -> {
                // locks have no Elephant Tracks line
            }
        }
    }

    /** Writes the M line of an entry that got no receiver record (a static method, a constructor, receivers off). */
    private void flushEntry(long thread, ThreadState t) throws IOException {
        if (t.pendingEntry != -1) {
            out.put('M').put(' ').hex(t.pendingEntry).put(' ').hex(0).put(' ').hex(thread).put('\n');
            t.pendingEntry = -1;
        }
    }

    private int newId() throws IOException {
        if (nextId == Integer.MAX_VALUE) {
            throw new IOException("more than " + (Integer.MAX_VALUE - 1) + " objects: Elephant Tracks' object ids are 31-bit here");
        }
        return nextId++;
    }

    /** Writes a raw allocation line; returns where it starts. */
    private long allocationLine(char state, int id, long classId, int site, long thread) throws IOException {
        long at = out.position();
        out.put('&').put(state).hex(id, 8).hex(classId, 8).hex(site, 8).hex(thread, 16).hex(0, 8).put('\n');
        return at;
    }

    /** The ET id of {@code objectId} (0 for null); an object never seen allocated gets a new one. */
    private int object(long objectId) throws IOException {
        if (objectId == 0) {
            return 0;
        }
        int id = ids.get(objectId);
        if (id == SpilledLongIntMap.MISSING) {
            id = newId();
            ids.put(objectId, id);
            int slot = takeSlot();
            namedFirst.put(objectId, slot);
            namedAt[slot] = allocationLine('-', id, 0, 0, 0);
        }
        return id;
    }

    private int takeSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == namedAt.length) {
            namedAt = java.util.Arrays.copyOf(namedAt, slotsUsed * 2);
        }
        return slotsUsed++;
    }

    private void freeSlot(int slot) {
        if (freeCount == freeSlots.length) {
            freeSlots = java.util.Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = slot;
    }

    private int site(long method, int bci, int classId) {
        if (method < 0) {
            return 0;
        }
        int m = methodIndex.get(method);
        if (m == LongIntMap.MISSING) {
            m = methodIndex.size();
            methodIndex.put(method, m);
            if (m == firstSite.length) {
                firstSite = java.util.Arrays.copyOf(firstSite, m * 2);
                lastSite = java.util.Arrays.copyOf(lastSite, m * 2);
            }
        }
        long key = (long) m << 32 | (bci & 0xFFFFFFFFL);
        int s = siteIds.get(key);
        if (s == LongIntMap.MISSING) {
            s = ++siteCount;
            siteIds.put(key, s);
            if (s > siteMethod.length) {
                siteMethod = java.util.Arrays.copyOf(siteMethod, siteMethod.length * 2);
                siteClass = java.util.Arrays.copyOf(siteClass, siteClass.length * 2);
                nextSiteOfMethod = java.util.Arrays.copyOf(nextSiteOfMethod, nextSiteOfMethod.length * 2);
            }
            siteMethod[s - 1] = method;
            siteClass[s - 1] = classId;
            if (firstSite[m] == 0) {
                firstSite[m] = s;
            } else {
                nextSiteOfMethod[lastSite[m] - 1] = s;
            }
            lastSite[m] = s;
        }
        return s;
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        // Elephant Tracks has no GC points: its deaths carry the time
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        // entries still waiting for a receiver: in the order a HashMap of the thread keys (filled in
        // first-record order) iterates, the order these last lines have always had
        Map<Long, ThreadState> byKey = new HashMap<>();
        for (ThreadState t : threadList) {
            byKey.put(t.key, t);
        }
        for (ThreadState t : byKey.values()) {
            flushEntry(t.key, t);
        }
        out.close();
        ids.close();
        Map<String, Integer> classIds = new LinkedHashMap<>();
        tables.classes().forEach((id, name) -> classId(classIds, name));
        Map<Integer, List<String>> members = new TreeMap<>();
        for (Map.Entry<Long, MtlogInfo.MethodInfo> m : tables.methods().entrySet()) {
            MtlogInfo.MethodInfo mi = m.getValue();
            int cid = classId(classIds, mi.className());
            String flags = "<clinit>".equals(mi.methodName()) ? "S" : "I";
            List<String> lines = members.computeIfAbsent(cid, k -> new ArrayList<>());
            lines.add("N " + hexOf(m.getKey()) + " " + hexOf(cid) + " " + slash(mi.className()) + " " + mi.methodName() + " "
                    + mi.descriptor() + " " + flags);
            int mIndex = m.getKey() < 0 ? LongIntMap.MISSING : methodIndex.get(m.getKey());
            for (int s = mIndex == LongIntMap.MISSING ? 0 : firstSite[mIndex]; s != 0; s = nextSiteOfMethod[s - 1]) {
                String type = descriptor(tables.classes().getOrDefault(siteClass[s - 1] & 0xFFFFFFFFL, "?"));
                lines.add("S " + hexOf(m.getKey()) + " " + hexOf(cid) + " " + hexOf(s) + " " + type + " " + hexOf(dims(type)));
            }
        }
        for (Map.Entry<Long, MtlogInfo.FieldInfo> f : tables.fields().entrySet()) {
            MtlogInfo.FieldInfo fi = f.getValue();
            int cid = classId(classIds, fi.className());
            members.computeIfAbsent(cid, k -> new ArrayList<>()).add("F " + (fi.isStatic() ? "S" : "I") + " " + hexOf(f.getKey() + 1)
                    + " " + fi.fieldName() + " " + hexOf(cid) + " " + slash(fi.className()) + " " + fi.descriptor());
        }
        Path names = Files.createTempFile(dir, ".names-", ".tmp");
        Path trace = Files.createTempFile(dir, ".trace-", ".tmp");
        try {
            try (BufferedWriter w = Files.newBufferedWriter(names, StandardCharsets.UTF_8)) {
                for (Map.Entry<String, Integer> c : classIds.entrySet()) {
                    w.append("C ").append(hexOf(c.getValue())).append(' ').append(slash(c.getKey())).append('\n');
                    for (String l : members.getOrDefault(c.getValue(), List.of())) {
                        w.append(l).append('\n');
                    }
                    w.append("E ").append(hexOf(c.getValue())).append('\n');
                }
                w.append('\n');
            }
            rewrite(tables, trace);
            Files.move(names, dir.resolve("names"), StandardCopyOption.REPLACE_EXISTING);
            Files.move(trace, dir.resolve("trace"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(names);
            Files.deleteIfExists(trace);
            Files.deleteIfExists(rawTrace);
        }
    }

    /** Copies the raw trace to {@code trace}, its allocation lines completed with what only {@code tables} knows, the rest as they are. */
    private void rewrite(MtlogInfo tables, Path trace) throws IOException {
        AllocationTypes types = new AllocationTypes(tables);
        try (InputStream r = Files.newInputStream(rawTrace);
                OutputStream w = new BufferedOutputStream(Files.newOutputStream(trace), 1 << 16)) {
            byte[] in = new byte[1 << 16];
            byte[] l = new byte[256];
            int n = 0;
            int got;
            while ((got = r.read(in)) != -1) {
                for (int i = 0; i < got; i++) {
                    byte c = in[i];
                    if (c != '\n') {
                        if (n == l.length) {
                            l = java.util.Arrays.copyOf(l, n * 2);
                        }
                        l[n++] = c;
                        continue;
                    }
                    if (l[0] != '&') {
                        w.write(l, 0, n);
                        w.write('\n');
                    } else if (l[AT_STATE] == '+') {
                        types.allocation(w, hexAt(l, AT_CLASS, 8), (int) hexAt(l, AT_ID, 8), hexAt(l, AT_LENGTH, 8), hexAt(l, AT_SITE, 8),
                                hexAt(l, AT_THREAD, 16));
                    } // '-': named, never allocated: no line
                    n = 0;
                }
            }
            w.write('\n');
        }
    }

    private static long hexAt(byte[] l, int from, int digits) {
        long v = 0;
        for (int i = from; i < from + digits; i++) {
            int c = l[i];
            v = v << 4 | (c <= '9' ? c - '0' : c - 'A' + 10);
        }
        return v;
    }

    /** Per class id of the recording, the parts of its allocation lines: kind, type descriptor, sizes. */
    private static final class AllocationTypes {
        private final MtlogInfo tables;
        private final LongIntMap index = new LongIntMap(1024);
        private final List<byte[]> descriptors = new ArrayList<>();
        private final List<Boolean> arrays = new ArrayList<>();
        private final List<MtlogInfo.ClassSize> sizes = new ArrayList<>();
        private final StringBuilder line = new StringBuilder(128);

        AllocationTypes(MtlogInfo tables) {
            this.tables = tables;
        }

        /**
         * {@code N|A <id> <size> <type> <site> <thread> <length>}: N for an object (length 0), A for an
         * array; the size from the class's sizes in the recording, 0 when it has none. The thread comes
         * before the length because that is where the analyzer reads it (docs/elephant-tracks.md).
         */
        void allocation(OutputStream w, long classId, int id, long length, long site, long thread) throws IOException {
            int i = index.get(classId);
            if (i == LongIntMap.MISSING) {
                i = descriptors.size();
                index.put(classId, i);
                String name = tables.classes().getOrDefault(classId, "?");
                arrays.add(name.startsWith("["));
                descriptors.add(descriptor(name).getBytes(StandardCharsets.UTF_8));
                sizes.add(tables.classSizes().get(classId));
            }
            byte[] d = descriptors.get(i);
            MtlogInfo.ClassSize cs = sizes.get(i);
            long size = cs == null ? 0 : cs.size(length);
            w.write(arrays.get(i) ? 'A' : 'N');
            w.write(' ');
            writeAscii(w, hexOf(id));
            w.write(' ');
            writeAscii(w, hexOf(size));
            w.write(' ');
            w.write(d);
            line.setLength(0);
            line.append(' ').append(hexOf(site)).append(' ').append(hexOf(thread)).append(' ').append(hexOf(length)).append('\n');
            writeAscii(w, line);
        }

        private static void writeAscii(OutputStream w, CharSequence s) throws IOException {
            for (int k = 0; k < s.length(); k++) {
                w.write(s.charAt(k));
            }
        }
    }

    private static int classId(Map<String, Integer> ids, String name) {
        return ids.computeIfAbsent(name, k -> ids.size() + 1);
    }

    private static String hexOf(long v) {
        return Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
    }

    /** {@code java.lang.String} as {@code java/lang/String}. */
    static String slash(String className) {
        return className.replace('.', '/');
    }

    /** The JVM descriptor of a class name: {@code Ljava/lang/String;}, arrays as they are ({@code [I}). */
    static String descriptor(String className) {
        return className.startsWith("[") ? slash(className) : "L" + slash(className) + ";";
    }

    private static int dims(String descriptor) {
        int d = 0;
        while (d < descriptor.length() && descriptor.charAt(d) == '[') {
            d++;
        }
        return d;
    }

    @Override
    public long heapBytes() {
        // the ids in the heap (the rest wait on disk); objects named before their allocation and the
        // sites are few beside them (docs/elephant-tracks.md, "Memory")
        return DEFAULT_HEAP_BYTES + SpilledLongIntMap.heapBytes(IDS_IN_MEMORY);
    }

    @Override
    public void close() throws IOException {
        try (ids) {
            out.close();
        } finally {
            Files.deleteIfExists(rawTrace);
        }
    }
}
