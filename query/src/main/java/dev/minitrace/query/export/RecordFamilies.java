package dev.minitrace.query.export;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The {@code records} table written as one writer per family of kinds (methods, locks,
 * allocations, the heap records), each into files of its own, so that every row group holds one
 * family and its {@code kind} statistics say so: a query for allocations skips the method records'
 * row groups, most of a trace, without reading them (docs/query.md, "Files"). A family's files
 * exist only if the trace has its records.
 */
final class RecordFamilies {
    private static final int METHODS = 0;
    private static final int LOCKS = 1;
    private static final int ALLOCATIONS = 2;
    private static final int HEAP = 3;
    private static final String[] NAMES = {"methods", "locks", "allocations", "heap"};
    /**
     * Files per family, numbered after the families before it: method records, most of any trace,
     * encode on two threads; part numbers stay the same whichever families a trace has.
     */
    private static final int[] PARTS = {2, 1, 1, 1};
    /** Row group bytes of the families other than methods: their rows are fewer, and each family holds a row group's buffers. */
    static final long SMALL_ROW_GROUP_BYTES = ParquetExport.ROW_GROUP_BYTES / 2;

    private static final int[] FAMILY = new int[MtlogFormat.MAX_TYPE + 1];

    static {
        Arrays.fill(FAMILY, HEAP);
        FAMILY[MtlogFormat.METHOD_ENTRY] = METHODS;
        FAMILY[MtlogFormat.METHOD_EXIT] = METHODS;
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
        return PARTS[METHODS] * ParquetExport.ROW_GROUP_BYTES + (NAMES.length - 1) * SMALL_ROW_GROUP_BYTES
                + Arrays.stream(PARTS).sum() * TableWriter.repeatBytes(TraceTables.RECORDS);
    }

    /** The writer of records of {@code type}. */
    TableWriter writer(byte type) throws IOException {
        TableWriter w = byType[type];
        return w != null ? w : open(type);
    }

    private TableWriter open(int type) throws IOException {
        int f = FAMILY[type];
        if (families[f] == null) {
            int first = 0;
            for (int k = 0; k < f; k++) {
                first += PARTS[k];
            }
            long groupBytes = f == METHODS ? ParquetExport.ROW_GROUP_BYTES : SMALL_ROW_GROUP_BYTES;
            TableWriter w = new TableWriter(TraceTables.RECORDS, dir, first, PARTS[f], ParquetExport.ROW_GROUP_ROWS, groupBytes,
                    metadata).background("minitrace-export-records-" + NAMES[f]);
            w.codes(TraceTables.RECORDS.index("kind"), ThreadTrace.KINDS);
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
