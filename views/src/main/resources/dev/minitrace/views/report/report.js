"use strict";
// MiniTrace's report page: draws the aggregate that mt report embedded as JSON. Everything the
// page shows was computed in Java; this script only lays it out.
(function () {
  const data = JSON.parse(document.getElementById("minitrace-data").textContent);
  const names = data.names;
  const facts = data.facts;
  const timed = facts.timed;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        e.setAttribute(k, attrs[k]);
      }
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  function count(n) {
    return Number(n).toLocaleString("en-US");
  }

  function duration(ns) {
    if (ns < 0) {
      return "unknown";
    }
    if (ns >= 1e9) {
      return (ns / 1e9).toFixed(3) + " s";
    }
    if (ns >= 1e6) {
      return (ns / 1e6).toFixed(3) + " ms";
    }
    if (ns >= 1e3) {
      return (ns / 1e3).toFixed(1) + " µs";
    }
    return ns + " ns";
  }

  function time(ns) {
    return timed ? duration(ns) : "–";
  }

  // A table from rows: columns are [heading, value(row), numeric?].
  function table(id, columns, rows) {
    const t = document.getElementById(id);
    const head = el("tr");
    for (const c of columns) {
      head.appendChild(el("th", c[2] ? { class: "num" } : null, c[0]));
    }
    t.appendChild(head);
    for (const r of rows) {
      const tr = el("tr");
      for (const c of columns) {
        tr.appendChild(el("td", c[2] ? { class: "num" } : null, c[1](r)));
      }
      t.appendChild(tr);
    }
    if (rows.length === 0) {
      const tr = el("tr");
      tr.appendChild(el("td", { colspan: columns.length }, "none recorded"));
      t.appendChild(tr);
    }
  }

  // --- the recording's facts and warnings
  document.getElementById("title").textContent = facts.input;
  document.title = "MiniTrace report: " + facts.input;
  const warnings = document.getElementById("warnings");
  if (facts.lostData) {
    warnings.appendChild(el("div", { class: "warning lost" },
      "The recording lost data or was cut: what is shown is what remained."));
  }
  for (const w of facts.warnings) {
    warnings.appendChild(el("div", { class: "warning" }, w));
  }
  const threadCount = data.threads.length;
  const rows = [
    ["Input", facts.input + " (" + facts.inputKind + ")"],
    ["JVM", facts.jvm || ("not known: " + (facts.factsProblem || "not in the input"))],
    ["Collectors", facts.collectors || "not known"],
    ["Start", facts.start],
    ["Duration", timed ? duration(facts.duration) : "not known (an .mtlog has no times; its GCs and fragments do)"],
    ["Threads traced", count(threadCount)],
    ["GCs", count(data.gcs.length) + " (" + count(data.fragmentPoints.length) + " started a fragment)"],
  ];
  for (const k of Object.keys(facts.records)) {
    rows.push(["Records: " + k, count(facts.records[k])]);
  }
  if (facts.jvmArgs) {
    rows.push(["JVM arguments", facts.jvmArgs]);
  }
  if (facts.javaArgs) {
    rows.push(["Program", facts.javaArgs]);
  }
  rows.push(["Times", timed
    ? "tick resolution: the agent stamps records when its 1 ms ticker has advanced (unless run with stamp=every); calls shorter than a tick count as 0"
    : "none: counts only"]);
  const factsTable = document.getElementById("facts-table");
  for (const r of rows) {
    const tr = el("tr");
    tr.appendChild(el("th", null, r[0]));
    tr.appendChild(el("td", null, r[1]));
    factsTable.appendChild(tr);
  }

  // --- threads over time: a row per thread, darker where it made more records; GC pauses as
  // bands, fragment points as lines
  (function overview() {
    const canvas = document.getElementById("overview-canvas");
    const label = 190;
    const rowH = 16;
    const axis = 22;
    const width = Math.max(700, document.getElementById("overview-box").clientWidth - 4);
    const plot = width - label - 10;
    const height = axis + Math.max(1, threadCount) * rowH + 4;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    const ctx = canvas.getContext("2d");
    ctx.scale(ratio, ratio);
    ctx.font = "12px system-ui, sans-serif";
    let span;
    if (timed) {
      span = Math.max(1, facts.duration);
      document.getElementById("overview-note").textContent = "Records per " + duration(span / data.bins)
        + " per thread (darker: more). Red bands: GCs; blue lines: fragment points (GCs that can move objects).";
    } else {
      span = 1;
      for (const t of data.threads) {
        for (const f of t.fragments) {
          span = Math.max(span, f[0] + 1);
        }
      }
      for (const g of data.gcs) {
        span = Math.max(span, g.start + Math.max(0, g.duration) + 1);
      }
      document.getElementById("overview-note").textContent = "An .mtlog has no times per record: each thread's records are "
        + "shown per fragment (between two GC points, which have times), darker where it made more.";
    }
    const x = function (ns) {
      return label + Math.max(0, Math.min(1, ns / span)) * plot;
    };
    ctx.fillStyle = "#555";
    for (let i = 0; i <= 10; i++) {
      const px = label + plot * i / 10;
      ctx.fillRect(px, axis - 6, 1, 5);
      if (timed) {
        ctx.fillText(duration(span * i / 10), px + 2, 12);
      }
    }
    let max = 1;
    for (const t of data.threads) {
      if (t.activity) {
        for (const v of t.activity) {
          max = Math.max(max, v);
        }
      } else {
        for (let i = 0; i < t.fragments.length; i++) {
          const f = t.fragments[i];
          const end = i + 1 < t.fragments.length ? t.fragments[i + 1][0] : span;
          max = Math.max(max, f[1] / Math.max(1, end - f[0]));
        }
      }
    }
    data.threads.forEach(function (t, row) {
      const y = axis + row * rowH;
      ctx.fillStyle = "#222";
      const name = t.name.length > 28 ? t.name.slice(0, 27) + "…" : t.name;
      ctx.fillText(name, 4, y + 12);
      if (t.activity) {
        const w = plot / t.activity.length;
        t.activity.forEach(function (v, i) {
          if (v > 0) {
            const a = 0.15 + 0.85 * Math.sqrt(v / max);
            ctx.fillStyle = "rgba(38, 120, 110, " + a.toFixed(3) + ")";
            ctx.fillRect(label + i * w, y + 2, Math.max(1, w), rowH - 4);
          }
        });
      } else {
        for (let i = 0; i < t.fragments.length; i++) {
          const f = t.fragments[i];
          const end = i + 1 < t.fragments.length ? t.fragments[i + 1][0] : span;
          const a = 0.15 + 0.85 * Math.sqrt((f[1] / Math.max(1, end - f[0])) / max);
          ctx.fillStyle = "rgba(38, 120, 110, " + a.toFixed(3) + ")";
          ctx.fillRect(x(f[0]), y + 2, Math.max(1, x(end) - x(f[0])), rowH - 4);
        }
      }
    });
    for (const g of data.gcs) {
      ctx.fillStyle = "rgba(198, 40, 40, 0.35)";
      ctx.fillRect(x(g.start), axis, Math.max(1, x(g.start + Math.max(0, g.duration)) - x(g.start)), height - axis);
    }
    ctx.fillStyle = "rgba(21, 101, 192, 0.9)";
    for (const p of data.fragmentPoints) {
      ctx.fillRect(x(p[1]), axis, 1, height - axis);
    }
  })();

  // --- flame graph: the merged tree or one thread's, sized by calls or by time
  (function flame() {
    const select = document.getElementById("flame-thread");
    select.appendChild(el("option", { value: "merged" }, "all threads (merged)"));
    for (const t of data.threads) {
      if (data.flame.threads[String(t.id)]) {
        select.appendChild(el("option", { value: String(t.id) }, t.name + " (" + count(t.calls) + " calls)"));
      }
    }
    const byTime = document.getElementById("flame-by-time");
    if (!timed) {
      byTime.disabled = true;
      byTime.parentElement.title = "an .mtlog has no times";
    }
    const chartBox = document.getElementById("flame-chart");
    const details = document.getElementById("flame-details");
    let chart = null;

    // The flat columns (parent before child) as the nested objects the library draws; each frame's
    // own value is its calls or its own time, and the library sums the children's in.
    function hierarchy(tree, mode) {
      const n = tree.parent.length;
      const nodes = new Array(n);
      for (let i = 0; i < n; i++) {
        const pruned = tree.pruned[i] === 1;
        nodes[i] = {
          name: names[tree.name[i]],
          value: mode === "time" ? tree.self[i] : (pruned ? tree.calls[i] : tree.calls[i]),
          calls: tree.calls[i],
          time: tree.time[i],
          self: tree.self[i],
          allocs: tree.allocs[i],
          allocsBelow: tree.allocsBelow[i],
          pruned: pruned,
          children: [],
        };
        if (tree.parent[i] >= 0) {
          nodes[tree.parent[i]].children.push(nodes[i]);
        }
      }
      return nodes[0];
    }

    function tip(d) {
      const f = d.data;
      const lines = ["<b>" + escapeHtml(f.name) + "</b>"];
      if (f.pruned) {
        lines.push(count(f.calls) + " calls in frames too small to show");
      } else {
        lines.push("calls: " + count(f.calls) + (d.parent ? "" : " (all frames: " + count(d.value) + ")"));
      }
      if (timed) {
        lines.push("inclusive time: " + duration(f.time));
        if (!f.pruned) {
          lines.push("exclusive time: " + duration(f.self));
        }
      }
      lines.push("allocations here: " + count(f.allocs) + ", here and below: " + count(f.allocsBelow));
      return lines.join("<br>");
    }

    function escapeHtml(s) {
      return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    }

    function draw() {
      const which = select.value;
      const mode = document.querySelector("input[name=flame-size]:checked").value;
      const tree = which === "merged" ? data.flame.merged : data.flame.threads[which];
      if (chart) {
        chart.destroy();
      }
      chartBox.textContent = "";
      chart = flamegraph.default()
        .width(Math.max(600, chartBox.clientWidth - 2))
        .cellHeight(18)
        .minFrameSize(1)
        .selfValue(true)
        .transitionDuration(300)
        .sort(true)
        .tooltip(flamegraph.tooltip.defaultFlamegraphTooltip().html(tip))
        .setDetailsElement(details);
      d3.select(chartBox).datum(hierarchy(tree, mode)).call(chart);
    }

    select.addEventListener("change", draw);
    for (const r of document.querySelectorAll("input[name=flame-size]")) {
      r.addEventListener("change", draw);
    }
    function search() {
      const term = document.getElementById("flame-search").value;
      if (term) {
        chart.search(term);
      } else {
        chart.clear();
      }
    }
    document.getElementById("flame-search-button").addEventListener("click", search);
    document.getElementById("flame-search").addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        search();
      }
    });
    document.getElementById("flame-reset").addEventListener("click", function () {
      chart.resetZoom();
    });
    draw();
    window.minitraceFlame = { draw: draw, chart: function () { return chart; } };
  })();

  // --- tables
  document.getElementById("methods-note").textContent = timed
    ? "The " + data.methods.length + " methods with the most inclusive time (a recursive method's time counted once, at its outermost call)."
    : "The " + data.methods.length + " most called methods.";
  table("methods-table", [
    ["Method", function (m) { return names[m.name] + m.descriptor; }],
    ["Calls", function (m) { return count(m.calls); }, true],
    ["Inclusive time", function (m) { return time(m.inclusive); }, true],
    ["Exclusive time", function (m) { return time(m.self); }, true],
    ["Allocations", function (m) { return count(m.allocs); }, true],
  ], data.methods);

  document.getElementById("allocations-note").textContent = count(data.allocations) + " allocations recorded.";
  table("sites-table", [
    ["Site (method, bytecode index)", function (s) { return names[s.method] + " @" + s.bci; }],
    ["Class", function (s) { return s.class; }],
    ["Allocations", function (s) { return count(s.count); }, true],
  ], data.allocationSites);
  table("classes-table", [
    ["Class", function (c) { return c.class; }],
    ["Allocations", function (c) { return count(c.count); }, true],
  ], data.allocationClasses);

  document.getElementById("monitors-note").textContent = "A hold runs from a thread's outermost acquire of the monitor to its release"
    + (timed ? "." : " (an .mtlog has no times: counts only).");
  table("monitors-table", [
    ["Monitor", function (m) { return m.monitor; }],
    ["Acquisitions", function (m) { return count(m.acquisitions); }, true],
    ["Holds", function (m) { return count(m.holds); }, true],
    ["Total hold", function (m) { return time(m.holdTime); }, true],
    ["Longest hold", function (m) { return time(m.longest); }, true],
    ["Threads", function (m) { return count(m.threads); }, true],
    ["Threads involved", function (m) { return m.threadNames.join(", ") + (m.threads > m.threadNames.length ? ", …" : ""); }],
  ], data.monitors);
  table("monitor-classes-table", [
    ["Class", function (c) { return c.class; }],
    ["Acquisitions", function (c) { return count(c.acquisitions); }, true],
    ["Total hold", function (c) { return time(c.holdTime); }, true],
    ["Longest hold", function (c) { return time(c.longest); }, true],
  ], data.monitorClasses);

  document.getElementById("exceptions-note").textContent = "Methods left by an exception (an exit record with bytecode index 0)."
    + " 'Began here': the exception did not come out of a traced callee just before.";
  table("exceptions-table", [
    ["Method", function (e) { return names[e.name]; }],
    ["Exits by exception", function (e) { return count(e.exits); }, true],
    ["Began here", function (e) { return count(e.thrown); }, true],
  ], data.exceptions);

  document.body.setAttribute("data-minitrace-ready", "true");
})();
