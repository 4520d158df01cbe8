/* DRA Playground, editor page: why a request got no answer. No build step.
 *
 * When the server refuses a request (429: too many, 413: too large, or any other error) or
 * cannot be reached, the request status line says so in words, with the server's own detail, and
 * that the results on screen are from the last answer; the next answer clears it.
 * (results-pane.js marks those results out of date.)
 *
 * Shares nothing on window.DRAPlayground.
 */
(function () {
  "use strict";

  function showRequestError(message) {
    const status = document.getElementById("request-status");
    if (!status) return;
    status.textContent = message;
    status.hidden = !message;
  }

  function responseText(xhr) {
    try { return JSON.parse(xhr.responseText).detail || ""; } catch (e) { /* not JSON: an HTML fragment */ }
    const doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    const el = doc.querySelector("[role=alert]");
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  document.addEventListener("htmx:responseError", function (event) {
    const xhr = event.detail.xhr;
    const detail = responseText(xhr);
    if (xhr.status === 429) {
      showRequestError((detail || "Too many requests: wait a minute.") + " The results below are from the last answer.");
    } else if (xhr.status === 413) {
      showRequestError((detail || "Too large: the request is over the size limit.") + " The results below are from the last request that fit.");
    } else {
      showRequestError("The server could not answer (HTTP " + xhr.status + "). " + detail);
    }
  });
  document.addEventListener("htmx:sendError", function () {
    showRequestError("The server cannot be reached; results are from the last answer.");
  });
  document.addEventListener("htmx:afterSwap", function () { showRequestError(""); });
})();
