/* DRA Playground, editor page: descriptions that no longer describe what is on screen. No build step.
 *
 * The inventory's description (a sample's) and the example banner (an example's expected outcome)
 * are rendered by the server for what it served; once the editors say something else, a note
 * says so rather than let them mislead.
 *
 * Shares on window.DRAPlayground: `markStale()` (kept-work.js on every save, playground.js on
 * every load).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  page.markStale = function markStale() {
    const picker = document.getElementById("id_inventory_slug");
    const inventoryStale = document.getElementById("inventory-stale");
    const editors = page.editors;
    if (inventoryStale && picker && editors.inventory) {
      inventoryStale.hidden = picker.dataset.loaded === editors.inventory.getValue();
    }
    const exampleStale = document.getElementById("example-stale");
    const unchanged = exampleStale ? page.workUnchanged() : null;
    if (unchanged !== null) exampleStale.hidden = unchanged;
  };
})();
