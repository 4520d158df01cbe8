// The time budget on analyses, as the page shows it (playground/budget.py, allocator/deadline.py):
// - while the results, How many fit? or the console wait for an answer, a Cancel button aborts the
//   request (the server's own budget frees its worker anyway); the results on screen are then marked
//   out of date, since they are not for what the editor holds;
// - when the server answers 503 with the X-Time-Budget header, its message (what ran out, and where)
//   is shown: over the old results, which are marked out of date, or in the panel that asked.
// Shares on window.DRAPlayground: `budgetMessage(xhr)`, that message (null for any other answer), for the
// sections that load themselves once shown (loads-when-shown.js).
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});
  const TARGETS = ["results", "capacity-result", "console-result"];
  const inFlight = new Map();  // target id -> the element whose analysis request is awaited
  let cancelling = false;

  function cancelButton() {
    return document.getElementById("cancel-analysis");
  }

  // A sample load swaps the whole #playground: its analysis stands for the results'.
  function targetId(event) {
    const target = event.detail && event.detail.target;
    if (!target) return null;
    if (target.id === "playground") return "results";
    return TARGETS.indexOf(target.id) >= 0 ? target.id : null;
  }

  function markResultsOutOfDate(text) {
    const results = document.getElementById("results");
    if (!results) return;
    results.classList.add("stale");
    let note = document.getElementById("results-stale");
    if (!note) {
      note = document.createElement("p");
      note.id = "results-stale";
      note.className = "stale-note";
      note.setAttribute("role", "status");
      const heading = document.getElementById("results-heading");
      if (heading) heading.after(note); else results.prepend(note);
    }
    note.textContent = text;
  }

  function showBudgetNote(id, text) {
    const where = document.getElementById(id);
    if (!where) return;
    let note = document.getElementById("time-budget-" + id);
    if (!note) {
      note = document.createElement("p");
      note.id = "time-budget-" + id;
      note.className = "error-text time-budget";
      note.setAttribute("role", "alert");
    }
    note.textContent = text;
    if (id === "results") {
      const stale = document.getElementById("results-stale");
      if (stale) stale.after(note); else where.prepend(note);
    } else {
      where.replaceChildren(note);
    }
  }

  function showCancel() {
    const button = cancelButton();
    if (button) button.hidden = inFlight.size === 0;
  }

  function onBeforeRequest(event) {
    const id = targetId(event);
    if (!id) return;
    inFlight.set(id, event.detail.elt);
    cancelling = false;
    showCancel();
  }

  function onAfterRequest(event) {
    const id = targetId(event);
    if (!id || inFlight.get(id) !== event.detail.elt) return;
    inFlight.delete(id);
    showCancel();
  }

  // Cancel stops every analysis the page waits for.
  function onCancel() {
    if (inFlight.size === 0) return;
    cancelling = true;
    inFlight.forEach(function (elt) {
      // htmx keeps the request on the element that synchronises it (hx-sync: the form for the live update).
      htmx.trigger(elt.closest("[hx-sync]") || elt, "htmx:abort");
    });
  }

  // A replaced request (hx-sync) is aborted too: only the visitor's Cancel is said so.
  function onAbort(event) {
    const id = targetId(event);
    if (!id || !cancelling) return;
    if (id === "results") {
      markResultsOutOfDate("Cancelled: these results are for an earlier input, not for what the editor holds now.");
    } else {
      showBudgetNote(id, "Cancelled.");
    }
  }

  // What ran out and where, from the server's 503 (playground/budget.py); null for any other answer.
  function budgetMessage(xhr) {
    if (!xhr || xhr.getResponseHeader("X-Time-Budget") !== "exceeded") return null;
    try {
      const body = JSON.parse(xhr.responseText);
      return "Stopped: the " + body.error + ". " + (body.advice || "");
    } catch (e) {
      return "The time budget ran out.";
    }
  }
  page.budgetMessage = budgetMessage;

  function onResponseError(event) {
    const id = targetId(event);
    const text = budgetMessage(event.detail.xhr);
    if (!id || text === null) return;
    if (id === "results") {
      markResultsOutOfDate("Out of date: these results are for an earlier input; the analysis of the editor's input was stopped.");
    }
    showBudgetNote(id, text);
  }

  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:afterRequest", onAfterRequest);
  document.addEventListener("htmx:sendAbort", onAbort);
  document.addEventListener("htmx:responseError", onResponseError);
  document.addEventListener("click", function (event) {
    if (event.target && event.target.id === "cancel-analysis") onCancel();
  });
})();
