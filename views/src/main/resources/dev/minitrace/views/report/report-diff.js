"use strict";
// The report's differential section (mt report --baseline): the merged call paths of the baseline
// and this trace as a flame graph coloured by the change in calls, and the rows that changed. The
// counts were computed in Java (views diff); this script only lays them out.
(function () {
  const diff = JSON.parse(document.getElementById("minitrace-diff").textContent);
  if (!diff) {
    return;
  }
  document.getElementById("diff").hidden = false;
  document.getElementById("diff-link").hidden = false;

  function count(n) {
    return Number(n).toLocaleString("en-US");
  }

  function signed(n) {
    return (n > 0 ? "+" : "") + count(n);
  }

  function escapeHtml(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  document.getElementById("diff-note").textContent = "Baseline: " + diff.base + ". This trace: " + diff.next
    + ". Counts are exact: for a deterministic program every difference is a change of what the code does.";

  const tree = diff.tree;
  function hierarchy() {
    const n = tree.parent.length;
    const nodes = new Array(n);
    for (let i = 0; i < n; i++) {
      const base = tree.base[i];
      const next = tree.next[i];
      nodes[i] = { name: tree.name[i], value: Math.max(base, next), base: base, next: next, delta: next - base, children: [] };
      if (tree.parent[i] >= 0) {
        nodes[tree.parent[i]].children.push(nodes[i]);
      }
    }
    return nodes[0];
  }

  const REMOVED = "rgb(40,60,160)";
  // Colour by the relative change of the frame's own calls: red more, blue fewer, grey the same.
  function colour(d) {
    const f = d.data;
    if (!d.parent) {
      return "#cccccc";
    }
    if (f.delta === 0) {
      return "#d9d9d9";
    }
    if (f.next === 0) {
      return REMOVED;
    }
    const rel = Math.min(1, Math.abs(f.delta) / Math.max(1, Math.max(f.base, f.next)));
    const strength = Math.round(90 + 120 * rel);
    if (f.delta > 0) {
      return "rgb(255," + (255 - strength) + "," + (255 - strength) + ")";
    }
    return "rgb(" + (255 - strength) + "," + (255 - strength) + ",255)";
  }

  function tip(d) {
    const f = d.data;
    const lines = ["<b>" + escapeHtml(f.name) + "</b>", "calls: " + count(f.base) + " in the baseline, " + count(f.next) + " now ("
      + signed(f.delta) + ")"];
    if (f.next === 0 && f.base > 0) {
      lines.push("removed: not called along this path any more");
    } else if (f.base === 0) {
      lines.push("new: not called along this path in the baseline");
    }
    return lines.join("<br>");
  }

  const box = document.getElementById("diff-chart");
  const chart = flamegraph.default()
    .width(Math.max(600, box.clientWidth - 2))
    .cellHeight(18)
    .minFrameSize(1)
    .selfValue(true)
    .transitionDuration(300)
    .sort(true)
    .setColorMapper(function (d) { return colour(d); })
    .tooltip(flamegraph.tooltip.defaultFlamegraphTooltip().html(tip))
    .setDetailsElement(document.getElementById("diff-details"));
  const root = hierarchy();
  d3.select(box).datum(root).call(chart);
  document.getElementById("diff-reset").addEventListener("click", function () {
    chart.resetZoom();
  });

  function table(id, metrics, rows) {
    const t = document.getElementById(id);
    const head = document.createElement("tr");
    const headings = ["Row"];
    for (const m of metrics) {
      headings.push(m + " (baseline)", m + " (now)", "change");
    }
    for (const h of headings) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    }
    t.appendChild(head);
    if (rows.length === 0) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = headings.length;
      td.textContent = "no change";
      tr.appendChild(td);
      t.appendChild(tr);
      return;
    }
    for (const r of rows) {
      const tr = document.createElement("tr");
      const name = document.createElement("td");
      name.textContent = r.row;
      tr.appendChild(name);
      for (const m of metrics) {
        const v = r[m];
        for (const text of [count(v[0]), count(v[1]), signed(v[1] - v[0])]) {
          const td = document.createElement("td");
          td.className = "num";
          td.textContent = text;
          tr.appendChild(td);
        }
      }
      t.appendChild(tr);
    }
  }
  table("diff-methods", ["calls", "exceptions", "allocs", "locks"], diff.method || []);
  table("diff-allocs", ["allocs"], diff.alloc || []);
  table("diff-locks", ["locks"], diff.lock || []);
  table("diff-exceptions", ["throws"], diff.exception || []);
  window.minitraceDiff = { chart: chart, root: root };
  document.body.setAttribute("data-minitrace-diff-ready", "true");
})();
