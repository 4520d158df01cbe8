// The results' tools (#result-tools: a comparison, How many fit?, the expression
// console) come after the answer, open unless the visitor folded them. This
// browser remembers the fold (localStorage) across live updates and visits.
(function () {
  "use strict";
  const KEY = "dra-playground:result-tools-folded";

  function folded() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function apply() {
    const tools = document.getElementById("result-tools");
    if (tools && folded()) tools.open = false;
  }

  document.addEventListener("toggle", function (event) {
    if (event.target.id !== "result-tools") return;
    try { localStorage.setItem(KEY, event.target.open ? "0" : "1"); } catch (e) { /* storage off */ }
  }, true);
  // Every answer re-renders the results with the tools open: fold them again before they are painted.
  document.addEventListener("htmx:afterSwap", apply);
  document.addEventListener("DOMContentLoaded", apply);
})();
