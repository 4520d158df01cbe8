/* DRA Playground, editor page: the inventory picture's place across live updates. No build step.
 *
 * A live update sends the picture as an outline (`data-outline`) that draws itself once in view
 * (`POST /picture`). The outline keeps the height of the picture it replaces and the results pane its
 * scroll position (the browser may move it while the pane's content is replaced), so what follows the
 * picture does not move, and a picture that was on screen is still on screen to be drawn again.
 *
 * A live update says whether the picture is in view (`picture_in_view`, kept by an IntersectionObserver):
 * in view, its answer draws the picture inline (one request a keystroke); out of view, it sends the outline.
 * Until the observer has spoken (or without it) the field is left out and the server draws inline.
 * A drawing's request that gets no answer says so in the outline, with Try again (loads-when-shown.js).
 */
(function () {
  "use strict";
  let before = null;

  // Whether the picture is in view, as the observer last saw it (null: not known yet).
  let inView = null;
  let watched = null;
  const observer = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) { if (entry.target === watched) inView = entry.isIntersecting; });
  }) : null;

  // Live updates and the drawing's own request replace #picture: watch the one on the page.
  function watch() {
    const picture = document.getElementById("picture");
    if (!observer || picture === watched) return;
    if (watched) observer.unobserve(watched);
    watched = picture;
    if (picture) observer.observe(picture);
  }
  document.addEventListener("DOMContentLoaded", watch);
  document.addEventListener("htmx:afterSettle", watch);

  document.addEventListener("htmx:configRequest", function (event) {
    const target = event.detail.target;
    const params = event.detail.parameters;
    if (inView === null || !params || !target || target.id !== "results") return;
    const value = inView ? "1" : "0";
    if (typeof params.set === "function") params.set("picture_in_view", value); else params.picture_in_view = value;
  });

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
