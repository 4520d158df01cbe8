// The results pane's own behaviour (the editor's scripts are those playground.js wires):
// - the tools (#result-tools: a comparison, How many fit?, the expression console) come after the
//   answer, open unless the visitor folded them; this browser remembers the fold (localStorage)
//   across live updates and visits;
// - when a request for new results is refused (too large, too many) or never arrives, the results on
//   screen are marked stale until the next answer replaces them: they no longer match the editor;
// - How many fit?'s hidden capacity_shown field says whether its result is on screen, so that a share
//   (or an export) made now shows that result again, not only the panel's settings.
(function () {
  "use strict";
  const KEY = "dra-playground:result-tools-folded";

  function folded() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function applyFold() {
    const tools = document.getElementById("result-tools");
    if (tools && folded()) tools.open = false;
  }

  document.addEventListener("toggle", function (event) {
    if (event.target.id !== "result-tools") return;
    try { localStorage.setItem(KEY, event.target.open ? "0" : "1"); } catch (e) { /* storage off */ }
  }, true);

  function markStale(event) {
    const results = document.getElementById("results");
    if (!results || event.detail.target !== results || results.classList.contains("stale")) return;
    results.classList.add("stale");
    const note = document.createElement("p");
    note.id = "results-stale";
    note.className = "stale-note";
    note.setAttribute("role", "status");
    note.textContent = "Out of date: these results are for an earlier input, not for what the editor holds now.";
    const heading = document.getElementById("results-heading");
    if (heading) heading.after(note); else results.prepend(note);
  }

  document.addEventListener("htmx:responseError", markStale);
  document.addEventListener("htmx:sendError", markStale);
  // Every answer re-renders the results, fresh and with the tools open: fold them again before they are painted.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "results") event.detail.target.classList.remove("stale");
    applyFold();
  });
  document.addEventListener("DOMContentLoaded", applyFold);

  // A live update says when the tools are folded: what only they show (the comparison) then waits
  // until they are opened (the server answers them folded, with a loader that asks on opening).
  document.addEventListener("htmx:configRequest", function (event) {
    const tools = document.getElementById("result-tools");
    const params = event.detail.parameters;
    const target = event.detail.target;
    if (!tools || tools.open || !params || !target || target.id !== "results") return;
    if (typeof params.set === "function") params.set("tools_folded", "1"); else params.tools_folded = "1";
  });

  function noteCapacityShown() {
    const field = document.getElementById("id_capacity_shown");
    if (field) field.value = document.querySelector("#capacity-result #capacity-summary") ? "1" : "";
  }
  document.addEventListener("htmx:afterSettle", noteCapacityShown);
})();
