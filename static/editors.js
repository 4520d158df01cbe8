/* DRA Playground, editor page: the YAML editors themselves. No build step.
 *
 * Turns each textarea[data-editor] into a CodeMirror 5 YAML editor that writes back into its
 * textarea and fires "input" on it, so that the live update (requests.js) sends it like any field
 * of the form. Tab indents with spaces (YAML forbids tabs) and leaves the editor after Esc;
 * Ctrl-Space asks editor-help.js for completion; Ctrl/Cmd-Enter runs and Ctrl/Cmd-S shares
 * (run-share-format.js). Wrapped lines hang under their own indentation, so that they never read
 * like a dedent. An uploaded inventory file is read into the inventory editor.
 *
 * Shares on window.DRAPlayground: `editors` ("documents" | "inventory" -> CodeMirror) and
 * `initEditor(textarea)`, which playground.js calls on every part of the page htmx loads.
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  const editors = {}; // "documents" | "inventory" -> CodeMirror
  page.editors = editors;

  function fire(textarea) {
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // Move the focus to the control after (or before) the editor, as Tab would.
  function focusNext(cm, forward) {
    const wrapper = cm.getWrapperElement();
    const all = Array.from(document.querySelectorAll(page.FOCUSABLE)).filter(function (el) {
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
      lineWrapping: true,
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
        "Ctrl-Space": function (cm) { if (window.DRAEditorHelp) window.DRAEditorHelp.complete(cm); },
        "Ctrl-Enter": function () { page.runNow(); },
        "Cmd-Enter": function () { page.runNow(); },
        "Ctrl-S": function () { page.share(); },
        "Cmd-S": function () { page.share(); },
      },
    });
    if (window.DRAEditorHelp) window.DRAEditorHelp.attach(cm);
    hangWrappedLines(cm);
    // The corner handle resizes the wrapper (CSS resize): let CodeMirror measure again.
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(function () { cm.refresh(); }).observe(cm.getWrapperElement());
    }
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
      page.editorStatus("", false); // "were formatted" and the like speak of the text before this edit
      cm.save();
      fire(textarea);
      page.scheduleSave();
    });
    editors[textarea.dataset.editor] = cm;
    textarea.cm = cm;
  }
  page.initEditor = initEditor;

  // A wrapped line hangs: its continuation starts two columns right of the line's own indentation, so it
  // never reads like a dedent (the first visual line keeps its place: a negative text-indent takes the
  // padding back).
  const LINE_PADDING_PX = 4; // CodeMirror's own padding of a line (codemirror.css)
  function hangWrappedLines(cm) {
    cm.on("renderLine", function (cm, line, elt) {
      const columns = CodeMirror.countColumn(line.text, null, cm.getOption("tabSize")) + 2;
      const offset = columns * cm.defaultCharWidth();
      elt.style.textIndent = "-" + offset + "px";
      elt.style.paddingLeft = (LINE_PADDING_PX + offset) + "px";
    });
    cm.refresh();
  }

  function readInventoryFile(input) {
    const file = input.files && input.files[0];
    const cm = editors.inventory;
    if (!file || !cm) return;
    if (!page.confirmReplaceInventory("the file " + file.name)) {
      input.value = "";
      return;
    }
    file.text().then(function (text) {
      const picker = document.getElementById("id_inventory_slug");
      if (picker) picker.value = picker.dataset.committed = "";
      const details = cm.getWrapperElement().closest("details");
      if (details) details.open = true;
      input.value = "";
      cm.setValue(text);
      cm.refresh();
    });
  }

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
})();
