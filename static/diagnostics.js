/* DRA Playground, editor page: the results' diagnostics, shown in the editors. No build step.
 *
 * The results list errors and warnings as links that name an editor, a line and a column
 * (a.diagnostic[data-line]) and quick fixes as buttons that name one edit (button.apply-fix).
 * This file marks those lines in the editors' gutters, underlines in the claims editor the parts
 * of selectors that decided a verdict, moves the cursor to a diagnostic when its link is
 * clicked, and applies a quick fix as one undoable edit. It reads only what the server rendered.
 *
 * Shares on window.DRAPlayground: `markDiagnostics()` (playground.js calls it whenever new results
 * settle), `jumpTo(link)` and `applyFix(button)` (playground.js's click handler).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  function markDiagnostics() {
    const editors = page.editors;
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
  page.markDiagnostics = markDiagnostics;

  // Underline, in the claims editor, the parts of selectors that decided a verdict and are wrong or risky
  // (data-mark: an error, or false where the request matches nothing); a part that only filters some
  // devices out is not marked. The first place the editor holds that text is marked.
  function markDecidingParts() {
    const cm = page.editors.documents;
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

  page.jumpTo = function jumpTo(link) {
    const cm = page.editors[link.dataset.source];
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
  };

  // A quick fix (diagnostics[].fixes[]): one edit of the editor's text, undoable with Ctrl-Z; the
  // change event runs the live analysis as any edit does.
  page.applyFix = function applyFix(button) {
    const cm = page.editors[button.dataset.fixDocument];
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
    page.editorStatus("Applied: " + button.dataset.fixTitle + " (Ctrl-Z undoes it)", false);
    return true;
  };
})();
