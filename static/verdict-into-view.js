/* DRA Playground, editor page: a new verdict comes into view. No build step.
 *
 * Beside the form the results pane scrolls on its own: when the verdict changes (Allocated to
 * Not valid, say) while the pane is scrolled past it, the pane scrolls back to it.
 *
 * Shares nothing on window.DRAPlayground.
 */
(function () {
  "use strict";
  let verdictBefore = null;

  function verdict() {
    const summary = document.getElementById("result-summary");
    const strong = summary && summary.querySelector("strong");
    return summary ? summary.className + "|" + (strong ? strong.textContent : "") : "";
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    verdictBefore = target && (target.id === "results" || target.id === "playground") ? verdict() : null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    const before = verdictBefore;
    verdictBefore = null;
    const results = document.getElementById("results");
    const summary = document.getElementById("result-summary");
    if (before === null || !results || !summary || verdict() === before) return;
    if (results.scrollHeight <= results.clientHeight || getComputedStyle(results).overflowY === "visible") return;
    const top = summary.getBoundingClientRect().top - results.getBoundingClientRect().top + results.scrollTop;
    if (summary.getBoundingClientRect().top < results.getBoundingClientRect().top) {
      results.scrollTop = Math.max(0, top - 8);
    }
  });

})();
