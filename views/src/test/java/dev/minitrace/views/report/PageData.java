package dev.minitrace.views.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The aggregate a report page embeds, read back from the HTML file. */
final class PageData {
    private static final String OPEN = "<script type=\"application/json\" id=\"minitrace-data\">";

    final JsonNode root;

    PageData(Path html) throws IOException {
        String page = Files.readString(html, StandardCharsets.UTF_8);
        int from = page.indexOf(OPEN) + OPEN.length();
        root = new ObjectMapper().readTree(page.substring(from, page.indexOf("</script>", from)));
    }

    String name(JsonNode index) {
        return root.get("names").get(index.asInt()).asText();
    }

    /** The row of table {@code table} whose {@code field} (a name index) is {@code name}. */
    JsonNode row(String table, String field, String name) {
        for (JsonNode r : root.get(table)) {
            if (name(r.get(field)).equals(name)) {
                return r;
            }
        }
        throw new AssertionError("no row " + name + " in " + table);
    }

    /** Calls of the frames named {@code name} in a flame tree, summed. */
    long flameCalls(JsonNode tree, String name) {
        long n = 0;
        for (int i = 0; i < tree.get("name").size(); i++) {
            if (name(tree.get("name").get(i)).equals(name)) {
                n += tree.get("calls").get(i).asLong();
            }
        }
        return n;
    }
}
