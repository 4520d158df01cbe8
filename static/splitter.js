/* DRA Playground, editor page: the splitter between the form and the results. No build step.
 *
 * Dragged with the pointer or moved with the arrow keys (Home and End for the limits), it sets
 * the two columns' shares (30% to 75% for the form); this browser remembers it (localStorage).
 *
 * Shares on window.DRAPlayground: `initSplitter()` (playground.js, whenever the form is drawn).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  const SPLIT_KEY = "dra-playground:split";

  function setSplit(percent) {
    const playground = document.getElementById("playground");
    const splitter = document.getElementById("splitter");
    if (!playground || !splitter) return;
    percent = Math.round(Math.min(75, Math.max(30, percent)));
    playground.style.setProperty("--form-share", percent + "fr");
    playground.style.setProperty("--results-share", (100 - percent) + "fr");
    splitter.setAttribute("aria-valuenow", String(percent));
    Object.values(page.editors).forEach(function (cm) { cm.refresh(); });
  }

  page.initSplitter = function initSplitter() {
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
  };
})();
