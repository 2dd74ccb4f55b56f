package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The three output formats on a result with numbers, text that needs quoting and nulls. */
class ResultPrinterTest {
    private static final String SQL = "SELECT * FROM (VALUES (1, 'plain', 2.5::DOUBLE), (22, 'a, \"quoted\"\nline', NULL), "
            + "(NULL, NULL, 12345678.125::DOUBLE)) t(n, text, x)";

    private static String print(ResultPrinter.Format f) throws Exception {
        StringWriter out = new StringWriter();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SQL); PrintWriter w = new PrintWriter(out)) {
            ResultPrinter.print(rs, f, w);
        }
        return out.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void blobsAreWrittenAsDuckDbWritesThem() throws Exception {
        StringWriter out = new StringWriter();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 'minitrace.table'::BLOB AS k, from_hex('00AB5C41') AS v"); PrintWriter w = new PrintWriter(out)) {
            ResultPrinter.print(rs, ResultPrinter.Format.CSV, w);
        }
        assertEquals("k,v\nminitrace.table,\\x00\\xAB\\x5CA\n", out.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void tableAlignsNumbersRightAndCountsRows() throws Exception {
        assertEquals(String.join("\n",
                "   n  text                          x",
                "----  -----------------  ------------",
                "   1  plain                       2.5",
                "  22  a, \"quoted\"\\nline          null",
                "null  null               12345678.125",
                "(3 rows)", ""), print(ResultPrinter.Format.TABLE), "a line break in a value is written \\n");
    }

    @Test
    void csvQuotesWhatNeedsItAndLeavesNullEmpty() throws Exception {
        assertEquals("n,text,x\n1,plain,2.5\n22,\"a, \"\"quoted\"\"\nline\",\n,,12345678.125\n", print(ResultPrinter.Format.CSV));
    }

    @Test
    void jsonLinesKeepTypes() throws Exception {
        assertEquals("{\"n\":1,\"text\":\"plain\",\"x\":2.5}\n{\"n\":22,\"text\":\"a, \\\"quoted\\\"\\nline\",\"x\":null}\n"
                + "{\"n\":null,\"text\":null,\"x\":12345678.125}\n", print(ResultPrinter.Format.JSON));
    }
}
