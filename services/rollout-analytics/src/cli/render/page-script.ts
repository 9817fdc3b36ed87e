// Browser code of the report page: reads the embedded report data and draws the charts with the
// inlined Chart.js. Every chart is kept in `window.reportCharts` so tools can check what was drawn.
export const PAGE_SCRIPT = `
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const charts = (window.reportCharts = []);
  const palette = ["#2f6fb0", "#e07b39", "#3a9a5b", "#c94a4a", "#8a63b8", "#7f7f7f", "#c9a227", "#3bb0b8", "#d16ba5"];
  const base = { animation: false, responsive: true, maintainAspectRatio: false, plugins: { legend: { position: "bottom" } } };
  function draw(id, config) {
    const canvas = document.getElementById(id);
    if (!canvas) return;
    charts.push(new Chart(canvas, config));
  }
  const a = data.analytics || {};
  const outcomes = Object.entries(a.outcomes || {});
  draw("chart-outcomes", {
    type: "doughnut",
    data: { labels: outcomes.map((e) => e[0]), datasets: [{ data: outcomes.map((e) => e[1]), backgroundColor: palette }] },
    options: base,
  });
  const qs = ["p50", "p90", "p95", "p99", "max"];
  draw("chart-percentiles", {
    type: "bar",
    data: {
      labels: qs,
      datasets: [
        { label: "task duration (s)", data: qs.map((q) => (a.duration || {})[q] || 0), backgroundColor: palette[0] },
        { label: "time to first token (s)", data: qs.map((q) => (a.ttft || {})[q] || 0), backgroundColor: palette[1] },
      ],
    },
    options: { ...base, scales: { y: { beginAtZero: true, title: { display: true, text: "seconds" } } } },
  });
  const tasks = data.split || [];
  const parts = ["model", "tool", "wait", "idle", "other"];
  draw("chart-split", {
    type: "bar",
    data: {
      labels: tasks.map((t) => t.label),
      datasets: parts.map((p, i) => ({ label: p, data: tasks.map((t) => t[p]), backgroundColor: palette[i] })),
    },
    options: { ...base, indexAxis: "y", scales: { x: { stacked: true, title: { display: true, text: "seconds" } }, y: { stacked: true } } },
  });
  const classes = Object.entries(a.classes || {});
  draw("chart-classes", {
    type: "bar",
    data: { labels: classes.map((e) => e[0]), datasets: [{ label: "tool calls", data: classes.map((e) => e[1]), backgroundColor: palette[4] }] },
    options: { ...base, plugins: { legend: { display: false } } },
  });
  const h = data.health || {};
  const zero = Object.entries(h.zero_tool_breakdown || {});
  draw("chart-zero-tool", {
    type: "bar",
    data: { labels: zero.map((e) => e[0]), datasets: [{ label: "zero-tool turns", data: zero.map((e) => e[1]), backgroundColor: palette[3] }] },
    options: { ...base, plugins: { legend: { display: false } } },
  });
})();
`;
