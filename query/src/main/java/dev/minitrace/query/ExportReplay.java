package dev.minitrace.query;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.RecordBatch;
import dev.minitrace.converter.write.TraceWriter;
import dev.minitrace.query.export.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Hands the {@code records} of an exported folder to a {@link TraceWriter} as the converter would:
 * each thread's records in their exact order ({@code seq}), thread after thread, then the name
 * tables, so a writer on the converter's pipeline reads an export too. A record's value and aux are
 * rebuilt from its columns (method id, object id, bytecode index); times are the records' own. The
 * folder must hold one recording.
 */
public final class ExportReplay {
    private static final int BATCH = 4096;

    private ExportReplay() {
    }

    /**
     * Replays export folder {@code folder} into {@code writer}, the threads {@code threads} accepts
     * (by thread id, given the name tables) only, with DuckDB limited to {@code memoryBytes}.
     */
    public static void replay(Path folder, TraceWriter writer, ThreadFilter threads, long memoryBytes, Path tempDir)
            throws IOException, SQLException {
        TraceInput.of(folder); // a folder without tables is a one-line failure
        Path work = tempDir == null ? Files.createTempDirectory("mt-replay-") : Files.createTempDirectory(tempDir, "mt-replay-");
        try (TraceDatabase db = TraceDatabase.open(folder, TraceQuery.duckdbBytes(memoryBytes), 1, work)) {
            Connection c = db.connection();
            try (Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT recording) FROM recording")) {
                    rs.next();
                    long n = rs.getLong(1);
                    if (n != 1) {
                        throw new IOException(folder + ": holds " + n + " recordings; a replay reads one (export each into a folder of its own)");
                    }
                }
                MtlogInfo info = info(s);
                LongPredicate wanted = key -> threads.test(key, info);
                RecordBatch b = new RecordBatch(writer, BATCH);
                Map<String, Integer> types = new HashMap<>();
                for (int t = 1; t <= MtlogFormat.MAX_TYPE; t++) {
                    types.put(MtlogFormat.typeName(t), t);
                }
                try (ResultSet rs = s.executeQuery("SELECT thread, kind, time_ns, method_id, object_id, bci, array_length FROM records"
                        + " ORDER BY thread, seq")) {
                    while (rs.next()) {
                        long thread = rs.getLong(1);
                        if (!wanted.test(thread)) {
                            continue;
                        }
                        Integer type = types.get(rs.getString(2));
                        if (type == null) {
                            continue; // a kind of a later version
                        }
                        long time = rs.getLong(3);
                        long value = switch (type) {
                            case MtlogFormat.METHOD_ENTRY, MtlogFormat.METHOD_EXIT, MtlogFormat.EXCEPTION_THROW,
                                    MtlogFormat.EXCEPTION_HANDLED -> rs.getLong(4);
                            case MtlogFormat.ARRAY_LENGTH -> rs.getLong(7);
                            default -> rs.getLong(5);
                        };
                        int aux = rs.getInt(6);
                        b.add(thread, type, time, value, aux);
                    }
                }
                b.flush();
                writer.finish(info);
            }
        } finally {
            Folders.deleteTree(work);
        }
    }

    /** Which threads to replay, asked with a thread's id and the name tables. */
    @FunctionalInterface
    public interface ThreadFilter {
        /** True to replay thread {@code thread}. */
        boolean test(long thread, MtlogInfo info);
    }

    private static MtlogInfo info(Statement s) throws SQLException {
        MtlogInfo info = new MtlogInfo();
        try (ResultSet rs = s.executeQuery("SELECT thread, java_thread_id, name FROM threads")) {
            while (rs.next()) {
                info.putThread(rs.getLong(1), rs.getLong(2), rs.getString(3));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT class_id, name FROM classes")) {
            while (rs.next()) {
                info.putClass(rs.getLong(1), rs.getString(2));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT method_id, class_name, method_name, descriptor FROM methods")) {
            while (rs.next()) {
                info.putMethod(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4));
            }
        }
        return info;
    }
}
