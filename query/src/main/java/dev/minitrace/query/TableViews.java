package dev.minitrace.query;

import dev.minitrace.query.parquet.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The SQL of each table's view over its files, as docs/query.md documents the table: the stored
 * columns as they are, each derived column computed from its row ({@link TableSchema#derived}),
 * and the {@code recording} partition column last. The files of {@code calls} hold no method,
 * caller's path or depth, which are the call's path's: its view joins each call to its path's row
 * of {@code stacks}. The files of {@code records} hold no method entries and exits, which are
 * {@code calls}' rows already: its view adds an entry row per call with an entry and an exit row
 * per call with an exit, made from the {@code calls} view. Plain SQL that DuckDB and Spark SQL
 * both run.
 */
public final class TableViews {
    private TableViews() {
    }

    /**
     * The view of {@code table}: a {@code SELECT} over {@code files}, which gives for a table's name
     * the SQL relation of its files (a table function or a registered name).
     */
    public static String select(TableSchema table, Function<String, String> files) {
        boolean joined = table == TraceTables.CALLS;
        // the stored columns that stacks has too (stack_id, self_ns, recording) need the files' alias
        String stored = joined ? TraceTables.CALL + "." : "";
        List<String> columns = new ArrayList<>();
        for (TableSchema.Column c : table.shown()) {
            columns.add(c.isStored() ? stored + c.name() : column(table, c.name()) + " AS " + c.name());
        }
        columns.add(stored + TraceTables.RECORDING_COLUMN);
        String from = files.apply(table.name());
        if (joined) {
            String c = TraceTables.CALL;
            String p = TraceTables.PATH;
            from += " " + c + " JOIN " + files.apply(TraceTables.STACKS.name()) + " " + p + " ON " + p + "." + TraceTables.RECORDING_COLUMN
                    + " = " + c + "." + TraceTables.RECORDING_COLUMN + " AND " + p + ".stack_id = " + c + ".stack_id";
        }
        String rows = "SELECT " + String.join(", ", columns) + " FROM " + from;
        if (table != TraceTables.RECORDS) {
            return rows;
        }
        String calls = "(" + select(TraceTables.CALLS, files) + ") " + TraceTables.CALLS.name();
        return rows
                + "\nUNION ALL\n" + methodRecords(calls, "call_seq", "'METHOD_ENTRY'", "entry_ns", "entry_fragment", "CAST(NULL AS INTEGER)")
                + "\nUNION ALL\n" + methodRecords(calls, "exit_seq", "'METHOD_EXIT'", "exit_ns", "exit_fragment", "exit_bci");
    }

    /** Column {@code name} of {@code table} in SQL over its files: its name, or the expression that derives it. */
    private static String column(TableSchema table, String name) {
        TableSchema.Column c = table.columns().get(table.index(name));
        return c.isStored() ? name : "(" + c.derived() + ")";
    }

    /** The records of one side of the calls (entry or exit), in the columns of {@code records}, from the {@code calls} view {@code calls}. */
    private static String methodRecords(String calls, String seq, String kind, String time, String fragment, String bci) {
        return "SELECT thread, " + seq + " AS seq, " + kind + " AS kind, " + time + " AS time_ns, " + fragment + " AS fragment, method_id, "
                + "call_seq, CAST(NULL AS BIGINT) AS class_id, CAST(NULL AS BIGINT) AS field_id, "
                + bci + " AS bci, CAST(NULL AS BIGINT) AS object_id, CAST(NULL AS INTEGER) AS array_index, "
                + "CAST(NULL AS INTEGER) AS array_length, " + TraceTables.RECORDING_COLUMN + " FROM " + calls + " WHERE " + seq + " IS NOT NULL";
    }
}
