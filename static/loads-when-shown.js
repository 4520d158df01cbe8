/* DRA Playground, editor page: a section that loads itself once shown, when its request gets no answer.
 * No build step.
 *
 * A live update leaves the inventory picture's drawing (`POST /picture`, once scrolled to) and, with the
 * tools folded, the comparison (`POST /compare`, once opened) to requests of their own
 * (`data-loads-when-shown` on the section, whose text names what loads). When such a request runs out of
 * the server's time budget (503 with X-Time-Budget), is refused (429, any other error) or cannot reach
 * the server, its "Drawing the devices…" gives way to what happened, in place, with a Try again button
 * that asks once more (the section's `load-again` trigger).
 *
 * Uses window.DRAPlayground.budgetMessage (time-budget.js) for the budget's own words.
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  function section(event) {
    const elt = event.detail && event.detail.elt;
    return elt && elt.isConnected && elt.hasAttribute("data-loads-when-shown") ? elt : null;
  }

  // What happened, in the words the other panels use for the time budget (time-budget.js).
  function message(event, what) {
    const xhr = event.detail.xhr;
    if (event.type === "htmx:sendError") return "Not loaded: " + what + ": the server cannot be reached.";
    if (event.type === "htmx:timeout") return "Not loaded: " + what + ": no answer came in time.";
    const budget = page.budgetMessage && page.budgetMessage(xhr);
    if (budget) return budget;
    if (xhr.status === 429) return "Not loaded: " + what + ": too many requests from this address in a minute; wait a little.";
    return "Not loaded: " + what + ": the server could not answer (HTTP " + xhr.status + ").";
  }

  function showFailure(event) {
    const where = section(event);
    if (!where) return;
    const text = message(event, where.getAttribute("data-loads-when-shown"));
    const loading = where.querySelector("[data-loading]");
    if (loading) loading.hidden = true;
    let note = where.querySelector(".load-failed");
    if (!note) {
      note = document.createElement("p");
      note.className = "error-text load-failed";
      note.id = where.id + "-failed";
      note.setAttribute("role", "alert");
      where.append(note);
    }
    const retry = document.createElement("button");
    retry.type = "button";
    retry.setAttribute("data-load-again", "");
    retry.textContent = "Try again";
    note.replaceChildren(document.createTextNode(text + " "), retry);
  }

  function loadAgain(button) {
    const where = button.closest("[data-loads-when-shown]");
    if (!where) return;
    const note = where.querySelector(".load-failed");
    if (note) note.remove();
    const loading = where.querySelector("[data-loading]");
    if (loading) loading.hidden = false;
    htmx.trigger(where, "load-again");
  }

  document.addEventListener("htmx:responseError", showFailure);
  document.addEventListener("htmx:sendError", showFailure);
  document.addEventListener("htmx:timeout", showFailure);
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("button[data-load-again]");
    if (button) loadAgain(button);
  });
})();
