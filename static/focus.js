/* DRA Playground, editor page: the focus across results refreshes. No build step.
 *
 * A live update redraws the results while someone may be tabbing through them. htmx puts the
 * focus back on an element with an id; for the rest this file remembers the nearest ancestor with
 * an id and the element's place among its focusables, and focuses the same place afterwards.
 *
 * Shares on window.DRAPlayground: `FOCUSABLE`, the selector of what can take the focus (editors.js
 * uses it to leave an editor as Tab would).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
    'select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
  page.FOCUSABLE = FOCUSABLE;

  // htmx puts the focus back on an element with an id; for the rest (tiles, summaries, links in the
  // results) remember the nearest ancestor with an id and the element's place among its focusables.
  let focusMark = null;
  // A mark in the picture, whose live update sent an outline (``data-outline``) that draws itself once in
  // view: the outline holds the focus until its drawing comes, then the mark applies to the drawing.
  let waiting = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    const active = document.activeElement;
    const target = event.detail.target;
    focusMark = null;
    if (waiting && active === target && target.id === waiting.anchor) {
      focusMark = waiting;
      waiting = null;
      return;
    }
    waiting = null;
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
    if (anchor && anchor.hasAttribute("data-outline")) {
      waiting = mark;
      anchor.setAttribute("tabindex", "-1");
      anchor.focus({ preventScroll: true });
      return;
    }
    const candidates = anchor ? anchor.querySelectorAll(FOCUSABLE) : [];
    const el = candidates[Math.min(mark.index, candidates.length - 1)] || anchor;
    if (el) {
      if (!el.matches(FOCUSABLE)) el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    }
  });
})();
