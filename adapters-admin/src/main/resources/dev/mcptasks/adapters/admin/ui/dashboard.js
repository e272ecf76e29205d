// The dashboard's own script: the upstream charts of the servers page (uPlot), fed by /ui/servers/data. Everything
// else is server-rendered HTML that htmx refreshes.
(function () {
  "use strict";
  var charts = {};

  // how many points a chart has, and how many above zero: what a test (or a curious operator) can read off the page
  function mark(box, values) {
    var above = values.filter(function (v) { return v > 0; }).length;
    box.setAttribute("data-points", String(values.length));
    box.setAttribute("data-points-above-zero", String(above));
  }

  function chart(container, name, title, label, data) {
    var key = name + "/" + label;
    if (charts[key]) {
      charts[key].plot.setData(data);
      mark(charts[key].box, data[1]);
      return;
    }
    var box = document.createElement("div");
    box.className = "chart";
    box.setAttribute("data-chart", key);
    container.appendChild(box);
    mark(box, data[1]);
    charts[key] = { box: box, plot: new uPlot({
      title: title, width: 520, height: 200,
      // the last ten minutes, however few points there are yet; counts and latencies from zero
      scales: {
        x: { time: true, range: function (u, min, max) { return [max - 600, max + 5]; } },
        y: { range: function (u, min, max) { return [0, Math.max(1, max * 1.1)]; } }
      },
      series: [{}, { label: label, stroke: label === "errors" ? "#c4320a" : "#2f5bd3", width: 2,
        points: { show: true } }],
      axes: [{}, { size: 60 }]
    }, data, box) };
  }

  function refresh(container) {
    fetch(container.getAttribute("data-src"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body) { return; }
        var names = Object.keys(body.servers);
        var empty = document.getElementById("charts-empty");
        if (empty) { empty.hidden = names.length > 0; }
        names.forEach(function (name) {
          var s = body.servers[name];
          chart(container, name, name + ": mean request latency (ms)", "latency ms", [s.t, s.latencyMs]);
          chart(container, name, name + ": upstream errors per interval", "errors", [s.t, s.errors]);
        });
      })
      .catch(function () { /* the next round tries again */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var container = document.getElementById("upstream-charts");
    if (!container || typeof uPlot === "undefined") { return; }
    refresh(container);
    setInterval(function () { refresh(container); }, 5000);
  });
})();
