/* DRA Playground: the editor page's small script. No build step.
 *
 * - turns each textarea[data-editor] into a CodeMirror 5 YAML editor that
 *   writes back into the textarea and fires "input" on it, so the live
 *   update (debounced) sends it;
 * - sends every request from an element that names its URL and target, and
 *   keeps answers in order (see "requests: URL, target, order");
 * - marks errors and warnings from the results in the editors' gutters, and
 *   moves the cursor to one when its link is clicked;
 * - reads an uploaded inventory file into the inventory editor;
 * - copies the status.allocation YAML, and explains refused requests (413, 429);
 * - completion and hover help (static/editor-help.js), Format, Ctrl/Cmd-Enter
 *   (run) and Ctrl/Cmd-S (share);
 * - keeps the form in sessionStorage per tab and page, so a reload keeps the
 *   edits (Reset forgets them), says at once when they are too large to keep,
 *   and asks before a custom inventory is replaced;
 * - says when the inventory description or the example banner no longer
 *   describes what is on screen;
 * - the splitter between the form and the results, the focus across
 *   results refreshes, and the verdict brought into view when it changes;
 * - the sample picker loads on a mouse pick at once, on the keyboard once
 *   the arrows settle; the node field analyses once a name is complete.
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
        "Ctrl-Enter": function () { runNow(); },
        "Cmd-Enter": function () { runNow(); },
        "Ctrl-S": function () { share(); },
        "Cmd-S": function () { share(); },
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
      editorStatus("", false); // "were formatted" and the like speak of the text before this edit
      cm.save();
      fire(textarea);
      scheduleSave();
    });
    editors[textarea.dataset.editor] = cm;
    textarea.cm = cm;
  }

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

  function markDiagnostics() {
    Object.values(editors).forEach(function (cm) {
      cm.clearGutter("diagnostics");
      (cm.state.diagnosticLines || []).forEach(function (h) {
        if (h.lineNo() !== null) cm.removeLineClass(h, "background");
      });
      cm.state.diagnosticLines = [];
    });
    document.querySelectorAll("#results a.diagnostic[data-line]:not([data-repeat])").forEach(function (link) {
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
    markDecidingParts();
  }

  // Underline, in the claims editor, the parts of selectors that decided a verdict and are wrong or risky
  // (data-mark: an error, or false where the request matches nothing); a part that only filters some
  // devices out is not marked. The first place the editor holds that text is marked.
  function markDecidingParts() {
    const cm = editors.documents;
    if (!cm) return;
    (cm.state.whyMarks || []).forEach(function (mark) { mark.clear(); });
    cm.state.whyMarks = [];
    const text = cm.getValue();
    const seen = {};
    document.querySelectorAll("#results .why-part[data-text][data-mark]").forEach(function (part) {
      const wanted = part.dataset.text;
      if (!wanted || seen[wanted]) return;
      seen[wanted] = true;
      const at = text.indexOf(wanted);
      if (at < 0) return;
      cm.state.whyMarks.push(cm.markText(cm.posFromIndex(at), cm.posFromIndex(at + wanted.length), {
        className: "cm-why-part cm-why-" + part.dataset.mark,
        attributes: { title: part.dataset.summary || "" },
      }));
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

  // A quick fix (diagnostics[].fixes[]): one edit of the editor's text, undoable with Ctrl-Z; the
  // change event runs the live analysis as any edit does.
  function applyFix(button) {
    const cm = editors[button.dataset.fixDocument];
    if (!cm) return false;
    const number = function (name) { return parseInt(button.dataset[name], 10) - 1; };
    const from = { line: number("fixStartLine"), ch: number("fixStartColumn") };
    const to = { line: number("fixEndLine"), ch: number("fixEndColumn") };
    if ([from.line, from.ch, to.line, to.ch].some(isNaN) || to.line >= cm.lineCount()) return false;
    const details = cm.getWrapperElement().closest("details");
    if (details) details.open = true;
    const replacement = button.dataset.fixReplacement;
    cm.replaceRange(replacement, from, to, "+fix");
    cm.refresh();
    cm.focus();
    cm.setSelection(from, cm.posFromIndex(cm.indexFromPos(from) + replacement.length));
    cm.scrollIntoView(from, 80);
    editorStatus("Applied: " + button.dataset.fixTitle + " (Ctrl-Z undoes it)", false);
    return true;
  }

  function readInventoryFile(input) {
    const file = input.files && input.files[0];
    const cm = editors.inventory;
    if (!file || !cm) return;
    if (!confirmReplaceInventory("the file " + file.name)) {
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

  function showRequestError(message) {
    const status = document.getElementById("request-status");
    if (!status) return;
    status.textContent = message;
    status.hidden = !message;
  }

  // ------------------------------------------------------------------ run, share, format

  function playgroundForm() { return document.getElementById("playground-form"); }

  // Analyse now, as a live edit would, without waiting for the typing pause.
  function runNow() {
    Object.values(editors).forEach(function (cm) { cm.save(); });
    sendLiveUpdate();
  }

  function share() {
    const button = document.getElementById("share-button");
    if (button) button.click();
  }

  function editorStatus(message, isError) {
    const status = document.getElementById("editor-status");
    if (!status) return;
    status.textContent = message;
    status.classList.toggle("error", !!isError);
  }

  function formatEditor(name) {
    const cm = editors[name];
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
  }

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

  document.addEventListener("click", function (event) {
    const reset = event.target.closest("[data-reset]");
    if (reset) {
      event.preventDefault();
      resetWork(reset.getAttribute("href"));
      return;
    }
    const format = event.target.closest("button[data-format]");
    if (format) {
      formatEditor(format.dataset.format);
      return;
    }
    if (event.target.closest("#run-button") && typeof htmx !== "undefined") {
      event.preventDefault();
      runNow();
      return;
    }
    const fix = event.target.closest("button.apply-fix");
    if (fix) {
      event.preventDefault();
      applyFix(fix);
      return;
    }
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

  // ------------------------------------------------------------------ requests: URL, target, order

  // A request of the form's own takes the formaction of the submit button that last had the focus
  // (htmx's submitter): with How many fit?'s Run focused, a live update went to /capacity and its answer
  // replaced the whole results. So no request goes out from the form: each from an element that names
  // its URL and target (#live-update, the sample picker, the panels' buttons), sent here explicitly
  // rather than through an htmx trigger, which a just-swapped element has not been set up for yet.
  function sendFrom(source) {
    if (!source || typeof htmx === "undefined") return;
    htmx.ajax("POST", source.getAttribute("hx-post"), {
      source: source, target: source.getAttribute("hx-target"), swap: source.getAttribute("hx-swap"),
      select: source.getAttribute("hx-select") || undefined,
    }).catch(function () { /* replaced by a newer request (hx-sync) */ });
  }

  // Live analysis: every edit of the form (but of controls marked data-no-live, which act on their own)
  // becomes a "live-edit" event; the live update leaves once the edits pause. A pick, Run or Ctrl-Enter
  // sends the form at once, and with it the pending edit.
  const LIVE_PAUSE_MS = 400;
  let liveTimer = null;
  let quiet = false; // restoring the tab's work: it sends one request of its own
  function cancelLiveUpdate() {
    clearTimeout(liveTimer);
    liveTimer = null;
  }
  function sendLiveUpdate() {
    cancelLiveUpdate();
    sendFrom(document.getElementById("live-update"));
  }
  document.addEventListener("input", function (event) {
    const target = event.target;
    if (quiet || !target.form || target.form.id !== "playground-form" || target.hasAttribute("data-no-live")) return;
    target.dispatchEvent(new CustomEvent("live-edit", { bubbles: true }));
  });
  document.addEventListener("live-edit", function () {
    cancelLiveUpdate();
    liveTimer = setTimeout(sendLiveUpdate, LIVE_PAUSE_MS);
  });

  // Answers in order. Every request remembers how many edits of the form there had been when it left.
  // An answer whose target was replaced meanwhile (a live update redraws the panels) goes to the
  // element that replaced it if nothing was edited since it was asked, and is dropped otherwise; a
  // live update keeps a panel's answer to the same edit (How many fit? run in the typing pause).
  // Requests to one target are ordered by hx-sync (the form's, the panels' buttons' own).
  let edits = 0;
  function countEdit(event) {
    if (event.target.form && event.target.form.id === "playground-form") edits += 1;
  }
  document.addEventListener("input", countEdit, true);
  document.addEventListener("change", countEdit, true);

  function placeAnswer(event) {
    const detail = event.detail;
    if (!detail.target || detail.target.isConnected) return;
    const current = detail.target.id ? document.getElementById(detail.target.id) : null;
    if (current && detail.xhr.askedAfterEdits === edits) detail.target = current;
    else event.preventDefault();
  }

  const placing = new WeakSet(); // the elements placeAnswer listens on
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.xhr.askedAfterEdits = edits;
    // On the element itself: its events no longer reach the document once a swap has removed it.
    const source = event.detail.elt;
    if (source && !placing.has(source)) {
      placing.add(source);
      source.addEventListener("htmx:beforeOnLoad", placeAnswer);
    }
  });

  let panelAnswers = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    panelAnswers = [];
    if (!target || target.id !== "results" || !event.detail.shouldSwap) return;
    const asked = String(event.detail.xhr.askedAfterEdits);
    target.querySelectorAll("[data-answers-edits]").forEach(function (panel) {
      if (panel.id && panel.dataset.answersEdits === asked) panelAnswers.push(panel);
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    if (target && target.id !== "results" && target.id !== "playground" && event.detail.xhr) {
      target.dataset.answersEdits = String(event.detail.xhr.askedAfterEdits);
    }
    panelAnswers.forEach(function (old) {
      const fresh = document.getElementById(old.id);
      if (!fresh || fresh === old || fresh.textContent.trim()) return;
      fresh.replaceChildren.apply(fresh, Array.from(old.childNodes));
      fresh.dataset.answersEdits = old.dataset.answersEdits;
    });
    panelAnswers = [];
  });

  // The node fields (a datalist of the inventory's node names) analyse once a name is complete:
  // empty (every node), one of the names, or whatever it holds on Enter or on leaving it.
  function nodeEdit(event) {
    const field = event.target;
    if (field.id !== "id_node" && field.id !== "id_compare_node") return;
    const names = field.list ? Array.prototype.map.call(field.list.options, function (o) { return o.value; }) : [];
    if (event.type === "change" || !field.value || names.indexOf(field.value) >= 0) {
      if (field.dataset.sent === field.value) return;
      field.dataset.sent = field.value;
      field.dispatchEvent(new CustomEvent("live-edit", { bubbles: true }));
    }
  }
  document.addEventListener("input", nodeEdit);
  document.addEventListener("change", nodeEdit);

  // Enter in a one-line field of the form (the node, Find nodes) analyses now (in the count of
  // "How many fit?": runs the panel), rather than submitting the whole page as a form without
  // script would.
  document.addEventListener("keydown", function (event) {
    const field = event.target;
    if (event.key !== "Enter" || event.defaultPrevented || !field.form || field.form.id !== "playground-form" ||
        field.tagName !== "INPUT" || !/^(text|search)$/.test(field.type)) return;
    event.preventDefault();
    if (field.id === "id_node" || field.id === "id_compare_node") nodeEdit({ type: "change", target: field });
    else if (field.id === "id_capacity_max") document.getElementById("capacity-button").click(); // the panel's Run
    else runNow();
  });

  // "Use my cluster": only the store button sends the cluster, and a pasted one goes as a file
  // (form fields are held to the site's small body limit, files to the stored-inventory limit).
  // Every other request of the form (live edits above all) leaves the cluster fields out.
  document.addEventListener("htmx:configRequest", function (event) {
    const params = event.detail.parameters;
    if (!params || typeof params.delete !== "function") return;
    const fromStore = event.detail.elt && event.detail.elt.id === "store-cluster-button";
    const pasted = params.get("cluster_text");
    const file = params.get("cluster_file");
    params.delete("cluster_text");
    if (!fromStore) {
      params.delete("cluster_file");
    } else if ((!file || !file.size) && pasted) {
      params.set("cluster_file", new File([pasted], "pasted.yaml", { type: "application/yaml" }));
      params.set("cluster_pasted", "1"); // a refused paste comes back in the textarea
      lastPaste = pasted;
    } else {
      lastPaste = "";
    }
  });

  // A refused paste the server could not send back (too large to read): put it back from here.
  let lastPaste = "";
  function restorePaste() {
    const error = document.getElementById("cluster-error");
    const textarea = document.getElementById("id_cluster_text");
    if (error && textarea && !textarea.value && lastPaste) textarea.value = lastPaste;
    lastPaste = "";
  }

  // An inventory typed or pasted by hand is a custom one.
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_inventory") {
      const picker = document.getElementById("id_inventory_slug");
      if (picker && picker.dataset.loaded !== event.target.value) picker.value = picker.dataset.committed = "";
    }
  });

  // ------------------------------------------------------------------ keep the work (sessionStorage)

  const STORE_PREFIX = "dra-playground:";
  let original = null; // the form as the server rendered this page
  let saveTimer = null;

  let pagePath = location.pathname; // the page whose work this is

  function storeKey() { return STORE_PREFIX + pagePath; }
  // Set when this page's work could not be kept: the next load says so instead of restoring.
  function lostKey() { return STORE_PREFIX + "not-kept:" + pagePath; }

  const NOT_KEPT = "Your edits are too large for this browser tab to keep: reloading or leaving the page loses them.";
  const WAS_NOT_KEPT = "Your last edits in this tab were too large to keep, so they are gone: this is the page as it was served.";

  function keepStatus(message) {
    const status = document.getElementById("keep-status");
    if (status && status.textContent !== message) status.textContent = message;
  }

  function readForm() {
    const form = playgroundForm();
    if (!form) return null;
    Object.values(editors).forEach(function (cm) { cm.save(); });
    const state = {};
    const fields = "textarea[name], select[name], input[name=inventory_id], input[name=node], input[name=compare_node]";
    Array.prototype.forEach.call(form.querySelectorAll(fields), function (el) {
      if (el.name !== "cluster_text") state[el.name] = el.value;
    });
    // The "How many fit?" panel's count and node choice, and the console's fields, live in the results,
    // tied to the form by form=.
    Array.prototype.forEach.call(document.querySelectorAll("[form='playground-form'][name^='capacity_'], [form='playground-form'][name^='console_']"), function (el) {
      state[el.name] = el.value;
    });
    return state;
  }

  function sameState(a, b) {
    if (!a || !b) return false;
    const keys = Object.keys(a).concat(Object.keys(b));
    return keys.every(function (k) { return (a[k] || "") === (b[k] || ""); });
  }

  function saveNow() {
    const state = readForm();
    if (!state || !original) return;
    try {
      if (sameState(state, original)) sessionStorage.removeItem(storeKey());
      else sessionStorage.setItem(storeKey(), JSON.stringify(state));
      sessionStorage.removeItem(lostKey());
      keepStatus("");
    } catch (e) {
      // Storage full (a paste of megabytes) or off: forget the other pages' work and try again; failing
      // that, drop the older state of this page (a reload must not bring it back as if it were the
      // edits) and say at once that the edits are not kept.
      try {
        Object.keys(sessionStorage).forEach(function (k) {
          if (k.indexOf(STORE_PREFIX) === 0 && k !== storeKey()) sessionStorage.removeItem(k);
        });
        sessionStorage.setItem(storeKey(), JSON.stringify(state));
        keepStatus("");
      } catch (e2) {
        try {
          sessionStorage.removeItem(storeKey());
          sessionStorage.setItem(lostKey(), "1");
        } catch (e3) { /* storage off */ }
        keepStatus(NOT_KEPT);
      }
    }
    markStale();
  }

  function scheduleSave() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, 250);
  }

  function applyState(state) {
    const form = playgroundForm();
    // The restored inventory is the restored sample's as loaded: putting it in the editor must not
    // turn the picker to "Custom" (see "An inventory typed or pasted by hand").
    const slugPicker = document.getElementById("id_inventory_slug");
    if (slugPicker && state.inventory_slug) slugPicker.dataset.loaded = state.inventory || "";
    Object.keys(state).forEach(function (name) {
      const el = form.elements.namedItem(name);
      if (!el || el.type === "file" || (el.type === "hidden" && name !== "inventory_id")) return;
      // A gate locked in the release the page was served with may be free in the restored one:
      // send it, and the answer's gate list locks again what that release locks.
      if (el.tagName === "SELECT" && el.disabled && name.indexOf("gate_") === 0) el.disabled = false;
      if (el.tagName === "SELECT" && !Array.prototype.some.call(el.options, function (o) { return o.value === state[name]; })) {
        const option = document.createElement("option");
        option.value = option.textContent = state[name];
        el.appendChild(option);
      }
      if (el.cm) el.cm.setValue(state[name]);
      else el.value = state[name];
    });
    const picker = document.getElementById("id_inventory_slug");
    const inventory = document.getElementById("id_inventory");
    if (picker && inventory) picker.dataset.loaded = picker.value ? inventory.value : "\u0000";
    if (picker) picker.dataset.committed = picker.value;
  }

  function restoreWork() {
    original = readForm();
    if (!original) return;
    let stored = null;
    let lost = false;
    try {
      stored = JSON.parse(sessionStorage.getItem(storeKey()) || "null");
      lost = !!sessionStorage.getItem(lostKey());
    } catch (e) { stored = null; }
    if (lost) {
      keepStatus(WAS_NOT_KEPT);
      return;
    }
    if (!stored || sameState(stored, original)) return;
    quiet = true;
    try { applyState(stored); } finally { quiet = false; }
    const status = document.getElementById("restored-status");
    if (status) status.hidden = false;
    if (typeof htmx !== "undefined" && ((stored.inventory_id || "") !== (original.inventory_id || "") ||
                                        (stored.inventory_slug || "") !== (original.inventory_slug || ""))) {
      // A stored cluster or another sample: the server renders its summary or the sample's description
      // with the form, so reload the form, not only the results.
      Object.values(editors).forEach(function (cm) { cm.save(); });
      htmx.ajax("POST", document.getElementById("live-update").getAttribute("hx-post"),
                { source: document.getElementById("live-update"), target: "#playground", select: "#playground",
                  swap: "outerHTML" })
        .catch(function () { /* replaced by a later request */ });
      return;
    }
    const inventory = document.getElementById("inventory-source");
    if (inventory && stored.inventory !== original.inventory) inventory.open = true;
    runNow();
  }

  function resetWork(href) {
    const state = readForm();
    if (state && original && !sameState(state, original) &&
        !window.confirm("Discard your edits in this tab and go back to the page as it was served?")) return;
    try {
      sessionStorage.removeItem(storeKey());
      sessionStorage.removeItem(lostKey());
    } catch (e) { /* storage off */ }
    original = null; // nothing more to save on the way out
    const path = /^\/(import|export|share)$/.test(location.pathname) ? "/" : location.pathname + location.search;
    location.replace(href || path);
  }

  document.addEventListener("input", function (event) {
    if (event.target.form && event.target.form.id === "playground-form") scheduleSave();
  });
  document.addEventListener("change", function (event) {
    if (event.target.form && event.target.form.id === "playground-form") scheduleSave();
  });
  window.addEventListener("pagehide", function () { if (original) saveNow(); });

  // Share pushes the share's URL: the work is saved there now, so the page it came from (an example,
  // say) opens as published again, and later edits are kept under the new URL.
  document.addEventListener("htmx:pushedIntoHistory", function (event) {
    const from = storeKey();
    try { sessionStorage.removeItem(from); } catch (e) { /* storage off */ }
    pagePath = new URL(event.detail.path, location.href).pathname;
    original = readForm();
    const status = document.getElementById("restored-status");
    if (status) status.hidden = true;
  });

  // ------------------------------------------------------------------ ask before replacing a custom inventory

  // Is the inventory in the editor one of the user's own (pasted, uploaded, edited)? Read from the
  // current form, which may be a just-loaded one whose editors this script has not set up yet.
  function inventoryIsCustom() {
    const textarea = document.getElementById("id_inventory");
    const picker = document.getElementById("id_inventory_slug");
    if (!textarea) return false;
    const text = textarea.cm ? textarea.cm.getValue() : textarea.value;
    if (!text.trim()) return false;
    if (picker && picker.dataset.loaded !== undefined) return picker.dataset.loaded !== text;
    return !(textarea.dataset.sample && text === textarea.defaultValue);
  }

  function confirmReplaceInventory(what) {
    return !inventoryIsCustom() || window.confirm(
      "Replace the inventory in the editor (your own, not a sample) with " + what + "? It is not saved anywhere else.");
  }

  document.addEventListener("htmx:confirm", function (event) {
    const picker = event.detail.elt;
    if (!picker || picker.id !== "id_inventory_slug") return;
    const option = picker.options[picker.selectedIndex];
    if (!inventoryIsCustom()) return;
    event.preventDefault();
    if (window.confirm("Replace the inventory in the editor (your own, not a sample) with the sample \u201c" +
                       (option ? option.textContent.trim() : picker.value) + "\u201d? It is not saved anywhere else.")) {
      event.detail.issueRequest(true);
    } else {
      picker.value = picker.dataset.committed = "";
    }
  });

  // ------------------------------------------------------------------ the sample inventory picker

  // A pick loads the sample (sent from the picker's own hx- attributes). A mouse pick loads at
  // once; arrowing through the closed list loads only once the keys settle, on Enter, or when the
  // focus leaves, so that passing a sample does not load it.
  const PICK_SETTLE_MS = 1000;
  let pickTimer = null;
  let pickByKey = false;

  function commitPick(picker) {
    clearTimeout(pickTimer);
    pickTimer = null;
    if (picker.value === picker.dataset.committed) return;
    picker.dataset.committed = picker.value;
    cancelLiveUpdate(); // the load sends the pending edit with the form
    sendFrom(picker);
  }

  document.addEventListener("keydown", function (event) {
    const picker = event.target;
    if (picker.id !== "id_inventory_slug") return;
    if (event.key === "Enter") {
      event.preventDefault();
      commitPick(picker);
    } else if (event.key !== " " && event.key !== "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) {
      pickByKey = true; // arrows, Home/End, PageUp/PageDown, typing a title's first letters
    }
  }, true);
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("#id_inventory_slug")) pickByKey = false;
  }, true);
  document.addEventListener("change", function (event) {
    const picker = event.target;
    if (picker.id !== "id_inventory_slug") return;
    if (!pickByKey) return commitPick(picker);
    pickByKey = false;
    clearTimeout(pickTimer);
    pickTimer = setTimeout(function () { commitPick(picker); }, PICK_SETTLE_MS);
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.id === "id_inventory_slug" && pickTimer) commitPick(event.target);
  });

  // ------------------------------------------------------------------ stale descriptions

  function markStale() {
    const picker = document.getElementById("id_inventory_slug");
    const inventoryStale = document.getElementById("inventory-stale");
    if (inventoryStale && picker && editors.inventory) {
      inventoryStale.hidden = picker.dataset.loaded === editors.inventory.getValue();
    }
    const exampleStale = document.getElementById("example-stale");
    if (exampleStale && original) exampleStale.hidden = sameState(readForm(), original);
  }

  // ------------------------------------------------------------------ the splitter between form and results

  const SPLIT_KEY = STORE_PREFIX + "split";

  function setSplit(percent) {
    const playground = document.getElementById("playground");
    const splitter = document.getElementById("splitter");
    if (!playground || !splitter) return;
    percent = Math.round(Math.min(75, Math.max(30, percent)));
    playground.style.setProperty("--form-share", percent + "fr");
    playground.style.setProperty("--results-share", (100 - percent) + "fr");
    splitter.setAttribute("aria-valuenow", String(percent));
    Object.values(editors).forEach(function (cm) { cm.refresh(); });
  }

  function initSplitter() {
    const splitter = document.getElementById("splitter");
    if (!splitter || splitter.dataset.ready) return;
    splitter.dataset.ready = "1";
    let saved = null;
    try { saved = parseFloat(localStorage.getItem(SPLIT_KEY)); } catch (e) { saved = null; }
    if (saved) setSplit(saved);
    function keep() {
      try { localStorage.setItem(SPLIT_KEY, splitter.getAttribute("aria-valuenow")); } catch (e) { /* storage off */ }
    }
    splitter.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      splitter.setPointerCapture(event.pointerId);
      splitter.classList.add("dragging");
    });
    splitter.addEventListener("pointermove", function (event) {
      if (!splitter.classList.contains("dragging")) return;
      const box = document.getElementById("playground").getBoundingClientRect();
      setSplit((event.clientX - box.left) / box.width * 100);
    });
    splitter.addEventListener("pointerup", function () { splitter.classList.remove("dragging"); keep(); });
    splitter.addEventListener("keydown", function (event) {
      const now = parseFloat(splitter.getAttribute("aria-valuenow")) || 57;
      const step = { ArrowLeft: -5, ArrowRight: 5, Home: -100, End: 100 }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      setSplit(now + step);
      keep();
    });
  }

  // ------------------------------------------------------------------ focus across results refreshes

  // htmx puts the focus back on an element with an id; for the rest (tiles, summaries, links in the
  // results) remember the nearest ancestor with an id and the element's place among its focusables.
  let focusMark = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    const active = document.activeElement;
    const target = event.detail.target;
    focusMark = null;
    if (!active || active === document.body || !target || !target.contains(active) || active.id) return;
    const anchor = active.parentElement.closest("[id]");
    if (!anchor) return;
    focusMark = { anchor: anchor.id, index: Array.prototype.indexOf.call(anchor.querySelectorAll(FOCUSABLE), active) };
  });

  document.addEventListener("htmx:afterSettle", function () {
    const mark = focusMark;
    focusMark = null;
    if (!mark || (document.activeElement && document.activeElement !== document.body)) return;
    const anchor = document.getElementById(mark.anchor);
    const candidates = anchor ? anchor.querySelectorAll(FOCUSABLE) : [];
    const el = candidates[Math.min(mark.index, candidates.length - 1)] || anchor;
    if (el) {
      if (!el.matches(FOCUSABLE)) el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
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
    if (picker && picker.dataset.committed === undefined) picker.dataset.committed = picker.value;
    if (root === document.body) {
      restoreWork();
      initSplitter();
    } else if (root.id === "playground") {
      initSplitter();
      restorePaste();
      saveNow(); // a sample was loaded: that is the work now
    }
    if (root.querySelector && (root.id === "results" || root.querySelector("#results") || root === document.body)) {
      markDiagnostics();
    }
    markStale();
    const share = root.querySelector ? root.querySelector("#share-url") : null;
    if (share) share.select();
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "results") markDiagnostics();
  });

  // ------------------------------------------------------------------ a new verdict comes into view

  // Beside the form the results pane scrolls on its own: when the verdict changes (Allocated to Not
  // valid, say) while the pane is scrolled past it, scroll back to it.
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

  if (typeof htmx !== "undefined") {
    htmx.onLoad(init);
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document.body); });
  }
})();
