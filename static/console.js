/* DRA Playground: the expression console and Convert on the editor page. No build step.
 *
 * The console (in the results, fields tied to the editor's form by form=): the expression gets a small
 * CodeMirror editor with the claims editor's completion and hover (editor-help.js, every character of it
 * CEL); typing, picking a device in the list or clicking a device's tile in the picture, or changing the
 * environment evaluates it again (the Evaluate button's htmx request). Hovering a part of the answer's
 * tree marks its text in the expression.
 *
 * Convert: the "Convert to" menu on the claims editor and the "Rewrite in VERSION" buttons beside a "not
 * served" error send the editor's text to /editor/convert and put the answer in the editor as one edit
 * (Ctrl-Z takes it back); the fields the target version has no place for are listed under the editor.
 */
(function () {
  "use strict";

  let timer = null;

  function form() { return document.getElementById("playground-form"); }
  function consoleArea() { return document.getElementById("id_console_expression"); }

  function evaluate() {
    clearTimeout(timer);
    const area = consoleArea();
    const button = document.getElementById("console-button");
    if (!area || !button) return;
    if (area.cm) area.cm.save();
    if (!area.value.trim()) return;
    button.click();
  }

  function evaluateSoon() {
    clearTimeout(timer);
    timer = setTimeout(evaluate, 500);
  }

  function attach() {
    const area = consoleArea();
    if (!area || area.dataset.ready || typeof CodeMirror === "undefined") return;
    area.dataset.ready = "1";
    const cm = CodeMirror.fromTextArea(area, {
      mode: null,
      lineWrapping: true,
      viewportMargin: Infinity,
      extraKeys: {
        "Ctrl-Space": function (cm) { if (window.DRAEditorHelp) window.DRAEditorHelp.complete(cm); },
        "Ctrl-Enter": evaluate,
        "Cmd-Enter": evaluate,
        Enter: evaluate,
        "Shift-Enter": "newlineAndIndent",
        Tab: false,
        "Shift-Tab": false,
      },
    });
    cm.state.celOnly = true;
    cm.getWrapperElement().classList.add("console-editor");
    const input = cm.getInputField();
    input.setAttribute("aria-label", "Expression");
    input.setAttribute("aria-describedby", "console-hint");
    if (window.DRAEditorHelp) window.DRAEditorHelp.attach(cm);
    cm.on("change", function () {
      cm.save();
      // The page keeps its work (sessionStorage) on input events of the form's fields.
      area.dispatchEvent(new Event("input", { bubbles: true }));
      evaluateSoon();
    });
    area.cm = cm;
  }

  function pick(key) {
    const select = document.getElementById("id_console_device");
    if (!select || !key) return;
    if (!Array.prototype.some.call(select.options, function (o) { return o.value === key; })) {
      const option = document.createElement("option");
      option.value = option.textContent = key;
      select.appendChild(option);
    }
    select.value = key;
    // The page keeps its work on change events of the form's fields; this one also evaluates.
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("change", function (event) {
    const id = event.target.id;
    if (id === "id_console_device" || id === "id_console_env") evaluate();
  });

  // A tile of the picture picks its device for the console (click, or Enter on a focused tile).
  document.addEventListener("click", function (event) {
    const tile = event.target.closest && event.target.closest("#results .tile[data-device]");
    if (tile) pick(tile.dataset.device);
  });
  document.addEventListener("keydown", function (event) {
    const tile = event.target.closest && event.target.closest("#results .tile[data-device]");
    if (tile && event.key === "Enter" && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey) {
      pick(tile.dataset.device);
    }
  });

  // A part of the tree: mark its text in the expression while the pointer is on it.
  let mark = null;
  function unmark() { if (mark) { mark.clear(); mark = null; } }
  document.addEventListener("mouseover", function (event) {
    const part = event.target.closest && event.target.closest(".console-part");
    const area = consoleArea();
    unmark();
    if (!part || !area || !area.cm) return;
    const cm = area.cm;
    const start = parseInt(part.dataset.start, 10), end = parseInt(part.dataset.end, 10);
    if (isNaN(start) || isNaN(end)) return;
    mark = cm.markText(cm.posFromIndex(start), cm.posFromIndex(end), { className: "cm-console-part" });
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "results") attach();
  });
  document.addEventListener("DOMContentLoaded", function () { setTimeout(attach, 0); });
  if (document.readyState !== "loading") setTimeout(attach, 0);

  // ------------------------------------------------------------------ The scratch device
  // Picking "Scratch device" opens its YAML; typing in it evaluates again once the typing pauses, when the
  // console evaluates on it.

  function onScratch() {
    const select = document.getElementById("id_console_device");
    return !!select && select.value === "scratch";
  }

  document.addEventListener("change", function (event) {
    if (event.target.id !== "id_console_device" || !onScratch()) return;
    const details = document.getElementById("console-scratch");
    if (details) details.open = true;
  });
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_console_scratch" && onScratch()) evaluateSoon();
  });

  // ------------------------------------------------------------------ Convert

  function convertStatus(message, dropped, isError) {
    const status = document.getElementById("convert-status");
    if (!status) return;
    status.textContent = "";
    status.hidden = !message;
    status.classList.toggle("error", !!isError);
    const p = document.createElement("p");
    p.textContent = message;
    status.appendChild(p);
    if (dropped && dropped.length) {
      const list = document.createElement("ul");
      list.id = "convert-dropped";
      dropped.forEach(function (d) {
        const li = document.createElement("li");
        const code = document.createElement("code");
        code.textContent = d.field;
        li.appendChild(document.createTextNode(d.kind + (d.name ? " " + d.name : "") + ": "));
        li.appendChild(code);
        li.appendChild(document.createTextNode(" — " + d.detail));
        list.appendChild(li);
      });
      status.appendChild(list);
    }
  }

  function convert(version) {
    const area = document.getElementById("id_documents");
    const menu = document.getElementById("convert-to");
    const f = form();
    if (!area || !area.cm || !menu || !f || !version) return;
    const cm = area.cm;
    const body = new FormData();
    body.append("documents", cm.getValue());
    body.append("to", version);
    const release = document.getElementById("id_kubernetes_version");
    if (release) body.append("kubernetes_version", release.value);
    document.querySelectorAll("#gate-list select[name^='gate_']").forEach(function (el) {
      if (!el.disabled && el.value) body.append(el.name, el.value);
    });
    const token = f.querySelector("input[name=csrfmiddlewaretoken]");
    const before = cm.getValue();
    fetch(menu.dataset.convertUrl, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": token ? token.value : "" },
    }).then(function (r) {
      return r.json().then(function (data) { return { ok: r.ok, data: data }; }, function () {
        return { ok: false, data: { error: "The server could not convert it (HTTP " + r.status + ")." } };
      });
    }).then(function (answer) {
      if (!answer.ok) return convertStatus(answer.data.error, null, true);
      if (cm.getValue() !== before) return convertStatus("The text changed meanwhile: nothing was converted.", null, true);
      const dropped = answer.data.dropped || [];
      cm.operation(function () {
        // One edit of the whole text: Ctrl-Z in the editor takes it back at once.
        cm.replaceRange(answer.data.text, CodeMirror.Pos(0, 0), CodeMirror.Pos(cm.lastLine()), "+convert");
      });
      cm.focus();
      convertStatus("Converted to " + answer.data.apiVersion + " (comments are not kept; Ctrl-Z in the editor undoes it)." +
        (dropped.length ? " " + dropped.length + " field" + (dropped.length === 1 ? " has" : "s have") +
          " no place in " + answer.data.apiVersion + " and " + (dropped.length === 1 ? "is" : "are") + " not in the output:"
          : ""), dropped, false);
    }, function () {
      convertStatus("The server cannot be reached; nothing was converted.", null, true);
    }).finally(function () { menu.value = ""; });
  }

  document.addEventListener("change", function (event) {
    if (event.target.id === "convert-to" && event.target.value) convert(event.target.value);
  });
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("button.rewrite-version");
    if (button) convert(button.dataset.rewrite);
  });
})();
