package dev.minitrace.query;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a query result: as an aligned table (numbers to the right, one line per row, the row
 * count last), as CSV (RFC 4180, a header line, null as an empty field) or as JSON lines (one object per
 * row, null as null). The table is laid out from its first {@value #LAYOUT_ROWS} rows, so a long
 * result streams instead of waiting in memory.
 */
public final class ResultPrinter {
    /** The output formats. */
    public enum Format {
        /** An aligned text table. */
        TABLE,
        /** Comma-separated values. */
        CSV,
        /** One JSON object per line. */
        JSON;

        /** The format called {@code name} (table, csv, json). */
        public static Format parse(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "table" -> TABLE;
                case "csv" -> CSV;
                case "json" -> JSON;
                default -> throw new IllegalArgumentException("unknown format '" + name + "' (expected table, csv or json)");
            };
        }
    }

    static final int LAYOUT_ROWS = 10_000;

    private ResultPrinter() {
    }

    /** Prints every row of {@code rs} to {@code out} in {@code format}; returns the number of rows. */
    public static long print(ResultSet rs, Format format, PrintWriter out) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        String[] names = new String[n];
        boolean[] numeric = new boolean[n];
        for (int c = 0; c < n; c++) {
            names[c] = meta.getColumnLabel(c + 1);
            numeric[c] = isNumeric(meta.getColumnType(c + 1));
        }
        return switch (format) {
            case TABLE -> table(rs, names, numeric, out);
            case CSV -> csv(rs, names, out);
            case JSON -> json(rs, names, numeric, out);
        };
    }

    private static boolean isNumeric(int sqlType) {
        return switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE, Types.DECIMAL,
                Types.NUMERIC -> true;
            default -> false;
        };
    }

    /** A value as text: numbers without exponents, null as null. */
    static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? d.toString() : BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Float f) {
            return text(f.doubleValue());
        }
        if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        if (v instanceof java.sql.Blob b) {
            return blob(b);
        }
        return v.toString();
    }

    /** A BLOB as DuckDB's own shell writes it: printable ASCII as is, every other byte (and the backslash) as {@code \xHH}. */
    private static String blob(java.sql.Blob blob) {
        byte[] bytes;
        try {
            bytes = blob.getBytes(1, Math.toIntExact(blob.length()));
        } catch (SQLException e) {
            throw new IllegalStateException("a BLOB value could not be read: " + e.getMessage(), e);
        }
        StringBuilder b = new StringBuilder(bytes.length);
        for (byte x : bytes) {
            int u = x & 0xFF;
            if (u >= 0x20 && u < 0x7F && u != '\\') {
                b.append((char) u);
            } else {
                b.append(String.format(Locale.ROOT, "\\x%02X", u));
            }
        }
        return b.toString();
    }

    private static String[] row(ResultSet rs, int n) throws SQLException {
        String[] r = new String[n];
        for (int c = 0; c < n; c++) {
            r[c] = text(rs.getObject(c + 1));
        }
        return r;
    }

    /** A row for the table: line breaks and tabs written as {@code \n}, {@code \r}, {@code \t}, so a row stays one line. */
    private static String[] tableRow(ResultSet rs, int n) throws SQLException {
        String[] r = row(rs, n);
        for (int c = 0; c < n; c++) {
            String v = r[c];
            if (v != null && (v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0 || v.indexOf('\t') >= 0)) {
                r[c] = v.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
            }
        }
        return r;
    }

    private static long table(ResultSet rs, String[] names, boolean[] numeric, PrintWriter out) throws SQLException {
        int n = names.length;
        List<String[]> first = new ArrayList<>();
        boolean more = false;
        while (rs.next()) {
            first.add(tableRow(rs, n));
            if (first.size() == LAYOUT_ROWS) {
                more = true;
                break;
            }
        }
        int[] width = new int[n];
        for (int c = 0; c < n; c++) {
            width[c] = names[c].length();
            for (String[] r : first) {
                width[c] = Math.max(width[c], r[c] == null ? 4 : r[c].length());
            }
        }
        line(names, numeric, width, out);
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < n; c++) {
            rule.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        }
        out.println(rule);
        long rows = 0;
        for (String[] r : first) {
            line(r, numeric, width, out);
            rows++;
        }
        first.clear();
        while (more && rs.next()) {
            line(tableRow(rs, n), numeric, width, out);
            rows++;
        }
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
        return rows;
    }

    private static void line(String[] r, boolean[] numeric, int[] width, PrintWriter out) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < r.length; c++) {
            String v = r[c] == null ? "null" : r[c];
            if (c > 0) {
                b.append("  ");
            }
            int pad = Math.max(0, width[c] - v.length());
            if (numeric[c]) {
                b.append(" ".repeat(pad)).append(v);
            } else {
                b.append(v);
                if (c < r.length - 1) {
                    b.append(" ".repeat(pad));
                }
            }
        }
        out.println(b);
    }

    private static long csv(ResultSet rs, String[] names, PrintWriter out) throws SQLException {
        out.println(csvLine(names));
        long rows = 0;
        while (rs.next()) {
            out.println(csvLine(row(rs, names.length)));
            rows++;
        }
        return rows;
    }

    private static String csvLine(String[] r) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < r.length; c++) {
            if (c > 0) {
                b.append(',');
            }
            String v = r[c];
            if (v == null) {
                continue;
            }
            if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                b.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                b.append(v);
            }
        }
        return b.toString();
    }

    private static long json(ResultSet rs, String[] names, boolean[] numeric, PrintWriter out) throws SQLException {
        long rows = 0;
        while (rs.next()) {
            StringBuilder b = new StringBuilder("{");
            for (int c = 0; c < names.length; c++) {
                if (c > 0) {
                    b.append(',');
                }
                jsonString(names[c], b);
                b.append(':');
                Object v = rs.getObject(c + 1);
                String t = text(v);
                if (t == null || (v instanceof Double d && (d.isNaN() || d.isInfinite()))) {
                    b.append("null");
                } else if (numeric[c] || v instanceof Boolean) {
                    b.append(t);
                } else {
                    jsonString(t, b);
                }
            }
            out.println(b.append('}'));
            rows++;
        }
        return rows;
    }

    private static void jsonString(String s, StringBuilder b) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }
}
