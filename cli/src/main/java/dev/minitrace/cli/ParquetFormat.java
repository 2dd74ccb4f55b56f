package dev.minitrace.cli;

import dev.minitrace.query.TraceTables;
import dev.minitrace.query.export.TraceExporter;
import java.io.IOException;

/** {@code mt export --format parquet IN OUTDIR}: the trace's tables in Parquet (docs/query.md). */
final class ParquetFormat implements ExportFormat {
    @Override
    public String description() {
        return "parquet: the tables of docs/query.md (records, calls, locks, threads, classes, methods, gcs, fields, recording), "
                + "zstd, in folder OUT, partitioned by recording; IN is a .jfr or an .mtlog";
    }

    @Override
    public boolean acceptsLog() {
        return true;
    }

    @Override
    public boolean writesFolder() {
        return true;
    }

    @Override
    public int export(Request r) throws IOException {
        TraceExporter.Result result = TraceExporter.export(r.in(), r.out(), r.conversion(), r.host(), r.tempDir(), r.progress());
        for (String w : result.warnings()) {
            r.stderr().println("export: warning: " + w);
        }
        long[] rows = result.rows();
        r.stdout().printf("%s: %d tables, recording=%s: %d records, %d calls, %d lock holds%n", r.out(), TraceTables.ALL.size(),
                result.recordingId(), rows[0], rows[1], rows[2]);
        return result.lostData() ? ExitCodes.PARTIAL : ExitCodes.OK;
    }
}
