package dev.minitrace.query;

import dev.minitrace.query.export.Folders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads exported tables back through DuckDB for assertions: each row as its values joined by '|', null as "null". */
public final class Rows {
    private Rows() {
    }

    /** The rows {@code sql} gives on the export in {@code folder}. */
    public static List<String> of(Path folder, String sql) throws Exception {
        Path spill = Files.createTempDirectory("rows-spill");
        try (TraceDatabase db = TraceDatabase.open(folder, 256L << 20, 2, spill);
                Statement s = db.connection().createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return read(rs);
        } finally {
            Folders.deleteTree(spill);
        }
    }

    static List<String> read(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (int c = 1; c <= n; c++) {
                if (c > 1) {
                    b.append('|');
                }
                b.append(ResultPrinter.text(rs.getObject(c)));
            }
            rows.add(b.toString());
        }
        return rows;
    }
}
