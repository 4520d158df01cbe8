/* DRA Playground, editor page: ask before a custom inventory is replaced. No build step.
 *
 * An inventory the visitor pasted, uploaded or edited is kept nowhere else: picking a sample or
 * uploading a file would lose it, so the page asks first. A refused sample pick turns the picker
 * back to "Custom".
 *
 * Shares on window.DRAPlayground: `confirmReplaceInventory(what)` (editors.js, for an uploaded file).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

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

  page.confirmReplaceInventory = function confirmReplaceInventory(what) {
    return !inventoryIsCustom() || window.confirm(
      "Replace the inventory in the editor (your own, not a sample) with " + what + "? It is not saved anywhere else.");
  };

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
})();
