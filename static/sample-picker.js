/* DRA Playground, editor page: the sample inventory picker. No build step.
 *
 * A pick loads the sample: a mouse pick at once, the keyboard only once the arrows settle (or on
 * Enter, or when the focus leaves), so that passing a sample on the way to another does not load
 * it. An inventory typed or pasted by hand turns the picker to "Custom". The picker's dataset says
 * which inventory text was loaded (`loaded`) and which pick was sent (`committed`).
 *
 * Shares nothing on window.DRAPlayground; uses `sendFrom` and `cancelLiveUpdate` (requests.js).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

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
    page.cancelLiveUpdate(); // the load sends the pending edit with the form
    page.sendFrom(picker);
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

  // An inventory typed or pasted by hand is a custom one.
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_inventory") {
      const picker = document.getElementById("id_inventory_slug");
      if (picker && picker.dataset.loaded !== event.target.value) picker.value = picker.dataset.committed = "";
    }
  });
})();
