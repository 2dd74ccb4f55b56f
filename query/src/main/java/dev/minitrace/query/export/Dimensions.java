package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes the small tables of an export: the names of the ids ({@link MtlogInfo}) and the {@code recording} row. */
final class Dimensions {
    private Dimensions() {
    }

    /** {@code threads}, {@code classes}, {@code methods}, {@code gcs} (with each GC's fragment point) and {@code fields}. */
    static void write(Path dir, MtlogInfo info, Map<Long, Long> gcPoints, Map<String, String> meta) throws IOException {
        TableSchema s = TraceTables.THREADS;
        try (TableWriter w = open(dir, s, meta)) {
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> e : info.threads().entrySet()) {
                int r = w.next();
                w.longs[s.index("thread")][r] = e.getKey();
                long javaId = e.getValue().javaThreadId();
                w.longs[s.index("java_thread_id")][r] = javaId < 0 ? NULL_LONG : javaId;
                w.string(r, s.index("name"), e.getValue().name());
            }
        }
        s = TraceTables.CLASSES;
        try (TableWriter w = open(dir, s, meta)) {
            for (Map.Entry<Long, String> e : info.classes().entrySet()) {
                int r = w.next();
                w.longs[s.index("class_id")][r] = e.getKey();
                w.string(r, s.index("name"), e.getValue());
            }
        }
        s = TraceTables.METHODS;
        try (TableWriter w = open(dir, s, meta)) {
            for (Map.Entry<Long, MtlogInfo.MethodInfo> e : info.methods().entrySet()) {
                int r = w.next();
                w.longs[s.index("method_id")][r] = e.getKey();
                w.string(r, s.index("class_name"), e.getValue().className());
                w.string(r, s.index("method_name"), e.getValue().methodName());
                w.string(r, s.index("descriptor"), e.getValue().descriptor());
            }
        }
        s = TraceTables.GCS;
        try (TableWriter w = open(dir, s, meta)) {
            for (Map.Entry<Long, MtlogInfo.GcInfo> e : info.gcs().entrySet()) {
                MtlogInfo.GcInfo g = e.getValue();
                int r = w.next();
                w.longs[s.index("gc_id")][r] = e.getKey();
                // '?' is how the .mtlog INFO writes a GC known only by its pauses
                w.string(r, s.index("name"), "?".equals(g.name()) ? null : g.name());
                w.string(r, s.index("cause"), "?".equals(g.cause()) ? null : g.cause());
                w.longs[s.index("start_ns")][r] = g.startNanos();
                w.longs[s.index("duration_ns")][r] = g.durationNanos() < 0 ? NULL_LONG : g.durationNanos();
                w.longs[s.index("point_ns")][r] = gcPoints.getOrDefault(e.getKey(), NULL_LONG);
            }
        }
        s = TraceTables.FIELDS;
        try (TableWriter w = open(dir, s, meta)) {
            for (Map.Entry<Long, MtlogInfo.FieldInfo> e : info.fields().entrySet()) {
                MtlogInfo.FieldInfo f = e.getValue();
                int r = w.next();
                w.longs[s.index("field_id")][r] = e.getKey();
                w.string(r, s.index("class_name"), f.className());
                w.string(r, s.index("field_name"), f.fieldName());
                w.string(r, s.index("descriptor"), f.descriptor());
                w.bytes[s.index("is_static")][r] = (byte) (f.isStatic() ? 1 : 0);
            }
        }
    }

    /** The {@code recording} table's one row. */
    static void recording(Path dir, RecordingFacts f, long endNanos, long records, long calls, long locks, long threads,
            Map<String, String> meta) throws IOException {
        TableSchema s = TraceTables.RECORDING;
        try (TableWriter w = open(dir, s, meta)) {
            int r = w.next();
            w.string(r, s.index("source"), f.source());
            w.string(r, s.index("format"), f.format());
            w.longs[s.index("start_ns")][r] = f.startNanos();
            w.longs[s.index("end_ns")][r] = endNanos;
            w.string(r, s.index("host"), f.host());
            w.longs[s.index("pid")][r] = f.pid() < 0 ? NULL_LONG : f.pid();
            w.string(r, s.index("jvm_name"), f.jvmName());
            w.string(r, s.index("jvm_version"), f.jvmVersion());
            w.string(r, s.index("jvm_arguments"), f.jvmArguments());
            w.string(r, s.index("java_arguments"), f.javaArguments());
            w.longs[s.index("jvm_start_ns")][r] = f.jvmStartNanos() < 0 ? NULL_LONG : f.jvmStartNanos();
            w.string(r, s.index("young_collector"), f.youngCollector());
            w.string(r, s.index("old_collector"), f.oldCollector());
            w.longs[s.index("records")][r] = records;
            w.longs[s.index("calls")][r] = calls;
            w.longs[s.index("locks")][r] = locks;
            w.longs[s.index("threads")][r] = threads;
        }
    }

    private static TableWriter open(Path dir, TableSchema table, Map<String, String> meta) throws IOException {
        Path d = dir.resolve(table.name());
        Files.createDirectories(d);
        Map<String, String> m = new java.util.HashMap<>(meta);
        m.put("minitrace.table", table.name());
        return new TableWriter(table, d, 1, ParquetExport.ROW_GROUP_ROWS, ParquetExport.ROW_GROUP_BYTES, m);
    }
}
