package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.query.parquet.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** docs/query.md is the schema's documentation: it lists every column of every table with its type, and quotes each question's SQL as it runs. */
class QueryDocsTest {
    private static final Path DOC = Path.of("").toAbsolutePath().getParent().resolve("docs/query.md");

    @Test
    void everyTableIsDocumentedColumnByColumnInOrder() throws Exception {
        String doc = Files.readString(DOC);
        for (TableSchema t : TraceTables.ALL) {
            int at = doc.indexOf("\n### " + t.name() + "\n");
            assertTrue(at >= 0, "a section for table " + t.name());
            int end = doc.indexOf("\n### ", at + 1);
            String section = doc.substring(at, end < 0 ? doc.length() : end);
            List<String> documented = new ArrayList<>();
            for (String line : section.lines().toList()) {
                if (line.startsWith("| `")) {
                    String[] cells = line.split("\\|");
                    documented.add(cells[1].trim().replace("`", "") + " " + cells[2].trim());
                }
            }
            List<String> actual = new ArrayList<>();
            for (TableSchema.Column c : t.shown()) {
                String type = switch (c.kind()) {
                    case LONG -> "INT64";
                    case INT -> "INT32";
                    case BOOLEAN -> "BOOLEAN";
                    case STRING -> "STRING";
                };
                actual.add(c.name() + " " + type.toUpperCase(Locale.ROOT));
            }
            assertEquals(actual, documented, "docs/query.md, table " + t.name());
        }
    }

    @Test
    void eachQuestionsSqlIsQuotedAsItRuns() throws Exception {
        String doc = Files.readString(DOC);
        for (NamedQuery q : NamedQuery.values()) {
            assertTrue(doc.contains("### " + q.optionName() + "\n"), q.optionName());
            assertTrue(doc.contains("```sql\n" + q.template().strip() + "\n```"), "docs/query.md quotes " + q.optionName() + ".sql");
        }
    }
}
