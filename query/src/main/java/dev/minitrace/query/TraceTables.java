package dev.minitrace.query;

import static dev.minitrace.query.parquet.TableSchema.Kind.BOOLEAN;
import static dev.minitrace.query.parquet.TableSchema.Kind.INT;
import static dev.minitrace.query.parquet.TableSchema.Kind.LONG;
import static dev.minitrace.query.parquet.TableSchema.Kind.STRING;
import static dev.minitrace.query.parquet.TableSchema.derived;
import static dev.minitrace.query.parquet.TableSchema.hidden;
import static dev.minitrace.query.parquet.TableSchema.optional;
import static dev.minitrace.query.parquet.TableSchema.Encoding.DELTA;
import static dev.minitrace.query.parquet.TableSchema.Encoding.DICTIONARY;
import static dev.minitrace.query.parquet.TableSchema.Encoding.PLAIN;
import static dev.minitrace.query.parquet.TableSchema.Encoding.REPEATS;
import static dev.minitrace.query.parquet.TableSchema.required;

import dev.minitrace.query.parquet.TableSchema;
import java.util.List;

/**
 * The tables of an exported trace and their columns: the stable schema that {@code docs/query.md}
 * documents column by column (a test holds the two together). Every table lies in its folder,
 * partitioned by recording ({@code <table>/recording=<id>/part-<n>.parquet}), so the exports of many
 * JVMs can share one folder and every engine that reads Hive-style partitions sees a
 * {@code recording} column. Times are ns since the epoch, durations ns; ids are the {@code .mtlog}
 * ids ({@code docs/mtlog-format.md}).
 */
public final class TraceTables {
    private TraceTables() {
    }

    /**
     * A call's entry seq: {@code exit_seq - call_span}, or, for a call without exit,
     * {@code open_call_seq}; null for a call without entry. The steps are stored as INT32, which
     * compresses to half of INT64's size; a step too large for it is in its {@code _far} column.
     */
    private static final String CALL_SEQ = "coalesce(exit_seq - coalesce(call_span, call_span_far), open_call_seq)";

    /** A class id from an object id (the class id is its high 32 bits; null for null). */
    private static final String CLASS_OF_OBJECT = "object_id >> 32";

    /**
     * One row per record, in each thread's order. The files hold every record but method entries
     * and exits: the view makes those rows from {@link #CALLS} ({@link TableViews}).
     */
    public static final TableSchema RECORDS = new TableSchema("records", List.of(
            required("thread", LONG),
            required("seq", LONG, DELTA),
            required("kind", STRING),
            optional("time_ns", LONG),
            optional("fragment", LONG),
            optional("method_id", LONG),
            optional("call_seq", LONG, DELTA),
            derived("class_id", LONG, CLASS_OF_OBJECT),
            optional("field_id", LONG),
            optional("bci", INT, REPEATS),
            optional("object_id", LONG, PLAIN),
            optional("array_index", INT),
            optional("array_length", INT)));

    /**
     * The alias of the {@code calls} files in the {@code calls} view, which joins each call to its
     * path's row of {@code stacks} ({@link #PATH}) by {@code stack_id}.
     */
    public static final String CALL = "c";
    /** The alias of the {@code stacks} files in the {@code calls} view. */
    public static final String PATH = "p";

    /**
     * One row per call: a method's entry and its exit. The method, the caller's path and the depth
     * are the path's ({@link #STACKS}, one row per {@code stack_id}), which the view joins.
     */
    public static final TableSchema CALLS = new TableSchema("calls", List.of(
            required("thread", LONG),
            derived("call_seq", LONG, CALL_SEQ),
            optional("exit_seq", LONG, DELTA),
            derived("parent_seq", LONG, "coalesce(" + CALL_SEQ + ", exit_seq) - coalesce(parent_gap, parent_gap_far)"),
            // the path's depth, shifted below 0 in a thread after exits without entry (docs/query.md)
            derived("depth", INT, PATH + ".depth + depth_shift"),
            derived("method_id", LONG, PATH + ".method_id"),
            required("stack_id", LONG, REPEATS),
            derived("parent_stack_id", LONG, PATH + ".parent_stack_id"),
            optional("entry_ns", LONG),
            derived("exit_ns", LONG, "coalesce(entry_ns + duration_ns, lone_exit_ns)"),
            // stored, with a min and max per page and row group: the calls of at least
            // LONG_CALL_NS lie in a file of their own, whose row groups alone a filter on a longer
            // duration reads (docs/query.md, "Files")
            optional("duration_ns", LONG),
            optional("self_ns", LONG),
            optional("exit_bci", INT, REPEATS),
            // the .mtlog marks an exit by exception with bytecode index 0 (docs/mtlog-format.md)
            derived("exceptional", BOOLEAN, "exit_bci = 0"),
            optional("entry_fragment", LONG),
            optional("exit_fragment", LONG),
            // Rows come as calls end, so their entries' and callers' seq jump back and forth; these
            // small steps from the exit, delta-packed, stand for them (docs/query.md, "Files")
            hidden("call_span", INT, REPEATS),
            hidden("call_span_far", LONG, DELTA),
            hidden("open_call_seq", LONG, DELTA),
            hidden("parent_gap", INT, REPEATS),
            hidden("parent_gap_far", LONG, DELTA),
            hidden("depth_shift", INT, DICTIONARY),
            // the exit's time of a call whose duration is unknown (no entry, or no entry time)
            hidden("lone_exit_ns", LONG, DELTA)));

    /**
     * The calls that lasted this long or longer are written to a file of {@code calls} of their own
     * ({@code part-1}): a question about calls longer than that (slow calls) reads its row groups
     * only, the others' statistics saying that their calls are all shorter.
     */
    public static final long LONG_CALL_NS = 100_000;

    /** The calls summed per call path: one row per path, which the export writes at its end. */
    public static final TableSchema STACKS = new TableSchema("stacks", List.of(
            // written in the order of the ids: steps of about 2^64 / paths, delta-packed
            required("stack_id", LONG, DELTA),
            optional("parent_stack_id", LONG, PLAIN),
            required("method_id", LONG),
            required("depth", INT),
            required("calls", LONG),
            optional("total_ns", LONG),
            optional("self_ns", LONG),
            optional("max_ns", LONG)));

    /** One row per monitor hold: an acquire and its release. */
    public static final TableSchema LOCKS = new TableSchema("locks", List.of(
            required("thread", LONG),
            optional("acquire_seq", LONG, DELTA),
            optional("release_seq", LONG, DELTA),
            required("object_id", LONG),
            derived("class_id", LONG, CLASS_OF_OBJECT),
            optional("method_id", LONG),
            optional("call_seq", LONG),
            optional("acquire_bci", INT),
            optional("release_bci", INT),
            optional("acquire_ns", LONG),
            optional("release_ns", LONG),
            derived("hold_ns", LONG, "release_ns - acquire_ns")));

    /** The traced threads. */
    public static final TableSchema THREADS = new TableSchema("threads", List.of(
            required("thread", LONG),
            optional("java_thread_id", LONG),
            required("name", STRING)));

    /** The classes of the objects that locks and allocations name. */
    public static final TableSchema CLASSES = new TableSchema("classes", List.of(
            required("class_id", LONG),
            required("name", STRING)));

    /** The traced methods. */
    public static final TableSchema METHODS = new TableSchema("methods", List.of(
            required("method_id", LONG),
            required("class_name", STRING),
            required("method_name", STRING),
            required("descriptor", STRING)));

    /** The garbage collections of the recording. */
    public static final TableSchema GCS = new TableSchema("gcs", List.of(
            required("gc_id", LONG),
            optional("name", STRING),
            optional("cause", STRING),
            required("start_ns", LONG),
            optional("duration_ns", LONG),
            optional("point_ns", LONG)));

    /** The fields that reference store records name. */
    public static final TableSchema FIELDS = new TableSchema("fields", List.of(
            required("field_id", LONG),
            required("class_name", STRING),
            required("field_name", STRING),
            required("descriptor", STRING),
            required("is_static", BOOLEAN)));

    /** One row: the recording the other tables come from. */
    public static final TableSchema RECORDING = new TableSchema("recording", List.of(
            required("source", STRING),
            required("format", STRING),
            optional("start_ns", LONG),
            optional("end_ns", LONG),
            optional("host", STRING),
            optional("pid", LONG),
            optional("jvm_name", STRING),
            optional("jvm_version", STRING),
            optional("jvm_arguments", STRING),
            optional("java_arguments", STRING),
            optional("jvm_start_ns", LONG),
            optional("young_collector", STRING),
            optional("old_collector", STRING),
            required("records", LONG),
            required("calls", LONG),
            required("locks", LONG),
            required("threads", LONG)));

    /** Every table, in the order the docs list them. */
    public static final List<TableSchema> ALL = List.of(RECORDS, CALLS, STACKS, LOCKS, THREADS, CLASSES, METHODS, GCS, FIELDS, RECORDING);

    /** The partition column every table has. */
    public static final String RECORDING_COLUMN = "recording";
}
