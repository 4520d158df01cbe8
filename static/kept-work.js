/* DRA Playground, editor page: keep the work of each tab (sessionStorage). No build step.
 *
 * The form is kept per tab and per page, so that a reload or a way back brings the edits back
 * (and says so); Reset (any [data-reset] link) forgets them and goes back to the page as served.
 * When the edits are too large for the tab's storage, the page says at once that they are not
 * kept, and the next load says they are gone, rather than bringing back older ones as if they were
 * the edits. Share moves the work to the share's URL.
 *
 * Shares on window.DRAPlayground: `scheduleSave()`, `saveNow()`, `restoreWork()` and
 * `resetWork(href)` (playground.js), and `workUnchanged()`: whether the form is still as the server
 * rendered this page (null before the page has been read), for stale-notes.js.
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

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

  function playgroundForm() { return document.getElementById("playground-form"); }

  function readForm() {
    const form = playgroundForm();
    if (!form) return null;
    Object.values(page.editors).forEach(function (cm) { cm.save(); });
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
    page.markStale();
  }

  function scheduleSave() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, 250);
  }
  page.saveNow = saveNow;
  page.scheduleSave = scheduleSave;

  // Is the form still as the server rendered this page? null before the page has been read.
  page.workUnchanged = function () {
    return original ? sameState(readForm(), original) : null;
  };

  function applyState(state) {
    const form = playgroundForm();
    // The restored inventory is the restored sample's as loaded: putting it in the editor must not
    // turn the picker to "Custom" (see "An inventory typed or pasted by hand" in sample-picker.js).
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
    page.whileQuiet(function () { applyState(stored); });
    const status = document.getElementById("restored-status");
    if (status) status.hidden = false;
    if (typeof htmx !== "undefined" && ((stored.inventory_id || "") !== (original.inventory_id || "") ||
                                        (stored.inventory_slug || "") !== (original.inventory_slug || ""))) {
      // A stored cluster or another sample: the server renders its summary or the sample's description
      // with the form, so reload the form, not only the results.
      Object.values(page.editors).forEach(function (cm) { cm.save(); });
      htmx.ajax("POST", document.getElementById("live-update").getAttribute("hx-post"),
                { source: document.getElementById("live-update"), target: "#playground", select: "#playground",
                  swap: "outerHTML" })
        .catch(function () { /* replaced by a later request */ });
      return;
    }
    const inventory = document.getElementById("inventory-source");
    if (inventory && stored.inventory !== original.inventory) inventory.open = true;
    page.runNow();
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
  page.restoreWork = restoreWork;
  page.resetWork = resetWork;

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
})();
