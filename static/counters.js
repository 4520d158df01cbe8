/* DRA Playground: partitionable devices in the inventory picture. No build step.
 *
 * Hovering or focusing a device that consumes shared counters marks, within
 * its counter group, the counters it needs (their bars) and the devices it
 * excludes: placements that together with it need more of a counter than the
 * set has. The same facts are in the device's tooltip text, for keyboards and
 * screen readers alike; without JavaScript only the marking is missing.
 */
(function () {
  "use strict";

  function words(text) { return text ? text.split(" ").filter(Boolean) : []; }

  function mark(tile, on) {
    const group = tile.closest(".counter-group");
    if (!group) return;
    const excludes = words(tile.dataset.excludes);
    const needs = words(tile.dataset.consumes);
    tile.classList.toggle("excluding", on);
    group.querySelectorAll(".tile[data-name]").forEach(function (other) {
      other.classList.toggle("excluded", on && excludes.indexOf(other.dataset.name) >= 0);
    });
    group.querySelectorAll(".counter-bar").forEach(function (bar) {
      bar.classList.toggle("needed", on && needs.indexOf(bar.dataset.counter) >= 0);
    });
  }

  function tileOf(event) {
    return event.target && event.target.closest ? event.target.closest(".counter-group .tile[data-name]") : null;
  }

  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const tile = tileOf(event);
      if (tile) mark(tile, true);
    });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const tile = tileOf(event);
      if (!tile) return;
      // Moving within the tile (onto its name or tooltip) is not leaving it.
      if (event.relatedTarget && tile.contains(event.relatedTarget)) return;
      mark(tile, false);
    });
  });
})();
