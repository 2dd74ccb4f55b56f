package dev.minitrace.bench.apps;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The allocations a converted trace ({@code .mtlog}, thread-local layout) holds: how many, their
 * bytes per class (the agent's measured sizes, {@code *classsizes}, and each array's ARRAY_LENGTH),
 * and which classes each method allocated (the method of the ALLOC_SITE before the allocation,
 * else the innermost traced method running). Methods, not bytecode indexes: JFR's frames give the
 * index in the rewritten code, the trace the original's.
 */
final class RecordedAllocations {
    long allocations;
    /** Allocations whose class has no measured size (counted, not in the bytes). */
    long unsized;
    final Map<String, Long> bytesByClass = new HashMap<>();
    /** Each method and class it allocated, as {@link #site}. */
    final Set<String> sites = new HashSet<>();

    private RecordedAllocations() {
    }

    static RecordedAllocations read(Path mtlog) throws IOException {
        RecordedAllocations r = new RecordedAllocations();
        try (MtlogReader reader = MtlogReader.open(mtlog)) {
            if (reader.globalLayout()) {
                throw new IOException(mtlog + ": global layout; the thread-local one is needed to know each allocation's site");
            }
            MtlogInfo info = reader.info();
            long[] bytesById = new long[info.classes().keySet().stream().mapToInt(Long::intValue).max().orElse(0) + 1];
            long[] countById = new long[bytesById.length];
            Set<Long> siteKeys = new HashSet<>();
            for (int stream : reader.streamIds()) {
                ThreadState t = new ThreadState(info, bytesById, countById, siteKeys);
                reader.forEachRecord(stream, (s, type, value, aux) -> t.record(type, value, aux));
                t.flush();
            }
            for (int id = 1; id < bytesById.length; id++) {
                if (countById[id] > 0) {
                    r.allocations += countById[id];
                    String name = info.classes().get((long) id);
                    if (info.classSizes().containsKey((long) id)) {
                        r.bytesByClass.merge(name, bytesById[id], Long::sum);
                    } else {
                        r.unsized += countById[id];
                    }
                }
            }
            for (long key : siteKeys) {
                MtlogInfo.MethodInfo m = info.methods().get(key >>> 32);
                String allocated = info.classes().get(key & 0xFFFFFFFFL);
                if (m != null && allocated != null) {
                    r.sites.add(site(method(m.className(), m.methodName(), m.descriptor()), allocated));
                }
            }
        }
        return r;
    }

    static String method(String className, String method, String descriptor) {
        return className + "." + method + descriptor;
    }

    /** A method ({@link #method}) that allocated objects of class {@code allocated}. */
    static String site(String method, String allocated) {
        return method + " allocates " + kind(allocated);
    }

    /**
     * A class's name with a lambda proxy's suffix cut (its number and address, which JFR and the
     * trace write differently): the lambdas of one class count as one kind.
     */
    static String kind(String className) {
        int lambda = className.indexOf("$$Lambda");
        return lambda < 0 ? className : className.substring(0, lambda + "$$Lambda".length());
    }

    /** One thread's stream read in order: its open traced methods and the allocation waiting for its length. */
    private static final class ThreadState {
        private final MtlogInfo info;
        private final long[] bytesById;
        private final long[] countById;
        private final Set<Long> siteKeys;
        private long[] stack = new long[64];
        private int depth;
        private long siteMethod = -1;
        private int pendingClass = -1;
        private long pendingLength;

        ThreadState(MtlogInfo info, long[] bytesById, long[] countById, Set<Long> siteKeys) {
            this.info = info;
            this.bytesById = bytesById;
            this.countById = countById;
            this.siteKeys = siteKeys;
        }

        void record(int type, long value, int aux) {
            if (type == MtlogFormat.ARRAY_LENGTH) {
                pendingLength = value;
                return;
            }
            flush();
            switch (type) {
                case MtlogFormat.METHOD_ENTRY -> {
                    if (depth == stack.length) {
                        stack = java.util.Arrays.copyOf(stack, depth * 2);
                    }
                    stack[depth++] = value;
                }
                case MtlogFormat.METHOD_EXIT -> depth = Math.max(0, depth - 1);
                case MtlogFormat.ALLOC_SITE -> siteMethod = value;
                case MtlogFormat.OBJECT_ALLOC -> {
                    long method = siteMethod >= 0 ? siteMethod : depth > 0 ? stack[depth - 1] : -1;
                    siteMethod = -1;
                    pendingClass = (int) (value >>> 32);
                    if (method >= 0) {
                        siteKeys.add(method << 32 | pendingClass);
                    }
                    pendingLength = 0;
                }
                default -> {
                }
            }
        }

        void flush() {
            if (pendingClass < 0) {
                return;
            }
            countById[pendingClass]++;
            MtlogInfo.ClassSize size = info.classSizes().get((long) pendingClass);
            if (size != null) {
                bytesById[pendingClass] += size.size(pendingLength);
            }
            pendingClass = -1;
        }
    }
}
