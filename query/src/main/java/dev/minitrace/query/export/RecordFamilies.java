package dev.minitrace.query.export;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The {@code records} files written as one writer per family of kinds (locks, allocations, the
 * heap records; method entries and exits are {@code calls}' rows), each into a file of its own, so
 * that every row group holds one family and its {@code kind} statistics say so: a query for
 * allocations skips the lock records' row groups without reading them (docs/query.md, "Files"). A
 * family's file exists only if the trace has its records; a trace with none of them has an empty
 * {@code part-0}, so that every export has the table's files.
 */
final class RecordFamilies {
    private static final int LOCKS = 0;
    private static final int ALLOCATIONS = 1;
    private static final int HEAP = 2;
    private static final String[] NAMES = {"locks", "allocations", "heap"};
    /** Row group bytes of each family: its rows are fewer than the calls', and each family holds a row group's buffers. */
    static final long SMALL_ROW_GROUP_BYTES = ParquetExport.ROW_GROUP_BYTES / 2;

    private static final int[] FAMILY = new int[MtlogFormat.MAX_TYPE + 1];

    static {
        Arrays.fill(FAMILY, HEAP);
        FAMILY[MtlogFormat.METHOD_ENTRY] = -1;
        FAMILY[MtlogFormat.METHOD_EXIT] = -1;
        FAMILY[MtlogFormat.LOCK_ACQUIRE] = LOCKS;
        FAMILY[MtlogFormat.LOCK_RELEASE] = LOCKS;
        FAMILY[MtlogFormat.OBJECT_ALLOC] = ALLOCATIONS;
        FAMILY[MtlogFormat.ARRAY_LENGTH] = ALLOCATIONS;
        FAMILY[MtlogFormat.ALLOC_SITE] = ALLOCATIONS;
    }

    private final Path dir;
    private final Map<String, String> metadata;
    private final TableWriter[] families = new TableWriter[NAMES.length];
    /** By record type, the family's writer once open: one array read per record. */
    private final TableWriter[] byType = new TableWriter[MtlogFormat.MAX_TYPE + 1];

    RecordFamilies(Path dir, Map<String, String> metadata) {
        this.dir = dir;
        this.metadata = metadata;
    }

    /** The heap the families' files may hold at once: their row groups' pages. */
    static long heapBytes() {
        return NAMES.length * (SMALL_ROW_GROUP_BYTES + TableWriter.repeatBytes(ThreadTrace.RECORDS));
    }

    /** The writer of records of {@code type}. */
    TableWriter writer(byte type) throws IOException {
        TableWriter w = byType[type];
        return w != null ? w : open(type);
    }

    private TableWriter open(int type) throws IOException {
        int f = FAMILY[type];
        if (f < 0) {
            throw new IllegalArgumentException(MtlogFormat.typeName(type) + " records are calls' rows");
        }
        if (families[f] == null) {
            TableWriter w = new TableWriter(ThreadTrace.RECORDS, dir, f, 1, ParquetExport.ROW_GROUP_ROWS, SMALL_ROW_GROUP_BYTES,
                    metadata).background("minitrace-export-records-" + NAMES[f]);
            w.codes(ThreadTrace.RECORDS.index("kind"), ThreadTrace.KINDS);
            // a trace's families interleave record by record: each writer's rows go through its small slice
            w.staged();
            families[f] = w;
        }
        byType[type] = families[f];
        return families[f];
    }

    /** Rows written to every family. */
    long rows() {
        long n = 0;
        for (TableWriter w : families) {
            if (w != null) {
                n += w.rows();
            }
        }
        return n;
    }

    /** Completes every family's files. */
    void close() throws IOException {
        if (Arrays.stream(families).allMatch(w -> w == null)) {
            open(MtlogFormat.LOCK_ACQUIRE);
        }
        IOException failed = null;
        for (TableWriter w : families) {
            if (w != null) {
                try {
                    w.close();
                } catch (IOException e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Stops every family without completing its files. */
    void abandon() {
        for (TableWriter w : families) {
            if (w != null) {
                w.abandon();
            }
        }
    }
}
