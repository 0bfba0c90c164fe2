// The jq console's script: confirmations, the overview's live figures, chart refresh.
// Loaded from our origin only (the Content-Security-Policy allows no inline script).
// Every value from the server is set with textContent: nothing is parsed as HTML.
"use strict";

function confirmForms() {
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        event.preventDefault();
      }
    });
  });
}

function formatCount(n) {
  return n === null || n === undefined ? "—" : n.toLocaleString("en-US").replace(/,/g, "\u2009");
}

function formatDuration(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 1) return Math.round(seconds * 1000) + " ms";
  if (seconds < 60) return Math.round(seconds) + " s";
  var minutes = seconds / 60;
  if (minutes < 60) return Math.round(minutes) + " min";
  var hours = Math.floor(minutes / 60), rest = Math.floor(minutes % 60);
  if (hours < 48) return rest ? hours + " h " + rest + " min" : hours + " h";
  var days = Math.floor(hours / 24);
  return hours % 24 ? days + " d " + (hours % 24) + " h" : days + " d";
}

function setField(root, name, text) {
  var cell = root.querySelector('[data-field="' + name + '"]');
  if (cell && cell.textContent !== text) cell.textContent = text;
}

function setPaused(row, paused) {
  var cell = row.querySelector('[data-field="paused"]');
  if (!cell) return;
  var badge = document.createElement("span");
  badge.className = paused ? "badge badge-warn" : "badge badge-ok";
  badge.textContent = paused ? "paused" : "active";
  cell.replaceChildren(badge);
}

function applyOverview(data) {
  var body = document.querySelector("#queue-table tbody");
  if (body) {
    data.queues.forEach(function (q) {
      var row = null;
      body.querySelectorAll("tr[data-queue]").forEach(function (r) {
        if (r.getAttribute("data-queue") === q.queue) row = r;
      });
      if (!row) return; // a new queue appears on the next page load
      ["ready", "scheduled", "running", "dead"].forEach(function (f) { setField(row, f, formatCount(q[f])); });
      setField(row, "oldestReadyAgeSeconds", formatDuration(q.oldestReadyAgeSeconds));
      setPaused(row, q.paused);
    });
  }
  Object.keys(data.windows).forEach(function (key) {
    var tile = document.querySelector('.tile[data-window="' + key + '"]');
    if (!tile) return;
    var w = data.windows[key];
    setField(tile, "succeeded", formatCount(w.succeeded));
    setField(tile, "perMinute", String(w.perMinute));
    setField(tile, "dead", formatCount(w.dead));
    setField(tile, "failedAttempts", formatCount(w.failedAttempts));
    setField(tile, "failureRate", w.failureRate === null ? "—" : (w.failureRate * 100).toFixed(1) + " %");
  });
}

function pollOverview() {
  var status = document.getElementById("live-status");
  if (!status) return;
  var url = status.getAttribute("data-poll");
  function tick() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 401) { window.location.assign("login"); return null; }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        if (!data) return;
        applyOverview(data);
        status.classList.remove("stale");
        status.textContent = "live · " + new Date(data.at).toLocaleTimeString();
      })
      .catch(function () { status.classList.add("stale"); status.textContent = "reconnecting"; });
  }
  window.setInterval(tick, 5000);
}

function refreshCharts() {
  document.querySelectorAll("img.chart[data-refresh]").forEach(function (img) {
    var base = img.getAttribute("src").split("?")[0];
    var every = parseInt(img.getAttribute("data-refresh"), 10) * 1000;
    window.setInterval(function () { img.setAttribute("src", base + "?t=" + Date.now()); }, every);
  });
}

document.addEventListener("DOMContentLoaded", function () {
  confirmForms();
  pollOverview();
  refreshCharts();
});
