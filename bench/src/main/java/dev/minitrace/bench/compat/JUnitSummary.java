package dev.minitrace.bench.compat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The JUnit console launcher's results: the counts of its summary box and the failed tests of its XML report. */
record JUnitSummary(long found, long successful, long failed, long skipped) {
    private static final Pattern COUNT = Pattern.compile("\\[\\s*(\\d+) tests (found|successful|failed|skipped)\\s*]");

    /** Reads the summary box ("[ 422 tests found ]" ...); fails when a count is missing (the launcher did not finish). */
    static JUnitSummary parse(String output) {
        long[] v = {-1, -1, -1, -1};
        Matcher m = COUNT.matcher(output);
        while (m.find()) {
            int k = switch (m.group(2)) {
                case "found" -> 0;
                case "successful" -> 1;
                case "failed" -> 2;
                default -> 3;
            };
            v[k] = Long.parseLong(m.group(1));
        }
        for (long x : v) {
            if (x < 0) {
                throw new IllegalArgumentException("no test summary in the launcher's output");
            }
        }
        return new JUnitSummary(v[0], v[1], v[2], v[3]);
    }

    /** "class#name" of every test case of a legacy XML report with a failure or error; empty when there is no report. */
    static TreeSet<String> failedTests(Path report) throws IOException {
        TreeSet<String> failed = new TreeSet<>();
        if (!Files.exists(report)) {
            return failed;
        }
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList cases = f.newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                if (c.getElementsByTagName("failure").getLength() > 0 || c.getElementsByTagName("error").getLength() > 0) {
                    failed.add(c.getAttribute("classname") + "#" + c.getAttribute("name"));
                }
            }
        } catch (org.xml.sax.SAXException | javax.xml.parsers.ParserConfigurationException e) {
            throw new IOException("unreadable test report " + report + ": " + e.getMessage(), e);
        }
        return failed;
    }
}
