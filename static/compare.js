/* DRA Playground: Compare and "Show other grants" on the editor page. No build step.
 *
 * - the Compare checkbox shows or hides the right column's settings (the
 *   results follow through the form's live analysis, like any other edit;
 *   the settings wait in a <template> until Compare is first ticked);
 * - "Show other grants" / "Hide other grants" set the form's hidden
 *   `alternatives` field and run the analysis, so later edits keep the list;
 * - hovering or focusing an alternative highlights its devices in the
 *   inventory picture; the focus stays on the Show/Hide toggle.
 * Without JavaScript the buttons post the form and the settings stay shown.
 */
(function () {
  "use strict";

  // Ticked: the right column's settings (from their template the first time); unticked: hidden, kept.
  function showCompareSettings() {
    const toggle = document.getElementById("id_compare");
    if (!toggle) return;
    let settings = document.getElementById("compare-settings");
    const template = document.getElementById("compare-settings-template");
    if (!settings && toggle.checked && template) {
      template.parentNode.insertBefore(template.content.cloneNode(true), template);
      settings = document.getElementById("compare-settings");
    }
    if (settings) settings.hidden = !toggle.checked;
  }

  document.addEventListener("DOMContentLoaded", showCompareSettings);
  document.addEventListener("htmx:afterSettle", showCompareSettings);
  document.addEventListener("change", function (event) {
    if (event.target.id === "id_compare") showCompareSettings();
  });

  document.addEventListener("click", function (event) {
    const button = event.target.closest("#show-grants, #hide-grants");
    if (!button || typeof htmx === "undefined") return;
    const field = document.getElementById("id_alternatives");
    const run = document.getElementById("run-button");
    if (!field || !run) return;
    event.preventDefault();
    field.value = button.value === "0" ? "" : button.value;
    refocusGrants = true;
    run.click();
  });

  // The answer replaces the button: the focus goes to the one that takes its place (Hide for Show,
  // Show for Hide), not to the page's body.
  let refocusGrants = false;
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!refocusGrants || !event.detail.target || event.detail.target.id !== "results") return;
    refocusGrants = false;
    const toggle = document.getElementById("hide-grants") || document.getElementById("show-grants");
    if (toggle) toggle.focus({ preventScroll: true });
  });

  function highlight(grant, on) {
    const devices = (grant.dataset.devices || "").split(" ").filter(Boolean);
    grant.classList.toggle("hovered", on);
    document.querySelectorAll("#picture .tile[data-device]").forEach(function (tile) {
      tile.classList.toggle("alternative", on && devices.indexOf(tile.dataset.device) >= 0);
    });
  }

  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const grant = event.target.closest && event.target.closest("#grant-list .grant");
      if (grant) highlight(grant, true);
    });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const grant = event.target.closest && event.target.closest("#grant-list .grant");
      if (grant && !(event.relatedTarget && grant.contains(event.relatedTarget))) highlight(grant, false);
    });
  });
})();
