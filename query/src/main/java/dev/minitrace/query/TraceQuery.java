package dev.minitrace.query;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.query.export.Folders;
import dev.minitrace.query.export.TraceExporter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * SQL on a trace in this process: an exported folder is queried where it is; a JFR recording or an
 * {@code .mtlog} is exported first into a temporary folder, removed on {@link #close}. DuckDB's
 * memory limit is what {@code memoryBytes} leaves beside what the process already holds and a
 * reserve, so the whole process stays within it.
 */
public final class TraceQuery implements AutoCloseable {
    /**
     * Kept beside DuckDB's limit and what the process holds when DuckDB starts: the heap the query's
     * own Java work touches, DuckDB's code as it pages in and its allocations outside its buffer pool.
     */
    static final long RESERVE_BYTES = 128L << 20;
    /** DuckDB gets at least this much, however little is left. */
    static final long MIN_DUCKDB_BYTES = 64L << 20;

    private final Path work;
    private final TraceExporter.Result exported;
    private final TraceDatabase db;

    private TraceQuery(Path work, TraceExporter.Result exported, TraceDatabase db) {
        this.work = work;
        this.exported = exported;
        this.db = db;
    }

    /**
     * Opens {@code trace} for queries.
     *
     * @param memoryBytes what the whole process may use
     * @param tempDir     where the temporary export and DuckDB's spill files go (null: the system's temporary folder)
     * @param host        the host recorded for a trace exported on the fly
     */
    public static TraceQuery open(Path trace, long memoryBytes, Path tempDir, String host) throws IOException, SQLException {
        TraceInput kind = TraceInput.of(trace);
        Path work = tempDir == null ? Files.createTempDirectory("mt-query-") : Files.createTempDirectory(tempDir, "mt-query-");
        try {
            Path folder = trace;
            TraceExporter.Result exported = null;
            if (kind != TraceInput.EXPORT) {
                folder = work.resolve("tables");
                exported = TraceExporter.export(trace, folder, ConvertOptions.defaults(), host, work, null);
                // The export's heap is garbage now; a full collection lets the serial collector give
                // it back to the system before DuckDB takes its share of the same memory.
                System.gc();
            }
            Path spill = Files.createDirectories(work.resolve("duckdb"));
            TraceDatabase db = TraceDatabase.open(folder, duckdbBytes(memoryBytes), Runtime.getRuntime().availableProcessors(), spill);
            return new TraceQuery(work, exported, db);
        } catch (IOException | SQLException | RuntimeException e) {
            Folders.deleteTree(work);
            throw e;
        }
    }

    /** DuckDB's memory limit: what {@code memoryBytes} leaves beside the process's resident memory and {@link #RESERVE_BYTES}. */
    static long duckdbBytes(long memoryBytes) {
        return Math.max(MIN_DUCKDB_BYTES, memoryBytes - residentBytes() - RESERVE_BYTES);
    }

    /**
     * The memory this process holds: Linux's resident set size; elsewhere the committed heap and
     * 64 MB for the JVM's own (an over-estimate of the heap's share, which is only touched as used).
     */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) << 10;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the estimate below
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() + (64L << 20);
    }

    /** What exporting the trace found, or null when the trace was an exported folder. */
    public TraceExporter.Result exported() {
        return exported;
    }

    /** Runs {@code sql} (the last statement's result is printed) and prints the result; returns its rows. */
    public long run(String sql, ResultPrinter.Format format, PrintWriter out) throws SQLException {
        try (Statement s = db.connection().createStatement()) {
            if (!s.execute(sql)) {
                return 0;
            }
            try (ResultSet rs = s.getResultSet()) {
                long rows = ResultPrinter.print(rs, format, out);
                out.flush();
                return rows;
            }
        }
    }

    @Override
    public void close() throws IOException, SQLException {
        try {
            db.close();
        } finally {
            Folders.deleteTree(work);
        }
    }
}
