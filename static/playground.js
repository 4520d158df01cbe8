/* DRA Playground: the editor page's entry script, which wires the pieces together. No build step.
 *
 * The page's behaviour lives in small scripts, each with one job, loaded before this one (all with
 * `defer`, in the order playground/templates/playground/index.html lists them, which is also the
 * order their listeners run in):
 * - editors.js: the CodeMirror YAML editors, written back into their textareas; an uploaded file;
 * - diagnostics.js: the results' errors, warnings and quick fixes shown in the editors;
 * - run-share-format.js: Run and Ctrl/Cmd-Enter, Ctrl/Cmd-S (Share), Format;
 * - requests.js: every request's URL and target, the live update, answers kept in order;
 * - kept-work.js: the form kept per tab (sessionStorage), Reset;
 * - replace-inventory.js: ask before a custom inventory is replaced;
 * - sample-picker.js: the sample inventory picker (mouse at once, keyboard once settled);
 * - stale-notes.js: descriptions that no longer describe what is on screen;
 * - splitter.js: the splitter between the form and the results;
 * - focus.js: the focus across results refreshes;
 * - refused-requests.js: why a request got no answer (413, 429, unreachable);
 * - verdict-into-view.js: a changed verdict scrolled into view.
 * They share what they must through one object, window.DRAPlayground; each file's header says what
 * it puts there. Completion and hover help are editor-help.js's (window.DRAEditorHelp).
 *
 * This file marks the page as scripted, routes clicks to the piece they are for, and sets up each
 * part of the page htmx loads (the whole page, a redrawn form, new results).
 * Without JavaScript the page still works: the textareas post as a form.
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});
  document.documentElement.classList.add("js");

  // A click goes to the piece it is for, the first that claims it: Reset (kept-work.js), Format and
  // Run (run-share-format.js), a quick fix or a diagnostic's link (diagnostics.js), or a copy button.
  document.addEventListener("click", function (event) {
    const reset = event.target.closest("[data-reset]");
    if (reset) {
      event.preventDefault();
      page.resetWork(reset.getAttribute("href"));
      return;
    }
    const format = event.target.closest("button[data-format]");
    if (format) {
      page.formatEditor(format.dataset.format);
      return;
    }
    if (event.target.closest("#run-button") && typeof htmx !== "undefined") {
      event.preventDefault();
      page.runNow();
      return;
    }
    const fix = event.target.closest("button.apply-fix");
    if (fix) {
      event.preventDefault();
      page.applyFix(fix);
      return;
    }
    const link = event.target.closest("a.diagnostic[data-line]");
    if (link && page.jumpTo(link)) {
      event.preventDefault();
      return;
    }
    const copy = event.target.closest("button[data-copy]");
    if (copy) {
      const source = document.getElementById(copy.dataset.copy);
      const status = copy.parentElement.querySelector(".copy-status");
      const text = source.value !== undefined ? source.value : source.textContent;
      navigator.clipboard.writeText(text).then(
        function () { if (status) status.textContent = "Copied."; },
        function () { if (status) status.textContent = "Copy failed: select the text and copy it."; }
      );
    }
  });

  function init(root) {
    root.querySelectorAll("textarea[data-editor]").forEach(page.initEditor);
    const picker = document.getElementById("id_inventory_slug");
    const inventory = document.getElementById("id_inventory");
    if (picker && inventory && picker.value && !picker.dataset.loaded) picker.dataset.loaded = inventory.value;
    if (picker && picker.dataset.committed === undefined) picker.dataset.committed = picker.value;
    if (root === document.body) {
      page.restoreWork();
      page.initSplitter();
    } else if (root.id === "playground") {
      page.initSplitter();
      page.restorePaste();
      page.saveNow(); // a sample was loaded: that is the work now
    }
    if (root.querySelector && (root.id === "results" || root.querySelector("#results") || root === document.body)) {
      page.markDiagnostics();
    }
    page.markStale();
    const share = root.querySelector ? root.querySelector("#share-url") : null;
    if (share) share.select();
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "results") page.markDiagnostics();
  });

  if (typeof htmx !== "undefined") {
    htmx.onLoad(init);
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document.body); });
  }
})();
