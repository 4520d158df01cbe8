/* DRA Playground: which devices a request's selectors let through, marked in the inventory picture.
 * No build step.
 *
 * The picture lists each request of the explanation (seen from one node) as
 * a button; pressing one marks the devices that match the request (every
 * check passed) and dims those its selectors filter out, and pressing it
 * again clears the marks. One request is marked at a time. A status line
 * says what was marked, for screen readers; without JavaScript the counts
 * beside each request still say it.
 */
(function () {
  "use strict";

  function words(text) { return text ? text.split(" ").filter(Boolean) : []; }

  function clear(picture) {
    picture.querySelectorAll(".tile.request-match, .tile.request-filtered").forEach(function (tile) {
      tile.classList.remove("request-match", "request-filtered");
    });
    picture.querySelectorAll(".request-mark[aria-pressed='true']").forEach(function (button) {
      button.setAttribute("aria-pressed", "false");
    });
  }

  function mark(button) {
    const picture = button.closest("#picture");
    if (!picture) return;
    const on = button.getAttribute("aria-pressed") !== "true";
    clear(picture);
    const status = picture.querySelector("#request-mark-status");
    if (!on) {
      if (status) status.textContent = "No request marked.";
      return;
    }
    const token = button.dataset.requestMark;
    let matched = 0;
    let filtered = 0;
    picture.querySelectorAll(".tile[data-matches], .tile[data-filtered]").forEach(function (tile) {
      if (words(tile.dataset.matches).indexOf(token) >= 0) {
        tile.classList.add("request-match");
        matched += 1;
      } else if (words(tile.dataset.filtered).indexOf(token) >= 0) {
        tile.classList.add("request-filtered");
        filtered += 1;
      }
    });
    button.setAttribute("aria-pressed", "true");
    if (status) {
      status.textContent = "Marked " + matched + " matching device" + (matched === 1 ? "" : "s") + " of " +
        button.textContent.trim() + (filtered ? "; " + filtered + " filtered out by a selector" : "") + ".";
    }
  }

  document.addEventListener("click", function (event) {
    const button = event.target && event.target.closest ? event.target.closest("#picture .request-mark") : null;
    if (button) mark(button);
  });
})();
