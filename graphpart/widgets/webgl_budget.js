// graphpart's graph views in the page: the WebGL budget (one registry per browser page, shared by
// every notebook open in it), and hovers ended when the mouse leaves a view.
// Chromium keeps at most 16 WebGL contexts per page and silently drops the oldest beyond that
// (a view then goes blank); each sigma.js view holds three. Every graphpart view (a unit: one
// PartitionGraph, or one row of PartitionViews) registers here and is drawn live only when the
// page grants it contexts: when it is seen, or when there is room. Past the budget, the units out
// of sight longest give theirs back (Python shows a still picture) and come back when seen. A
// context lost some other way is said on the view, which then waits for its button.
const WEBGL = "canvas.sigma-nodes, canvas.sigma-edges, canvas.sigma-hoverNodes";

// A linked view holds every node of its row (invisible stand-ins for those it does not draw), so
// ipysigma's "N nodes" box would count them all; the view's title says what it draws (the
// comparison's views too: the box counts undirected edges, the notebooks directed ones). And
// ipysigma's right panel (search box, info) is 250 px wide: in a narrow view it would cover the
// zoom buttons on the left, so it takes at most what they leave. Placed 10 px from the top at
// the view's full height, it would overflow the view's box by 10 px: the wheel's first notch
// would scroll that box, not the page (an audit found it).
const STYLE =
  ".graphpart-partition-views .ipysigma-graph-description, " +
  ".graphpart-compare .ipysigma-graph-description { display: none; }\n" +
  ".graphpart-webgl-unit .ipysigma-widget .ipysigma-right-panel " +
  "{ width: min(250px, calc(100% - 150px)); height: calc(100% - 20px); }\n" +
  // cards four abreast: names and values wrap alike, not a value one word per line
  ".graphpart-compare-cards .graphpart-node-card th { white-space: normal !important; }\n" +
  ".graphpart-compare-cards .graphpart-node-card { font-size: 12px; }";

// ipysigma syncs its node positions in a trait named "layout", which ipywidgets takes for the
// widget's Layout model: every sigma view then rejects a promise with "Cannot read properties of
// undefined (reading 'then')" (ipysigma 0.24, its drawing unaffected). That rejection, and only
// that one, is kept off the console.
function quietSigmaLayout(event) {
  const e = event.reason;
  const ours = e instanceof TypeError && e.message.includes("reading 'then'");
  if (ours && /create_child_view|create_view/.test(e.stack ?? "")) event.preventDefault();
}

function registry(limit) {
  const r = (globalThis.__graphpartWebGL ??= { units: new Set(), clock: 0, limit });
  r.limit = limit;
  if (!r.listening) {
    window.addEventListener("unhandledrejection", quietSigmaLayout);
    // pagehide, not beforeunload: a leave the user cancels would silence the budget for good
    window.addEventListener("pagehide", () => { r.leaving = true; });
    r.listening = true;
  }
  if (!document.getElementById("graphpart-views-style")) {
    const s = document.createElement("style");
    s.id = "graphpart-views-style";
    s.textContent = STYLE;
    document.head.appendChild(s);
  }
  return r;
}

// contexts a unit holds, or is about to hold (granted, canvases not drawn yet)
function contexts(unit) {
  if (!unit.model.get("live")) return 0;
  return Math.max(unit.host.querySelectorAll(WEBGL).length, unit.model.get("need"));
}

// A unit taken out of the page (its output cleared, its cell detached by the notebook's
// windowing) still holds its contexts until the browser collects its canvases: given back now,
// and the view shows its still picture when it is back in the page.
function total(r) {
  for (const u of [...r.units]) {
    if (u.host.isConnected) continue;
    r.units.delete(u);
    if (u.model.get("live")) setLive(u, false, "budget");
  }
  return [...r.units].reduce((n, u) => n + contexts(u), 0);
}

// A drawing replaced inside a view (a redraw, another batch, another trainer) leaves its canvases
// to the garbage collector, and Chromium counts their contexts until then: past 16 it drops the
// oldest, a live view's. Released at once instead (a canvas moved within the page is back in it
// by the time the observer reports, and is left alone).
function releaseRemoved(records) {
  const gone = [];
  for (const rec of records) {
    for (const n of rec.removedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.matches(WEBGL)) gone.push(n);
      gone.push(...n.querySelectorAll(WEBGL));
    }
  }
  for (const c of gone) {
    if (c.isConnected || c.__graphpartReleased) continue;
    c.__graphpartReleased = true;
    const gl = c.getContext("webgl2") || c.getContext("webgl");
    const ext = gl && gl.getExtension("WEBGL_lose_context");
    if (ext) ext.loseContext();
  }
}

function loseContexts(unit) {
  unit.ours = true; // the contextlost events that follow are this budget's own
  for (const c of unit.host.querySelectorAll(WEBGL)) {
    const gl = c.getContext("webgl2") || c.getContext("webgl");
    const ext = gl && gl.getExtension("WEBGL_lose_context");
    if (ext) ext.loseContext();
  }
}

// Python answers a view frozen or woken by making and closing widgets: a page going away (a
// reload) tells Python nothing, so no widget is made while the next page restores them.
function leaving() {
  return Boolean(globalThis.__graphpartWebGL?.leaving);
}

// A still picture being drawn live says so until Python's live view replaces it: a click on it
// meanwhile selects nothing (an audit's first click after scrolling was lost without a word).
function sayWaking(unit) {
  for (const note of unit.host.querySelectorAll(".graphpart-frozen-note")) {
    note.innerHTML = "<i>drawing it live...</i>";
  }
  for (const f of unit.host.querySelectorAll(".graphpart-frozen")) f.style.cursor = "progress";
}

function setLive(unit, live, reason) {
  if (leaving()) return;
  if (!live) loseContexts(unit);
  else {
    unit.ours = false;
    sayWaking(unit);
  }
  unit.model.set("reason", reason);
  unit.model.set("live", live);
  unit.model.save_changes();
}

// past the budget: out of sight first, the longest unseen first; the newest seen never
function enforce(r) {
  let held = total(r);
  const live = [...r.units].filter((u) => u.model.get("live"));
  live.sort((a, b) => a.visible - b.visible || a.seen - b.seen);
  for (const u of live.slice(0, -1)) {
    if (held <= r.limit) break;
    held -= contexts(u);
    setLive(u, false, "budget");
  }
  r.held = held;
}

// a unit not live is drawn when there is room (evicting nobody); else it shows a still picture.
// One with no box (a closed tab, a hidden notebook) waits until seen: sigma cannot draw there
function room(r, unit) {
  const m = unit.model;
  if (m.get("live") || m.get("reason") === "lost") return;
  if (unit.host.getClientRects().length === 0 || unit.host.offsetWidth === 0) return;
  if (total(r) + m.get("need") <= r.limit) setLive(unit, true, "room");
  else if (m.get("reason") === "new") {
    if (leaving()) return;
    m.set("reason", "budget");
    m.save_changes();
  }
}

// A node hovered at a view's edge stays hovered, in that view and in every view linked to it,
// when the mouse leaves the canvas: sigma ends a hover only on a move over its own canvas. A
// move far outside, sent as the mouse leaves, ends it (and its synced labels) everywhere.
function unhoverOnLeave(unit) {
  for (const m of unit.host.querySelectorAll(".sigma-mouse")) {
    if (m.__graphpartLeave) continue;
    m.__graphpartLeave = true;
    m.addEventListener("mouseleave", () =>
      m.dispatchEvent(new MouseEvent("mousemove", { clientX: -1e5, clientY: -1e5, bubbles: true })),
    );
  }
}

// The hover card: sigma draws a node's label as one line to its right, cut at the canvas edge and
// hidden under ipysigma's panels. This one draws it on several lines (the card's " | " parts, a
// node's HALO copies one per line), inside the canvas and clear of ipysigma's controls, also in
// the narrow side-by-side views whose search box spans most of their width.
function cardLines(label) {
  const out = [];
  for (const part of String(label ?? "").split(" | ")) {
    const copies = part.match(/^(HALO copies: )(.+; .+)$/);
    if (!copies) out.push(part);
    else out.push(copies[1].trim(), ...copies[2].split("; ").map((c) => "  " + c));
  }
  return out;
}

// What a card must not be drawn under: ipysigma's controls over the canvas (buttons, the search
// box, the information panel), in canvas pixels. The panels' empty parts let the card show.
const CONTROLS =
  ".ipysigma-search, .ipysigma-information-display, .ipysigma-information-show-button, " +
  ".ipysigma-graph-description, button";

function obstacles(canvas) {
  const c = canvas.getBoundingClientRect();
  const root = canvas.closest(".ipysigma-widget") || canvas.parentElement;
  const out = [];
  for (const panel of root ? root.querySelectorAll(".ipysigma-right-panel, .ipysigma-left-panel") : []) {
    for (const e of panel.querySelectorAll(CONTROLS)) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !e.offsetParent) continue;
      out.push({ x0: r.left - c.left - 2, y0: r.top - c.top - 2, x1: r.right - c.left + 2, y1: r.bottom - c.top + 2 });
    }
  }
  return { width: c.width, height: c.height, rects: out };
}

// How much of the box (x, y, w, h) is hidden: under a control or past the canvas edge.
function hidden(free, x, y, w, h) {
  let a = w * h - Math.max(0, Math.min(x + w, free.width) - Math.max(x, 0))
    * Math.max(0, Math.min(y + h, free.height) - Math.max(y, 0));
  for (const r of free.rects) {
    a += Math.max(0, Math.min(x + w, r.x1) - Math.max(x, r.x0))
      * Math.max(0, Math.min(y + h, r.y1) - Math.max(y, r.y0));
  }
  return a;
}

// The card's corner: beside the node (right, then left), below or above it, a little further out
// each time, or along the canvas's edges, the first place where nothing hides it; else the place
// where least of it is hidden.
function placeCard(free, data, w, h) {
  const clampX = (x) => Math.max(0, Math.min(x, free.width - w));
  const clampY = (y) => Math.max(0, Math.min(y, free.height - h));
  const tries = [];
  for (let gap = data.size + 6; gap < data.size + 70; gap += 8) {
    tries.push(
      [data.x + gap, clampY(data.y - h / 2)],
      [data.x - gap - w, clampY(data.y - h / 2)],
      [clampX(data.x - w / 2), data.y + gap],
      [clampX(data.x - w / 2), data.y - gap - h],
    );
  }
  const gap = data.size + 6;
  for (const y of [0, free.height - h, clampY(data.y + gap), clampY(data.y - gap - h)]) {
    for (let x = 0; x + w <= free.width; x += 16) tries.push([x, y]);
  }
  let best = null;
  for (const [x, y] of tries) {
    const a = hidden(free, x, y, w, h);
    // less than a pixel: free (the sums of fractional boxes leave rounding errors, and an exact
    // 0 tested here sent a card from beside its node to the canvas's corner)
    if (a < 1) return [x, y];
    if (!best || a < best[2]) best = [x, y, a];
  }
  return [best[0], best[1]];
}

// A card's text and size: a highlighted node (the selection, in every linked view) gets its first
// line only, as its card would hide the neighbours the selection shows (Python's card below the
// view has it all).
function measureCard(ctx, data, settings, width) {
  const lines = cardLines(data.label).slice(0, data.highlighted ? 1 : undefined);
  if (!lines.length || !lines[0]) return null;
  const pad = 5;
  const font = (px) =>
    `${settings.labelWeight || "normal"} ${px}px ${settings.labelFont || "sans-serif"}`;
  let size = settings.labelSize || 12;
  ctx.font = font(size);
  let w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 2 * pad;
  if (w > width && size > 8) {  // wider than the canvas: a smaller font
    size = Math.max(8, Math.floor((size * (width - 2 * pad)) / (w - 2 * pad)));
    ctx.font = font(size);
    w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 2 * pad;
  }
  const step = size + 3;
  return { data, lines, pad, step, font: font(size), w, h: lines.length * step + 2 * pad };
}

function paintCard(ctx, card, x, y) {
  const { data, lines, pad, step, w, h } = card;
  ctx.save();
  ctx.font = card.font;
  ctx.shadowColor = "rgba(0, 0, 0, 0.35)";
  ctx.shadowBlur = 6;
  ctx.fillStyle = "#ffffff";
  ctx.beginPath();
  ctx.arc(data.x, data.y, data.size + 3, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillRect(x, y, w, h);
  ctx.shadowBlur = 0;
  ctx.fillStyle = "#111111";
  ctx.textBaseline = "top";
  lines.forEach((l, i) => ctx.fillText(l, x + pad, y + pad + i * step));
  ctx.restore();
}

// sigma draws the hovered node first, then the highlighted ones (the selection) over it: the
// cards of one pass are drawn together once it ends. The hovered node's card is placed first and
// drawn last, on top; the selection's one-line labels are placed clear of it.
function drawCard(ctx, data, settings) {
  const canvas = ctx.canvas;
  if (!canvas.__graphpartPass) {
    canvas.__graphpartPass = [];
    queueMicrotask(() => {
      const pass = canvas.__graphpartPass;
      canvas.__graphpartPass = null;
      drawPass(ctx, pass);
    });
  }
  canvas.__graphpartPass.push([data, settings]);
}

function drawPass(ctx, pass) {
  const free = obstacles(ctx.canvas);
  const cards = pass
    .map(([data, settings]) => measureCard(ctx, data, settings, free.width))
    .filter((c) => c !== null)
    .sort((a, b) => Number(!!a.data.highlighted) - Number(!!b.data.highlighted));
  const placed = cards.map((c) => {
    const [x, y] = placeCard(free, c.data, c.w, c.h);
    free.rects.push({ x0: x - 2, y0: y - 2, x1: x + c.w + 2, y1: y + c.h + 2 });
    return [c, x, y];
  });
  for (const [c, x, y] of placed.reverse()) paintCard(ctx, c, x, y);
  if (!placed.length) return;
  // what the (hovered) card says and where, readable from the page (a canvas keeps no text):
  // tests, screen readers
  const [c, x, y] = placed[placed.length - 1];
  ctx.canvas.dataset.card = c.lines.join("\n");
  ctx.canvas.dataset.cardBox = [x, y, c.w, c.h].map(Math.round).join(",");
  ctx.canvas.dataset.cardNode = [c.data.x, c.data.y].map(Math.round).join(",");
  ctx.canvas.setAttribute("aria-label", c.lines.join("; "));
  ctx.canvas.dataset.cardBoxes = JSON.stringify(
    placed.map(([p, px, py]) => [px, py, p.w, p.h].map(Math.round)),
  );
}

async function useCards(model) {
  for (const id of model.get("sigma_ids")) {
    const m = await model.widget_manager.get_model(id).catch(() => null);
    for (const v of await Promise.all(Object.values((m && m.views) || {}))) {
      if (v && v.renderer && !v.renderer.__graphpartCard) {
        const renderer = v.renderer;
        renderer.__graphpartCard = true;
        // with a node selected, ipysigma blanks the labels of the nodes not next to it: a node
        // hovered there still gets its card, from the graph (a linked view's stand-in, which
        // the view does not draw, none)
        renderer.setSetting("hoverRenderer", (ctx, data, settings) => {
          const g = renderer.getGraph();
          const drawn = data.key != null && g.hasNode(data.key);
          if (!data.label && drawn && g.getNodeAttribute(data.key, "kind") !== "not here") {
            data = { ...data, label: g.getNodeAttribute(data.key, "label") };
          }
          drawCard(ctx, data, settings);
        });
      }
    }
  }
}

function watch(unit) {
  unhoverOnLeave(unit);
  useCards(unit.model);
  for (const c of unit.host.querySelectorAll(WEBGL)) {
    if (c.__graphpartWatched) continue;
    c.__graphpartWatched = true;
    c.addEventListener("webglcontextlost", () => {
      if (unit.ours || !unit.model.get("live") || !c.isConnected) return;
      setLive(unit, false, "lost"); // no redrawing by itself after a loss: a loop otherwise
    });
  }
}

function render({ model, el }) {
  const r = registry(model.get("limit"));
  const unit = { model, el, host: el, visible: false, seen: 0, ours: false };
  // at once, not at the next frame: a view's contexts exist as soon as its canvases are in the
  // page, and views drawn in one frame would pass the browser's limit first
  const update = () => {
    watch(unit);
    enforce(r);
    el.dataset.live = String(model.get("live"));
    el.dataset.reason = model.get("reason");
    el.dataset.pageContexts = String(r.held ?? 0);
  };
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!r.units.has(unit) && unit.host.isConnected) r.units.add(unit); // back in the page
      unit.visible = e.isIntersecting;
      if (!unit.visible) continue;
      unit.seen = ++r.clock;
      // newly seen: drawn live (others out of sight give way); a lost one waits for its button
      if (!model.get("live") && model.get("reason") !== "lost") setLive(unit, true, "seen");
    }
    room(r, unit);
    update();
  });
  // new sigma canvases: count and watch them; replaced ones: give their contexts back
  const drawn = new MutationObserver((records) => {
    releaseRemoved(records);
    update();
  });
  const onChange = () => update();
  model.on("change:live", onChange);
  model.on("change:sigma_ids", onChange);
  let tries = 0;
  // the view's root: known once ipywidgets has put this widget into the page
  const attach = () => {
    const host = el.isConnected && el.closest(".graphpart-webgl-unit");
    if (!host) {
      if (++tries < 600) requestAnimationFrame(attach);
      else if (!model.get("live")) setLive(unit, true, "room"); // ~10 s: drawn, unbudgeted
      return;
    }
    unit.host = host;
    wheelScrollsPage(host);
    r.units.add(unit);
    seen.observe(host); // its first report says whether the view is in sight
    drawn.observe(host, { childList: true, subtree: true });
  };
  attach();
  return () => {
    seen.disconnect();
    drawn.disconnect();
    model.off("change:live", onChange);
    model.off("change:sigma_ids", onChange);
    r.units.delete(unit);
  };
}

export default { render };
