/* DRA Playground: the editor page's small script. No build step.
 *
 * - turns each textarea[data-editor] into a CodeMirror 5 YAML editor that
 *   writes back into the textarea and fires "input" on it, so the form's
 *   htmx trigger (debounced) sends it;
 * - marks errors and warnings from the results in the editors' gutters, and
 *   moves the cursor to one when its link is clicked;
 * - reads an uploaded inventory file into the inventory editor;
 * - copies the status.allocation YAML, and explains refused requests (413, 429).
 * Without JavaScript the page still works: the textareas post as a form.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const editors = {}; // "documents" | "inventory" -> CodeMirror

  function fire(textarea) {
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }

  const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
    'select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

  // Move the focus to the control after (or before) the editor, as Tab would.
  function focusNext(cm, forward) {
    const wrapper = cm.getWrapperElement();
    const all = Array.from(document.querySelectorAll(FOCUSABLE)).filter(function (el) {
      return !wrapper.contains(el) && el.offsetParent !== null;
    });
    const after = all.filter(function (el) {
      return wrapper.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    const before = all.filter(function (el) { return after.indexOf(el) < 0; });
    const target = forward ? after[0] : before[before.length - 1];
    cm.state.releaseTab = false;
    if (target) target.focus();
  }

  function initEditor(textarea) {
    if (textarea.dataset.ready || typeof CodeMirror === "undefined") return;
    textarea.dataset.ready = "1";
    const cm = CodeMirror.fromTextArea(textarea, {
      mode: "yaml",
      lineNumbers: true,
      styleActiveLine: true,
      indentUnit: 2,
      tabSize: 2,
      indentWithTabs: false,
      gutters: ["diagnostics", "CodeMirror-linenumbers"],
      extraKeys: {
        // Tab indents with spaces (YAML forbids tabs); after Esc it leaves the editor.
        Tab: function (cm) {
          if (cm.state.releaseTab) return focusNext(cm, true);
          if (cm.somethingSelected()) cm.indentSelection("add");
          else cm.replaceSelection("  ", "end");
        },
        "Shift-Tab": function (cm) {
          if (cm.state.releaseTab) return focusNext(cm, false);
          cm.indentSelection("subtract");
        },
        Esc: function (cm) { cm.state.releaseTab = true; },
        "Ctrl-/": "toggleComment",
        "Cmd-/": "toggleComment",
      },
    });
    cm.on("keydown", function (cm, event) {
      if (event.key !== "Escape" && event.key !== "Tab" && event.key !== "Shift") cm.state.releaseTab = false;
    });
    cm.on("blur", function (cm) { cm.state.releaseTab = false; });
    const input = cm.getInputField();
    const label = document.querySelector('label[for="' + textarea.id + '"]');
    if (label) input.setAttribute("aria-label", label.textContent.trim());
    if (textarea.getAttribute("aria-describedby")) {
      input.setAttribute("aria-describedby", textarea.getAttribute("aria-describedby"));
    }
    cm.on("change", function () {
      cm.save();
      fire(textarea);
    });
    editors[textarea.dataset.editor] = cm;
    textarea.cm = cm;
  }

  function markDiagnostics() {
    Object.values(editors).forEach(function (cm) {
      cm.clearGutter("diagnostics");
      (cm.state.diagnosticLines || []).forEach(function (h) {
        if (h.lineNo() !== null) cm.removeLineClass(h, "background");
      });
      cm.state.diagnosticLines = [];
    });
    document.querySelectorAll("#results a.diagnostic[data-line]").forEach(function (link) {
      const cm = editors[link.dataset.source];
      if (!cm) return;
      const line = parseInt(link.dataset.line, 10) - 1;
      if (isNaN(line) || line < 0 || line >= cm.lineCount()) return;
      const severity = link.dataset.severity === "error" ? "error" : "warning";
      const info = cm.lineInfo(line);
      const existing = info && info.gutterMarkers && info.gutterMarkers.diagnostics;
      const marker = existing || document.createElement("span");
      if (!existing) {
        marker.className = "gutter-marker gutter-" + severity;
        marker.textContent = severity === "error" ? "●" : "▲";
        marker.title = "";
      } else if (severity === "error") {
        marker.className = "gutter-marker gutter-error";
        marker.textContent = "●";
      }
      marker.title = (marker.title ? marker.title + "\n" : "") + link.dataset.message;
      cm.setGutterMarker(line, "diagnostics", marker);
      cm.state.diagnosticLines.push(cm.addLineClass(line, "background", "line-" + severity));
    });
  }

  function jumpTo(link) {
    const cm = editors[link.dataset.source];
    if (!cm) return false;
    const details = cm.getWrapperElement().closest("details");
    if (details) details.open = true;
    const line = Math.max(parseInt(link.dataset.line, 10) - 1, 0);
    const ch = Math.max(parseInt(link.dataset.column || "1", 10) - 1, 0);
    cm.refresh();
    cm.focus();
    cm.setCursor({ line: line, ch: ch });
    cm.scrollIntoView({ line: line, ch: ch }, 80);
    return true;
  }

  function readInventoryFile(input) {
    const file = input.files && input.files[0];
    const cm = editors.inventory;
    if (!file || !cm) return;
    file.text().then(function (text) {
      const picker = document.getElementById("id_inventory_slug");
      if (picker) picker.value = "";
      const details = cm.getWrapperElement().closest("details");
      if (details) details.open = true;
      input.value = "";
      cm.setValue(text);
      cm.refresh();
    });
  }

  function showRequestError(message) {
    const status = document.getElementById("request-status");
    if (!status) return;
    status.textContent = message;
    status.hidden = !message;
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest("a.diagnostic[data-line]");
    if (link && jumpTo(link)) {
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

  // An editor set up inside a closed <details> measures nothing until it is shown.
  document.addEventListener("toggle", function (event) {
    if (!event.target.open) return;
    event.target.querySelectorAll("textarea[data-editor]").forEach(function (textarea) {
      if (textarea.cm) textarea.cm.refresh();
    });
  }, true);

  document.addEventListener("change", function (event) {
    if (event.target.id === "id_inventory_file") readInventoryFile(event.target);
  });

  // Live analysis: every edit of the form (but of controls marked data-no-live,
  // which act on their own) becomes a "live-edit" event, the form's htmx
  // trigger. A plain listener instead of an hx-trigger filter expression, which
  // htmx would have to eval and our Content-Security-Policy forbids.
  document.addEventListener("input", function (event) {
    const target = event.target;
    if (!target.form || target.form.id !== "playground-form" || target.hasAttribute("data-no-live")) return;
    target.dispatchEvent(new CustomEvent("live-edit", { bubbles: true }));
  });

  // An inventory typed or pasted by hand is a custom one.
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_inventory") {
      const picker = document.getElementById("id_inventory_slug");
      if (picker && picker.dataset.loaded !== event.target.value) picker.value = "";
    }
  });

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

  function init(root) {
    root.querySelectorAll("textarea[data-editor]").forEach(initEditor);
    const picker = document.getElementById("id_inventory_slug");
    const inventory = document.getElementById("id_inventory");
    if (picker && inventory && picker.value && !picker.dataset.loaded) picker.dataset.loaded = inventory.value;
    if (root.querySelector && (root.id === "results" || root.querySelector("#results") || root === document.body)) {
      markDiagnostics();
    }
    const share = root.querySelector ? root.querySelector("#share-url") : null;
    if (share) share.select();
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "results") markDiagnostics();
  });

  if (typeof htmx !== "undefined") {
    htmx.onLoad(init);
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document.body); });
  }
})();
