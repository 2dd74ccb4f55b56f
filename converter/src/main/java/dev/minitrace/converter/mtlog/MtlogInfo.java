package dev.minitrace.converter.mtlog;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The name tables of an {@code .mtlog} file (its INFO block): threads, classes, methods and GCs,
 * each keyed by the id records use. Ids are unsigned: thread and class ids are u32, method and GC
 * ids are u64 (kept in {@code long}). Tables iterate in ascending id order, so the text encoding is
 * deterministic.
 */
public final class MtlogInfo {
    /** A {@code *threads} line. */
    public record ThreadInfo(long javaThreadId, String name) {
    }

    /** A {@code *methods} line. */
    public record MethodInfo(String className, String methodName, String descriptor) {
    }

    /** A {@code *fields} line. */
    public record FieldInfo(String className, String fieldName, String descriptor, boolean isStatic) {
    }

    /** A {@code *gcs} line. */
    public record GcInfo(String name, String cause, long startNanos, long durationNanos) {
    }

    /**
     * A {@code *classsizes} line: the JVM's shallow size of the class's objects. For an array class
     * {@code instanceSize} is the offset of element 0 and {@code elementSize} the bytes per element;
     * every size rounds up to {@code alignment}.
     */
    public record ClassSize(int instanceSize, int elementSize, int alignment) {
        /** The size in bytes of an object of the class; {@code length} counts only for an array class. */
        public long size(long length) {
            if (elementSize == 0) {
                return instanceSize;
            }
            long raw = instanceSize + Math.max(0, length) * elementSize;
            return alignment <= 0 ? raw : (raw + alignment - 1) / alignment * alignment;
        }
    }

    private final TreeMap<Long, ThreadInfo> threads = new TreeMap<>();
    private final TreeMap<Long, String> classes = new TreeMap<>();
    private final TreeMap<Long, MethodInfo> methods = new TreeMap<>();
    private final TreeMap<Long, GcInfo> gcs = new TreeMap<>();
    private final TreeMap<Long, FieldInfo> fields = new TreeMap<>();
    private final TreeMap<Long, ClassSize> classSizes = new TreeMap<>();

    /** Adds or replaces the sizes of a class's objects. */
    public void putClassSize(long classId, int instanceSize, int elementSize, int alignment) {
        classSizes.put(classId, new ClassSize(instanceSize, elementSize, alignment));
    }

    /** The sizes of the classes' objects by class id, for the classes that have them (read-only). */
    public Map<Long, ClassSize> classSizes() {
        return Collections.unmodifiableMap(classSizes);
    }

    /** Adds or replaces a field. */
    public void putField(long fieldId, String className, String fieldName, String descriptor, boolean isStatic) {
        fields.put(fieldId, new FieldInfo(clean(className), clean(fieldName), clean(descriptor), isStatic));
    }

    /** The fields by id (read-only). */
    public Map<Long, FieldInfo> fields() {
        return Collections.unmodifiableMap(fields);
    }

    /** Adds or replaces a thread. */
    public void putThread(long threadId, long javaThreadId, String name) {
        threads.put(threadId, new ThreadInfo(javaThreadId, clean(name)));
    }

    /** Adds or replaces a class. */
    public void putClass(long classId, String name) {
        classes.put(classId, clean(name));
    }

    /** Adds or replaces a method. */
    public void putMethod(long methodId, String className, String methodName, String descriptor) {
        methods.put(methodId, new MethodInfo(clean(className), clean(methodName), clean(descriptor)));
    }

    /** Adds or replaces a GC. */
    public void putGc(long gcId, String name, String cause, long startNanos, long durationNanos) {
        gcs.put(gcId, new GcInfo(clean(name), clean(cause), startNanos, durationNanos));
    }

    /** The threads by id (read-only). */
    public Map<Long, ThreadInfo> threads() {
        return Collections.unmodifiableMap(threads);
    }

    /** The classes by id (read-only). */
    public Map<Long, String> classes() {
        return Collections.unmodifiableMap(classes);
    }

    /** The methods by id (read-only). */
    public Map<Long, MethodInfo> methods() {
        return Collections.unmodifiableMap(methods);
    }

    /** The GCs by id (read-only). */
    public Map<Long, GcInfo> gcs() {
        return Collections.unmodifiableMap(gcs);
    }

    /** The INFO text: sections {@code *threads}, {@code *classes}, {@code *methods}, {@code *gcs}, then {@code *end}. */
    public byte[] encode() {
        StringBuilder sb = new StringBuilder(64 + 48 * (threads.size() + classes.size() + methods.size() + gcs.size()));
        sb.append("*threads\n");
        threads.forEach((id, t) -> sb.append(Long.toUnsignedString(id)).append('\t').append(t.javaThreadId())
                .append('\t').append(t.name()).append('\n'));
        sb.append("*classes\n");
        classes.forEach((id, n) -> sb.append(Long.toUnsignedString(id)).append('\t').append(n).append('\n'));
        sb.append("*methods\n");
        methods.forEach((id, m) -> sb.append(Long.toUnsignedString(id)).append('\t').append(m.className())
                .append('\t').append(m.methodName()).append('\t').append(m.descriptor()).append('\n'));
        sb.append("*gcs\n");
        gcs.forEach((id, g) -> sb.append(Long.toUnsignedString(id)).append('\t').append(g.name()).append('\t')
                .append(g.cause()).append('\t').append(g.startNanos()).append('\t').append(g.durationNanos()).append('\n'));
        if (!fields.isEmpty()) {
            // Only files with reference store records have the section: older files stay byte for byte the same.
            sb.append("*fields\n");
            fields.forEach((id, f) -> sb.append(Long.toUnsignedString(id)).append('\t').append(f.className()).append('\t')
                    .append(f.fieldName()).append('\t').append(f.descriptor()).append('\t').append(f.isStatic() ? 1 : 0).append('\n'));
        }
        if (!classSizes.isEmpty()) {
            sb.append("*classsizes\n");
            classSizes.forEach((id, c) -> sb.append(Long.toUnsignedString(id)).append('\t').append(c.instanceSize()).append('\t')
                    .append(c.elementSize()).append('\t').append(c.alignment()).append('\n'));
        }
        sb.append("*end\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses INFO text. Unknown sections are skipped; lines of a known section with too few
     * fields are an error that names the line.
     */
    public static MtlogInfo decode(byte[] text) throws MtlogFormatException {
        MtlogInfo info = new MtlogInfo();
        String s = new String(text, StandardCharsets.UTF_8);
        String section = null;
        int lineNo = 0;
        int pos = 0;
        while (pos < s.length()) {
            int nl = s.indexOf('\n', pos);
            String line = nl < 0 ? s.substring(pos) : s.substring(pos, nl);
            pos = nl < 0 ? s.length() : nl + 1;
            lineNo++;
            if (line.startsWith("*")) {
                section = line;
                if (section.equals("*end")) {
                    break;
                }
                continue;
            }
            if (line.isEmpty() || section == null) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                switch (section) {
                    case "*threads" -> {
                        need(f, 3, section, lineNo);
                        info.threads.put(Long.parseUnsignedLong(f[0]), new ThreadInfo(Long.parseLong(f[1]), f[2]));
                    }
                    case "*classes" -> {
                        need(f, 2, section, lineNo);
                        info.classes.put(Long.parseUnsignedLong(f[0]), f[1]);
                    }
                    case "*methods" -> {
                        need(f, 4, section, lineNo);
                        info.methods.put(Long.parseUnsignedLong(f[0]), new MethodInfo(f[1], f[2], f[3]));
                    }
                    case "*gcs" -> {
                        need(f, 5, section, lineNo);
                        info.gcs.put(Long.parseUnsignedLong(f[0]),
                                new GcInfo(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4])));
                    }
                    case "*fields" -> {
                        need(f, 5, section, lineNo);
                        info.fields.put(Long.parseUnsignedLong(f[0]), new FieldInfo(f[1], f[2], f[3], "1".equals(f[4])));
                    }
                    case "*classsizes" -> {
                        need(f, 4, section, lineNo);
                        info.classSizes.put(Long.parseUnsignedLong(f[0]),
                                new ClassSize(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3])));
                    }
                    default -> {
                        // an unknown section (a later minor version): skipped by design
                    }
                }
            } catch (NumberFormatException e) {
                throw new MtlogFormatException("INFO line " + lineNo + " in " + section + " has a malformed number: " + e.getMessage());
            }
        }
        return info;
    }

    private static void need(String[] f, int n, String section, int lineNo) throws MtlogFormatException {
        if (f.length < n) {
            throw new MtlogFormatException("INFO line " + lineNo + " in " + section + " has " + f.length + " fields, expected " + n);
        }
    }

    /** A field never contains a TAB or a newline: they become a space. */
    static String clean(String s) {
        Objects.requireNonNull(s);
        return s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0 ? s
                : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MtlogInfo m && threads.equals(m.threads) && classes.equals(m.classes)
                && methods.equals(m.methods) && gcs.equals(m.gcs) && fields.equals(m.fields) && classSizes.equals(m.classSizes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(threads, classes, methods, gcs, fields, classSizes);
    }
}
