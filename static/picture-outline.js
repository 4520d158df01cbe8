/* DRA Playground, editor page: the inventory picture's place across live updates. No build step.
 *
 * A live update sends the picture as an outline (`data-outline`) that draws itself once in view
 * (`POST /picture`). The outline keeps the height of the picture it replaces and the results pane its
 * scroll position (the browser may move it while the pane's content is replaced), so what follows the
 * picture does not move, and a picture that was on screen is still on screen to be drawn again.
 */
(function () {
  "use strict";
  let before = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const picture = document.getElementById("picture");
    before = target && target.id === "results" && picture
      ? { height: picture.getBoundingClientRect().height, scrollTop: target.scrollTop } : null;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    const was = before;
    if (!was || !target || target.id !== "results") return;
    before = null;
    const outline = document.querySelector("#picture[data-outline]");
    if (!outline) return;
    outline.style.minHeight = was.height + "px";
    target.scrollTop = was.scrollTop;
  });
})();
