package dev.minitrace.views.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.SerializableString;
import dev.minitrace.converter.jfr.JvmFacts;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.Names;
import dev.minitrace.converter.util.CountTable;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The data the page draws, as JSON: the recording's facts, threads and their activity, GCs and
 * fragment points, the flame graphs (the merged tree and one per thread, each cut to a node
 * budget by {@link FlameTrees}) and the tables, each cut to its top rows. Aggregated here so that
 * the page stays small and opens fast whatever the trace's size. Method names are written once,
 * in a table that the trees and tables refer to by index. {@code <}, {@code >} and {@code &} are
 * escaped so the JSON can sit inside the page's {@code <script>} element.
 */
final class ReportJson {
    /** Nodes of the merged flame graph. */
    static final int MERGED_NODES = 20_000;
    /** Nodes of all threads' flame graphs together. */
    static final int THREAD_NODES = 40_000;
    /** Fewest nodes a thread's flame graph gets. */
    static final int MIN_THREAD_NODES = 300;
    /** Rows of each table. */
    static final int TOP = 200;

    private final ReportAggregator agg;
    private final ReportContext context;
    private final Names names;
    private final MtlogInfo info;
    private final Map<String, Integer> nameIndex = new HashMap<>();
    private final List<String> nameTable = new ArrayList<>();
    private JsonGenerator g;

    ReportJson(ReportAggregator aggregator, ReportContext context) {
        this.agg = aggregator;
        this.context = context;
        this.info = aggregator.info;
        this.names = new Names(info);
    }

    /** The JSON text. */
    String write() throws IOException {
        StringWriter out = new StringWriter(1 << 16);
        JsonFactory f = new JsonFactory();
        f.setCharacterEscapes(new HtmlSafe());
        g = f.createGenerator(out);
        g.writeStartObject();
        facts();
        threads();
        gcs();
        flames();
        methods();
        allocations();
        monitors();
        exceptions();
        g.writeFieldName("names");
        g.writeStartArray();
        for (String n : nameTable) {
            g.writeString(n);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.close();
        return out.toString();
    }

    private int name(String n) {
        return nameIndex.computeIfAbsent(n, k -> {
            nameTable.add(k);
            return nameTable.size() - 1;
        });
    }

    /** The page's name of a method index of the aggregate. */
    private int methodName(int m) {
        return switch (m) {
            case CallTree.ROOT -> name("(all)");
            case CallTree.OVERFLOW -> name("(call paths beyond the report's " + ReportAggregator.MAX_NODES + "-path bound)");
            case CallTree.PRUNED -> name("(smaller frames)");
            case -4 -> name("(no traced method)");
            default -> {
                MtlogInfo.MethodInfo mi = info.methods().get(agg.methods.rows.key(m));
                yield name(mi == null ? names.method(agg.methods.rows.key(m)) : mi.className() + "." + mi.methodName());
            }
        };
    }

    private String descriptor(int m) {
        MtlogInfo.MethodInfo mi = info.methods().get(agg.methods.rows.key(m));
        return mi == null ? "" : mi.descriptor();
    }

    private void facts() throws IOException {
        g.writeObjectFieldStart("facts");
        g.writeStringField("input", context.input());
        g.writeStringField("inputKind", context.inputKind());
        g.writeBooleanField("timed", agg.timed);
        g.writeStringField("start", Names.time(agg.start));
        g.writeNumberField("duration", agg.timed ? agg.end - agg.start : -1);
        JvmFacts f = context.facts();
        g.writeStringField("jvm", f.jvmVersion());
        g.writeStringField("jvmArgs", f.jvmArguments());
        g.writeStringField("javaArgs", f.javaArguments());
        String collectors = f.collectors();
        if (collectors == null) {
            collectors = String.join(", ", info.gcs().values().stream().map(MtlogInfo.GcInfo::name).distinct().sorted().toList());
            collectors = collectors.isEmpty() ? null : collectors + " (from the GCs)";
        }
        g.writeStringField("collectors", collectors);
        g.writeStringField("factsProblem", f.problem());
        g.writeObjectFieldStart("records");
        for (int t = 1; t < MtlogFormat.GC_TIMESTAMP; t++) {
            g.writeNumberField(MtlogFormat.typeName(t), agg.countByType[t]);
        }
        g.writeEndObject();
        g.writeBooleanField("lostData", context.lostData());
        g.writeArrayFieldStart("warnings");
        for (String w : context.warnings()) {
            g.writeString(w);
        }
        if (agg.unmatchedExits > 0) {
            g.writeString(agg.unmatchedExits + " exits had no entry (calls that began before the records start): not in the flame graph, their time unknown");
        }
        if (agg.unfinishedCalls > 0) {
            g.writeString(agg.unfinishedCalls + " calls were still running at the end: their time is unknown, not counted");
        }
        if (agg.framesWithoutExit > 0) {
            g.writeString(agg.framesWithoutExit + " calls had no exit record (an enclosing call's exit ended them): their time is unknown, not counted");
        }
        if (agg.tree.overflowCalls() > 0) {
            g.writeString(agg.tree.overflowCalls() + " calls took call paths beyond the report's bound of " + ReportAggregator.MAX_NODES
                    + " paths: they are counted in '(call paths beyond ...)' frames");
        }
        if (agg.monitors.unlisted > 0) {
            g.writeString(agg.monitors.unlisted + " monitor acquisitions beyond the first " + MonitorStats.MAX_MONITORS
                    + " monitors are counted per class only");
        }
        if (agg.allocations.unsited > 0) {
            g.writeString(agg.allocations.unsited + " allocations beyond the first " + AllocationStats.MAX_SITES
                    + " sites are counted per class only");
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void threads() throws IOException {
        g.writeNumberField("bins", Activity.BINS);
        g.writeArrayFieldStart("threads");
        for (ReportAggregator.ThreadCalls t : agg.threads) {
            g.writeStartObject();
            g.writeNumberField("id", t.key);
            g.writeStringField("name", names.thread(t.key));
            g.writeNumberField("records", t.records);
            g.writeNumberField("calls", t.calls);
            Activity a = t.activity;
            if (a.bins != null) {
                g.writeFieldName("activity");
                g.writeArray(a.bins, 0, a.bins.length);
            } else {
                g.writeArrayFieldStart("fragments");
                for (int i = 0; i < a.fragments; i++) {
                    g.writeStartArray();
                    g.writeNumber(a.fragmentStart[i] - agg.start);
                    g.writeNumber(a.fragmentCount[i]);
                    g.writeEndArray();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void gcs() throws IOException {
        g.writeArrayFieldStart("gcs");
        for (Map.Entry<Long, MtlogInfo.GcInfo> e : info.gcs().entrySet()) {
            MtlogInfo.GcInfo gc = e.getValue();
            g.writeStartObject();
            g.writeNumberField("id", e.getKey());
            g.writeStringField("collector", gc.name());
            g.writeStringField("cause", gc.cause());
            g.writeNumberField("start", gc.startNanos() - agg.start);
            g.writeNumberField("duration", gc.durationNanos());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("fragmentPoints");
        for (Map.Entry<Long, Long> e : agg.fragmentPoints.entrySet()) {
            g.writeStartArray();
            g.writeNumber(e.getKey());
            g.writeNumber(e.getValue() - agg.start);
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    private void flames() throws IOException {
        CallTree tree = agg.tree;
        // The merged tree: every thread's tree added path by path under one root.
        int[][] lists = tree.childLists();
        CallTree merged = new CallTree(ReportAggregator.MAX_NODES);
        int mergedRoot = merged.root();
        for (ReportAggregator.ThreadCalls t : agg.threads) {
            merged.merge(tree, t.root, mergedRoot, lists);
        }
        g.writeObjectFieldStart("flame");
        g.writeFieldName("merged");
        tree(new FlameTrees(merged).choose(mergedRoot, MERGED_NODES));
        FlameTrees threads = new FlameTrees(tree);
        long all = 0;
        for (ReportAggregator.ThreadCalls t : agg.threads) {
            all += threads.calls(t.root);
        }
        g.writeObjectFieldStart("threads");
        for (ReportAggregator.ThreadCalls t : agg.threads) {
            int budget = (int) Math.max(MIN_THREAD_NODES, THREAD_NODES * (double) threads.calls(t.root) / Math.max(1, all));
            g.writeFieldName(Long.toString(t.key));
            tree(threads.choose(t.root, budget));
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void tree(FlameTrees.Shown s) throws IOException {
        g.writeStartObject();
        int[] nameIdx = new int[s.size];
        for (int i = 0; i < s.size; i++) {
            nameIdx[i] = s.method[i] == CallTree.PRUNED ? name("(" + s.pruned[i] + " smaller frames)") : methodName(s.method[i]);
        }
        column("parent", s.parent, s.size);
        column("name", nameIdx, s.size);
        column("calls", s.calls, s.size);
        column("time", s.time, s.size);
        column("self", s.self, s.size);
        column("allocs", s.allocs, s.size);
        column("allocsBelow", s.allocsBelow, s.size);
        int[] pruned = new int[s.size];
        for (int i = 0; i < s.size; i++) {
            pruned[i] = s.method[i] == CallTree.PRUNED ? 1 : 0;
        }
        column("pruned", pruned, s.size);
        g.writeEndObject();
    }

    private void column(String field, int[] v, int n) throws IOException {
        g.writeFieldName(field);
        g.writeArray(v, 0, n);
    }

    private void column(String field, long[] v, int n) throws IOException {
        g.writeFieldName(field);
        g.writeArray(v, 0, n);
    }

    private int[] top(int n, Comparator<Integer> order) {
        return IntStream.range(0, n).boxed().sorted(order).limit(TOP).mapToInt(Integer::intValue).toArray();
    }

    private void methods() throws IOException {
        MethodStats m = agg.methods;
        Comparator<Integer> order = agg.timed
                ? Comparator.<Integer>comparingLong(i -> -m.rows.get(i, MethodStats.INCLUSIVE))
                        .thenComparingLong(i -> -m.rows.get(i, MethodStats.CALLS))
                : Comparator.<Integer>comparingLong(i -> -m.rows.get(i, MethodStats.CALLS));
        g.writeArrayFieldStart("methods");
        for (int i : top(m.rows.rows(), order.thenComparingInt(i -> i))) {
            if (m.rows.get(i, MethodStats.CALLS) == 0 && m.rows.get(i, MethodStats.EXITS_WITHOUT_ENTRY) == 0) {
                continue;
            }
            g.writeStartObject();
            g.writeNumberField("name", methodName(i));
            g.writeStringField("descriptor", descriptor(i));
            g.writeNumberField("calls", m.rows.get(i, MethodStats.CALLS));
            g.writeNumberField("exitsWithoutEntry", m.rows.get(i, MethodStats.EXITS_WITHOUT_ENTRY));
            g.writeNumberField("exceptionExits", m.rows.get(i, MethodStats.EXCEPTION_EXITS));
            g.writeNumberField("withoutExit", m.rows.get(i, MethodStats.WITHOUT_EXIT));
            g.writeNumberField("inclusive", m.rows.get(i, MethodStats.INCLUSIVE));
            g.writeNumberField("self", m.rows.get(i, MethodStats.SELF));
            g.writeNumberField("allocs", m.rows.get(i, MethodStats.ALLOCS));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void allocations() throws IOException {
        AllocationStats a = agg.allocations;
        g.writeNumberField("allocations", a.total);
        g.writeArrayFieldStart("allocationSites");
        for (int i : top(a.sites(), Comparator.<Integer>comparingLong(i -> -a.siteCount(i)).thenComparingInt(i -> i))) {
            g.writeStartObject();
            g.writeNumberField("method", methodName(a.siteMethod(i) < 0 ? -4 : a.siteMethod(i)));
            g.writeNumberField("bci", a.siteBci(i));
            g.writeStringField("class", a.siteMixed(i) ? names.className(a.siteClass(i)) + " and others" : names.className(a.siteClass(i)));
            g.writeNumberField("count", a.siteCount(i));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("allocationClasses");
        for (int i : top(a.classes(), Comparator.<Integer>comparingLong(i -> -a.classCount(i)).thenComparingInt(i -> i))) {
            g.writeStartObject();
            g.writeStringField("class", names.className(a.classId(i)));
            g.writeNumberField("count", a.classCount(i));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void monitors() throws IOException {
        CountTable m = agg.monitors.monitors;
        g.writeArrayFieldStart("monitors");
        for (int i : top(m.rows(), Comparator.<Integer>comparingLong(i -> -m.get(i, MonitorStats.ACQUISITIONS))
                .thenComparingLong(i -> -m.get(i, MonitorStats.HOLD_TIME)).thenComparingInt(i -> i))) {
            g.writeStartObject();
            g.writeStringField("monitor", names.object(m.key(i)));
            g.writeNumberField("acquisitions", m.get(i, MonitorStats.ACQUISITIONS));
            g.writeNumberField("holds", m.get(i, MonitorStats.HOLDS));
            g.writeNumberField("holdTime", m.get(i, MonitorStats.HOLD_TIME));
            g.writeNumberField("longest", m.get(i, MonitorStats.LONGEST));
            long threads = m.get(i, MonitorStats.THREADS);
            g.writeNumberField("threads", threads);
            g.writeArrayFieldStart("threadNames");
            for (int k = 0; k < Math.min(threads, MonitorStats.NAMED_THREADS); k++) {
                g.writeString(names.thread(agg.threads.get((int) m.get(i, MonitorStats.NAMED + k)).key));
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("monitorClasses");
        CountTable c = agg.monitors.classes;
        for (int i : top(c.rows(), Comparator.<Integer>comparingLong(i -> -c.get(i, MonitorStats.ACQUISITIONS)).thenComparingInt(i -> i))) {
            g.writeStartObject();
            g.writeStringField("class", names.className(c.key(i)));
            g.writeNumberField("acquisitions", c.get(i, MonitorStats.ACQUISITIONS));
            g.writeNumberField("holdTime", c.get(i, MonitorStats.HOLD_TIME));
            g.writeNumberField("longest", c.get(i, MonitorStats.LONGEST));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void exceptions() throws IOException {
        MethodStats m = agg.methods;
        g.writeArrayFieldStart("exceptions");
        for (int i : top(m.rows.rows(),
                Comparator.<Integer>comparingLong(i -> -m.rows.get(i, MethodStats.EXCEPTION_EXITS)).thenComparingInt(i -> i))) {
            if (m.rows.get(i, MethodStats.EXCEPTION_EXITS) == 0) {
                break;
            }
            g.writeStartObject();
            g.writeNumberField("name", methodName(i));
            g.writeNumberField("exits", m.rows.get(i, MethodStats.EXCEPTION_EXITS));
            g.writeNumberField("thrown", m.rows.get(i, MethodStats.THROWN));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Escapes what could end the page's script element or open markup inside it. */
    private static final class HtmlSafe extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] escapes = standardAsciiEscapesForJSON();

        HtmlSafe() {
            escapes['<'] = ESCAPE_STANDARD;
            escapes['>'] = ESCAPE_STANDARD;
            escapes['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 ? new SerializedString("\\u2028") : ch == 0x2029 ? new SerializedString("\\u2029") : null;
        }
    }
}
