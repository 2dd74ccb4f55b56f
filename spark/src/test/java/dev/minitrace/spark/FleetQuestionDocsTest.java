package dev.minitrace.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/query.md quotes each fleet question's SQL as the job runs it (checked on every JDK, without Spark). */
class FleetQuestionDocsTest {
    @Test
    void eachFleetQuestionIsQuoted() throws Exception {
        String doc = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs/query.md"));
        for (FleetQuestion q : FleetQuestion.values()) {
            assertTrue(doc.contains("### fleet/" + q.fileName() + "\n\n```sql\n" + q.sql().strip() + "\n```"),
                    "docs/query.md quotes fleet/" + q.fileName() + ".sql");
        }
    }
}
