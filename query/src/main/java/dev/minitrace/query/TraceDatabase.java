package dev.minitrace.query;

import dev.minitrace.query.parquet.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * An embedded DuckDB (in memory, in this process) on a folder of exported tables: each table of
 * {@link TraceTables} is a view over its Parquet files ({@link TableViews}), with the {@code recording}
 * partition as a column, so {@code SELECT ... FROM calls} works at once. DuckDB's own memory counts towards the
 * process, so it gets a limit, a number of threads and a folder to spill to.
 */
public final class TraceDatabase implements AutoCloseable {
    private final Connection connection;

    private TraceDatabase(Connection connection) {
        this.connection = connection;
    }

    /**
     * Opens DuckDB on {@code folder}.
     *
     * @param memoryBytes DuckDB's {@code memory_limit}
     * @param threads     DuckDB's worker threads
     * @param spillDir    where DuckDB spills what does not fit ({@code temp_directory})
     */
    public static TraceDatabase open(Path folder, long memoryBytes, int threads, Path spillDir) throws SQLException {
        try {
            Class.forName("org.duckdb.DuckDBDriver");
        } catch (ClassNotFoundException e) {
            throw new SQLException("DuckDB's JDBC driver is not on the class path", e);
        }
        Properties p = new Properties();
        // Settings DuckDB must have before it allocates anything.
        p.setProperty("memory_limit", (memoryBytes >> 20) + "MB");
        p.setProperty("threads", Integer.toString(threads));
        p.setProperty("temp_directory", spillDir.toAbsolutePath().toString());
        // The tables are local files, already in the system's page cache: DuckDB's own cache of
        // their blocks filled its memory limit during a mere scan and counted in this process's RSS.
        p.setProperty("enable_external_file_cache", "false");
        // Nothing is ever downloaded: Parquet support is built into the driver.
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        Connection c = DriverManager.getConnection("jdbc:duckdb:", p);
        try (Statement s = c.createStatement()) {
            s.execute("SET enable_progress_bar = false");
            checkLayout(s, folder);
            for (TableSchema t : TraceTables.ALL) {
                s.execute("CREATE VIEW " + t.name() + " AS " + TableViews.select(t, name -> scan(folder, name)));
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new TraceDatabase(c);
    }

    /**
     * Refuses an export of an earlier layout of the tables, whose {@code calls} files hold the
     * derived columns (the method, the depth) and no {@code depth_shift}, or which has no
     * {@code stacks}: the views would fail on it with a binder's error naming a column, not the cause.
     */
    private static void checkLayout(Statement s, Path folder) throws SQLException {
        String again = "an export of an earlier layout of the tables; export the recording again with this version's mt export";
        Path calls = folder.resolve(TraceTables.CALLS.name());
        if (!Files.isDirectory(calls)) {
            return; // no export at all: the views' own error says what is missing
        }
        if (!Files.isDirectory(folder.resolve(TraceTables.STACKS.name()))) {
            throw new SQLException(again + " (it has no stacks table)");
        }
        String glob = calls.toAbsolutePath() + "/*/*.parquet";
        try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT file_name) FILTER (WHERE name = 'depth_shift'), count(DISTINCT file_name)"
                + " FROM parquet_schema(" + literal(glob) + ")")) {
            if (rs.next() && rs.getLong(1) < rs.getLong(2)) {
                throw new SQLException(again + " (" + (rs.getLong(2) - rs.getLong(1)) + " of its calls files have no depth_shift)");
            }
        }
    }

    /** The DuckDB table function that reads table {@code table} of export folder {@code folder}. */
    static String scan(Path folder, String table) {
        String glob = folder.toAbsolutePath().resolve(table).toString() + "/*/*.parquet";
        return "read_parquet(" + literal(glob) + ", hive_partitioning = true, hive_types = {'" + TraceTables.RECORDING_COLUMN
                + "': VARCHAR})";
    }

    /** {@code s} as an SQL string literal. */
    public static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** The connection, with the views. */
    public Connection connection() {
        return connection;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
