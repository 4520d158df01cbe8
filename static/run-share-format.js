/* DRA Playground, editor page: Run, Share and Format. No build step.
 *
 * Run (the button, or Ctrl/Cmd-Enter anywhere on the page) analyses now, as a live edit would,
 * without waiting for the typing pause; Ctrl/Cmd-S clicks Share; Format asks the server
 * (the form's data-format-url) to format one editor's YAML and says what it did in the editor
 * status line, which other pieces use for their one-line messages too.
 *
 * Shares on window.DRAPlayground: `runNow()`, `share()`, `editorStatus(message, isError)` and
 * `formatEditor(name)` (playground.js's click handler).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  function playgroundForm() { return document.getElementById("playground-form"); }

  // Analyse now, as a live edit would, without waiting for the typing pause.
  function runNow() {
    Object.values(page.editors).forEach(function (cm) { cm.save(); });
    page.sendLiveUpdate();
  }
  page.runNow = runNow;

  function share() {
    const button = document.getElementById("share-button");
    if (button) button.click();
  }
  page.share = share;

  function editorStatus(message, isError) {
    const status = document.getElementById("editor-status");
    if (!status) return;
    status.textContent = message;
    status.classList.toggle("error", !!isError);
  }
  page.editorStatus = editorStatus;

  page.formatEditor = function formatEditor(name) {
    const cm = page.editors[name];
    const form = playgroundForm();
    if (!cm || !form) return;
    const body = new FormData();
    body.append("text", cm.getValue());
    const token = form.querySelector("input[name=csrfmiddlewaretoken]");
    fetch(form.dataset.formatUrl, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": token ? token.value : "" },
    }).then(function (r) {
      return r.json().then(function (data) { return { ok: r.ok, data: data }; }, function () {
        return { ok: false, data: { error: "The server could not format it (HTTP " + r.status + ")." } };
      });
    }).then(function (answer) {
      const label = name === "inventory" ? "The inventory" : "The claims";
      if (!answer.ok) {
        editorStatus(answer.data.error || "Not formatted.", true);
        if (answer.data.line) {
          cm.focus();
          cm.setCursor({ line: answer.data.line - 1, ch: Math.max((answer.data.column || 1) - 1, 0) });
        }
        return;
      }
      if (answer.data.text === cm.getValue()) {
        editorStatus(label + " were already formatted.", false);
        return;
      }
      const cursor = cm.getCursor();
      cm.setValue(answer.data.text);
      cm.setCursor({ line: Math.min(cursor.line, cm.lineCount() - 1), ch: 0 });
      editorStatus(label + " were formatted (comments are not kept; Ctrl-Z undoes it).", false);
    }, function () {
      editorStatus("The server cannot be reached; nothing was formatted.", true);
    });
  };

  // Ctrl/Cmd-Enter runs and Ctrl/Cmd-S shares from anywhere on the page (the editors bind them too).
  document.addEventListener("keydown", function (event) {
    if (!playgroundForm() || !(event.ctrlKey || event.metaKey) || event.altKey || event.defaultPrevented) return;
    if (event.key === "Enter") {
      event.preventDefault();
      runNow();
    } else if (event.key === "s" || event.key === "S") {
      event.preventDefault();
      share();
    }
  });
})();
