// The mouse wheel over a graph view scrolls the page, as over any other output: a student
// scrolling through a notebook is not caught zooming a graph on the way. Ctrl (or Cmd) + wheel
// zooms the view, as a trackpad pinch does, and so does the wheel over a drawing once it was
// clicked, until the mouse leaves the view (a view of several plots zooms the one clicked). A wheel passed to the page says so on the view for a moment, along
// the view's edge away from the mouse: a card drawn beside the node under it stays readable.
// Shared by the sigma views (webgl_budget.js) and BigGraphView (js/big_graph, bundled).
const HINT =
  "position:absolute;left:50%;transform:translateX(-50%);z-index:5;pointer-events:none;" +
  "background:rgba(20,20,20,.78);color:#fff;font:12px sans-serif;padding:4px 8px;" +
  "border-radius:4px;white-space:nowrap;transition:opacity .3s";

export function wheelScrollsPage(host) {
  if (host.__graphpartWheel) return;
  host.__graphpartWheel = true;
  let engaged = null; // the drawing clicked: the box holding its canvases
  const drawing = (target) =>
    (target instanceof Element && target.closest("canvas")?.parentElement) || host;
  let hint = null;
  let timer = 0;
  const hide = () => {
    if (hint) hint.style.opacity = "0";
  };
  host.addEventListener("pointerdown", (e) => { engaged = drawing(e.target); hide(); }, true);
  host.addEventListener("pointerleave", () => { engaged = null; });
  host.addEventListener(
    "wheel",
    (e) => {
      if (engaged?.contains(e.target) || e.ctrlKey || e.metaKey) return;
      e.stopPropagation(); // the view below never sees it; the page scrolls
      if (!hint) {
        hint = document.createElement("div");
        hint.className = "graphpart-wheel-hint";
        hint.style.cssText = HINT;
        if (getComputedStyle(host).position === "static") host.style.position = "relative";
        host.append(hint);
      }
      // the drawing under the mouse (a canvas), not the whole view with its captions
      const r = host.getBoundingClientRect();
      const d = e.target instanceof Element ? e.target.getBoundingClientRect() : r;
      // a narrow view (four abreast) gets the short text: the long one would cover it all
      hint.textContent = d.width < 480
        ? "Ctrl + wheel zooms"
        : "the wheel scrolls the page: Ctrl + wheel (or a click first) zooms";
      const low = e.clientY - d.top > d.height / 2;
      hint.style.top = `${Math.max(0, (low ? d.top + 6 : d.bottom - 30) - r.top)}px`;
      hint.style.opacity = "1";
      clearTimeout(timer);
      timer = setTimeout(hide, 1500);
    },
    { capture: true },
  );
}
