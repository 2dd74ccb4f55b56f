package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;
import java.nio.file.Path;

/** What both {@code .mtlog} layouts share: the file, its INFO and END at the finish, removal of an unfinished file on close. */
abstract class MtlogLayout implements TraceWriter {
    final MtlogWriter out;

    MtlogLayout(Path target, int layoutFlags, long startNanos) throws IOException {
        this.out = new MtlogWriter(target, layoutFlags, startNanos);
    }

    @Override
    public final void finish(MtlogInfo tables) throws IOException {
        out.finish(tables);
    }

    @Override
    public final void close() throws IOException {
        out.close();
    }
}
