package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
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
    private final Path dir;
    private final Path rawTrace;
    private final BufferedWriter out;
    private final Map<Long, ThreadState> threads = new HashMap<>();
    /** The ET id of the latest allocation of each .mtlog object id (class id and identity hash). */
    private final Map<Long, Integer> ids = new HashMap<>();
    private int nextId = 1;
    /** Objects named before any allocation record of theirs: .mtlog object id -> ET id (a '&' line marks the spot). */
    private final Map<Long, Integer> namedFirst = new HashMap<>();
    /** ET id -> "class id, site, thread" of an allocation whose line goes to its '&' spot. */
    private final Map<Integer, long[]> moved = new HashMap<>();
    /** Allocation sites: (method id, bytecode index) -> site id; and each site's method and class id. */
    private final Map<Long, Map<Integer, Integer>> sites = new HashMap<>();
    private final List<long[]> siteList = new ArrayList<>();
    /**
     * ET id of an array -> its length. The allocation's line is written at once (so that it comes
     * before any line of another thread naming the object) and gets its length in {@link #finish}.
     */
    private final LongIntMap lengths = new LongIntMap(1024);
    private final StringBuilder line = new StringBuilder(128);

    /** What one thread is in the middle of: its open methods, a heap record's parts, an exception in flight. */
    private static final class ThreadState {
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
        /** The ET id of the allocation that was this thread's last record, for the ARRAY_LENGTH after it (0: none). */
        int lastAlloc;
    }

    /** Writes into folder {@code dir} (created if missing). */
    public ElephantTracksWriter(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        rawTrace = Files.createTempFile(dir, ".trace-", ".tmp");
        out = Files.newBufferedWriter(rawTrace, StandardCharsets.UTF_8);
    }

    @Override
    public Order order() {
        return Order.TIME;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        ThreadState t = threads.computeIfAbsent(threadKey, k -> new ThreadState());
        for (int i = from; i < to; i++) {
            record(threadKey, t, type[i], value[i], aux[i]);
        }
    }

    private void record(long thread, ThreadState t, int type, long v, int aux) throws IOException {
        int lastAlloc = t.lastAlloc;
        t.lastAlloc = 0;
        if (type == MtlogFormat.ARRAY_LENGTH) {
            if (lastAlloc != 0) {
                lengths.put(lastAlloc, (int) Math.min(v, Integer.MAX_VALUE)); // written into its line by finish()
            }
            return;
        }
        if (type == MtlogFormat.METHOD_RECEIVER && t.pendingEntry != -1) {
            int receiver = object(v);
            line('M').hex(t.pendingEntry).hex(receiver).hex(thread).end();
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
                    line('X').hex(v).hex(0).hex(t.inFlight).hex(thread).end();
                } else {
                    line('E').hex(v).hex(0).hex(thread).end();
                }
            }
            case MtlogFormat.ALLOC_SITE -> t.allocSite = v;
            case MtlogFormat.OBJECT_ALLOC -> {
                long method = t.allocSite != -1 ? t.allocSite : t.depth == 0 ? -1 : t.stack[t.depth - 1];
                t.allocSite = -1;
                int site = site(method, aux, MtlogFormat.classIdOf(v));
                Integer named = namedFirst.remove(v);
                if (named != null) {
                    moved.put(named, new long[] {MtlogFormat.classIdOf(v) & 0xFFFFFFFFL, site, thread});
                    t.lastAlloc = named;
                    return;
                }
                int id = nextId++;
                ids.put(v, id);
                t.lastAlloc = id;
                // '@' lines get their kind, size, type name and array length in finish()
                line('@').hex(MtlogFormat.classIdOf(v) & 0xFFFFFFFFL).hex(id).hex(site).hex(thread).end();
            }
            case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.FIELD_STORE, MtlogFormat.ARRAY_STORE -> {
                t.pendingType = type;
                t.pendingValue = v;
            }
            case MtlogFormat.EXCEPTION_OBJECT -> {
                int e = object(v);
                boolean thrown = t.pendingType == MtlogFormat.EXCEPTION_THROW;
                t.inFlight = thrown ? e : 0;
                line(thrown ? 'T' : 'H').hex(t.pendingValue).hex(0).hex(e).end();
            }
            case MtlogFormat.OBJECT_DEATH -> {
                // only an allocated object may die in the trace; its class and hash are free again after
                Integer id = ids.get(v);
                if (id != null && !namedFirst.containsKey(v)) {
                    ids.remove(v);
                    line('D').hex(id).hex(thread).end();
                }
            }
            case MtlogFormat.STORE_HOLDER -> t.holder = object(v);
            case MtlogFormat.STORE_OLD -> t.old = object(v);
            case MtlogFormat.STORE_NEW -> {
                int target = object(v);
                // field ids are shifted by one (0 means a static to the analyzer); an array element's "field" is its index + 1
                line('U').hex(t.old).hex(t.holder).hex(target).hex(t.pendingValue + 1).hex(thread).end();
            }
            default -> {
                // locks have no Elephant Tracks line
            }
        }
    }

    /** Writes the M line of an entry that got no receiver record (a static method, a constructor, receivers off). */
    private void flushEntry(long thread, ThreadState t) throws IOException {
        if (t.pendingEntry != -1) {
            line('M').hex(t.pendingEntry).hex(0).hex(thread).end();
            t.pendingEntry = -1;
        }
    }

    /** The ET id of {@code objectId} (0 for null); an object never seen allocated gets a new one. */
    private int object(long objectId) throws IOException {
        if (objectId == 0) {
            return 0;
        }
        Integer id = ids.get(objectId);
        if (id == null) {
            id = nextId++;
            ids.put(objectId, id);
            namedFirst.put(objectId, id);
            out.append('&').append(Integer.toString(id)).append('\n');
        }
        return id;
    }

    private int site(long method, int bci, int classId) {
        if (method < 0) {
            return 0;
        }
        Map<Integer, Integer> byBci = sites.computeIfAbsent(method, k -> new HashMap<>());
        Integer s = byBci.get(bci);
        if (s == null) {
            s = siteList.size() + 1;
            byBci.put(bci, s);
            siteList.add(new long[] {method, bci, classId});
        }
        return s;
    }

    private ElephantTracksWriter line(char kind) {
        line.setLength(0);
        line.append(kind);
        return this;
    }

    private ElephantTracksWriter hex(long v) {
        line.append(' ').append(Long.toHexString(v).toUpperCase(java.util.Locale.ROOT));
        return this;
    }

    private void end() throws IOException {
        out.append(line).append('\n');
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        // Elephant Tracks has no GC points: its deaths carry the time
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        for (Map.Entry<Long, ThreadState> t : threads.entrySet()) {
            flushEntry(t.getKey(), t.getValue());
        }
        out.close();
        Map<String, Integer> classIds = new LinkedHashMap<>();
        Map<Long, Integer> byMtlogClass = new HashMap<>();
        tables.classes().forEach((id, name) -> byMtlogClass.put(id, classId(classIds, name)));
        Map<Integer, List<String>> members = new TreeMap<>();
        for (Map.Entry<Long, MtlogInfo.MethodInfo> m : tables.methods().entrySet()) {
            MtlogInfo.MethodInfo mi = m.getValue();
            int cid = classId(classIds, mi.className());
            String flags = "<clinit>".equals(mi.methodName()) ? "S" : "I";
            List<String> lines = members.computeIfAbsent(cid, k -> new ArrayList<>());
            lines.add("N " + hexOf(m.getKey()) + " " + hexOf(cid) + " " + slash(mi.className()) + " " + mi.methodName() + " "
                    + mi.descriptor() + " " + flags);
            for (int s = 0; s < siteList.size(); s++) {
                long[] site = siteList.get(s);
                if (site[0] == m.getKey()) {
                    String type = descriptor(tables.classes().getOrDefault(site[2] & 0xFFFFFFFFL, "?"));
                    lines.add("S " + hexOf(m.getKey()) + " " + hexOf(cid) + " " + hexOf(s + 1) + " " + type + " "
                            + hexOf(dims(type)));
                }
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
            try (BufferedReader r = Files.newBufferedReader(rawTrace, StandardCharsets.UTF_8);
                    BufferedWriter w = Files.newBufferedWriter(trace, StandardCharsets.UTF_8)) {
                String l;
                while ((l = r.readLine()) != null) {
                    if (l.charAt(0) == '&') {
                        long[] a = moved.get(Integer.parseInt(l.substring(1)));
                        if (a != null) {
                            int id = Integer.parseInt(l.substring(1));
                            allocation(w, tables, a[0], id, length(id), a[1], a[2]);
                        }
                    } else if (l.charAt(0) == '@') {
                        // @ class id site thread -> N|A id size type site thread length
                        String[] f = l.split(" ");
                        int id = Integer.parseInt(f[2], 16);
                        allocation(w, tables, Long.parseLong(f[1], 16), id, length(id), Long.parseLong(f[3], 16), Long.parseLong(f[4], 16));
                    } else {
                        w.append(l).append('\n');
                    }
                }
                w.append('\n');
            }
            Files.move(names, dir.resolve("names"), StandardCopyOption.REPLACE_EXISTING);
            Files.move(trace, dir.resolve("trace"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(names);
            Files.deleteIfExists(trace);
            Files.deleteIfExists(rawTrace);
        }
    }

    /**
     * {@code N|A <id> <size> <type> <site> <thread> <length>}: N for an object (length 0), A for an
     * array; the size from the class's sizes in the recording, 0 when it has none. The thread comes
     * before the length because that is where the analyzer reads it (docs/elephant-tracks.md).
     */
    private static void allocation(BufferedWriter w, MtlogInfo tables, long classId, int id, long length, long site, long thread)
            throws IOException {
        String name = tables.classes().getOrDefault(classId, "?");
        MtlogInfo.ClassSize sizes = tables.classSizes().get(classId);
        long size = sizes == null ? 0 : sizes.size(length);
        w.append(name.startsWith("[") ? 'A' : 'N').append(' ').append(hexOf(id)).append(' ').append(hexOf(size)).append(' ')
                .append(descriptor(name)).append(' ').append(hexOf(site)).append(' ').append(hexOf(thread)).append(' ')
                .append(hexOf(length)).append('\n');
    }

    /** The recorded length of the array with ET id {@code id}, 0 for any other object. */
    private long length(int id) {
        int n = lengths.get(id);
        return n == LongIntMap.MISSING ? 0 : n;
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
        return DEFAULT_HEAP_BYTES; // the id map grows with the allocations: see docs/elephant-tracks.md
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            Files.deleteIfExists(rawTrace);
        }
    }
}
