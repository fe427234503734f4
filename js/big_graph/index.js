// BigGraphView's browser side: a graph from typed arrays (binary buffers) into cosmos.gl's WebGL
// renderer; no per-node objects. Python sends positions, colours, sizes and links as bytes; the
// page sends back the hovered and clicked node and the zoom level. Simulation off: the layout is
// Python's, so the nodes never move and the node under the mouse is found here, on the CPU, from
// a grid over the positions (cosmos.gl finds it in its frames, and a frame of 100K nodes takes
// seconds without a GPU).
// COSMOS (the renderer's source) is prepended by build.mjs; it is evaluated once per page.
/* global COSMOS */
import { wheelScrollsPage } from "../../graphpart/widgets/wheel.js";

function cosmos() {
  globalThis.__graphpartCosmos ??= import(
    URL.createObjectURL(new Blob([COSMOS], { type: "text/javascript" }))
  );
  return globalThis.__graphpartCosmos;
}

// the arrays come by message, one buffer holding array i at msg.spans[i] (start, bytes), not in
// the widget's state: a reload restores that. Each view asks, and takes the first answer.
function askArrays(model) {
  return new Promise((resolve) => {
    const take = (msg, buffers) => {
      if (!msg?.arrays || buffers?.length !== 1) return;
      model.off("msg:custom", take);
      const b = buffers[0] instanceof DataView ? buffers[0] : new DataView(buffers[0].buffer ?? buffers[0]);
      resolve(Object.fromEntries(msg.arrays.map((name, i) => {
        const [start, bytes] = msg.spans[i];
        return [name, new DataView(b.buffer, b.byteOffset + start, bytes)];
      })));
    };
    model.on("msg:custom", take);
    model.send({ want: "arrays" });
  });
}

// cosmos.gl sizes its canvas and fits the graph to it once, at the start: a view rendered while
// hidden (a notebook in a background tab when the page reloads) has no size yet and would stay
// blank. It starts once the view has one.
function sized(el) {
  return new Promise((resolve) => {
    const ready = () => el.clientWidth > 0 && el.clientHeight > 0;
    if (ready()) return resolve();
    const watch = new ResizeObserver(() => {
      if (ready()) { watch.disconnect(); resolve(); }
    });
    watch.observe(el);
  });
}

// a typed array over buf, copied only where buf does not start at a multiple of the element size
// (the message's bytes may sit anywhere in the page's websocket frame)
function view(buf, Type) {
  const n = buf.byteLength / Type.BYTES_PER_ELEMENT;
  if (buf.byteOffset % Type.BYTES_PER_ELEMENT === 0) return new Type(buf.buffer, buf.byteOffset, n);
  return new Type(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

// The nodes of each cell of a side x side grid over the positions, by counting sort: near(x, y, d)
// calls visit(i) for every node i in the cells within d of (x, y) (space units).
function grid(pos) {
  const n = pos.length / 2;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = pos[2 * i], y = pos[2 * i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const side = Math.max(1, Math.ceil(Math.sqrt(n / 4)));  // four nodes a cell, on average
  const w = (x1 - x0) / side || 1, h = (y1 - y0) / side || 1;
  const col = (x) => Math.min(side - 1, Math.max(0, Math.floor((x - x0) / w)));
  const row = (y) => Math.min(side - 1, Math.max(0, Math.floor((y - y0) / h)));
  const cell = new Uint32Array(n), start = new Uint32Array(side * side + 1);
  for (let i = 0; i < n; i++) {
    cell[i] = row(pos[2 * i + 1]) * side + col(pos[2 * i]);
    start[cell[i] + 1]++;
  }
  for (let c = 0; c < side * side; c++) start[c + 1] += start[c];
  const order = new Uint32Array(n), fill = start.slice(0, -1);
  for (let i = 0; i < n; i++) order[fill[cell[i]]++] = i;
  return (x, y, d, visit) => {
    for (let r = row(y - d); r <= row(y + d); r++) {
      for (let c = col(x - d); c <= col(x + d); c++) {
        for (let k = start[r * side + c]; k < start[r * side + c + 1]; k++) visit(order[k]);
      }
    }
  };
}

// Python's layout placed in cosmos.gl's space, centred, as cosmos.gl would place it itself (a
// graph of over SPACE² / 1000 nodes spans 1.2 spaces, a smaller one a tenth of one): done here,
// the page knows where each node is without reading the positions back from the GPU.
const SPACE = 4096;
function place(xy) {
  const n = xy.length / 2;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    x0 = Math.min(x0, xy[2 * i]);
    x1 = Math.max(x1, xy[2 * i]);
    y0 = Math.min(y0, xy[2 * i + 1]);
    y1 = Math.max(y1, xy[2 * i + 1]);
  }
  const span = n > SPACE * SPACE * 1e-3 ? SPACE * Math.max(1.2, Math.sqrt(n) / SPACE) : SPACE / 10;
  const f = span / (Math.max(x1 - x0, y1 - y0) || 1);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, out = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = SPACE / 2 + (xy[2 * i] - cx) * f;
    out[2 * i + 1] = SPACE / 2 + (xy[2 * i + 1] - cy) * f;
  }
  return out;
}

function toUnit(bytes) {
  const out = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i] / 255;
  return out;
}

async function render({ model, el }) {
  const arrays = askArrays(model);
  const { Graph } = await cosmos();
  const t0 = performance.now();
  const box = document.createElement("div");
  box.className = "graphpart-big-graph";
  box.style.position = "relative";
  box.style.width = "100%";
  box.style.height = `${model.get("height")}px`;
  const stage = document.createElement("div");
  stage.style.position = "absolute";
  stage.style.inset = "0";
  // cosmos's canvas is inline: its line would overflow the stage by a descender's height, and
  // the wheel's first notch would scroll the notebook's output box, not the page
  stage.style.overflow = "hidden";
  const card = document.createElement("div");
  card.className = "graphpart-big-graph-card";
  card.style.cssText =
    "position:absolute;display:none;pointer-events:none;background:#fff;color:#111;" +
    "font:12px sans-serif;padding:4px 6px;box-shadow:0 1px 6px rgba(0,0,0,.35);" +
    "white-space:pre;z-index:2";
  const ringOf = (name, css) => {  // a node's ring, drawn by the page (no frame needed)
    const r = document.createElement("div");
    r.className = name;
    r.style.cssText =
      "position:absolute;display:none;pointer-events:none;border-radius:50%;" +
      "box-sizing:border-box;z-index:1;" + css;
    return r;
  };
  const ring = ringOf("graphpart-big-graph-ring", "border:2px solid #111");  // the hovered node
  // the selected node: among 100K, its own size is a pixel or two, and the rest greyed out
  // does not point at it
  const mark = ringOf(
    "graphpart-big-graph-selected", "border:3px solid #d62728;box-shadow:0 0 0 2px #fff",
  );
  box.append(stage, mark, ring, card);
  const legend = document.createElement("div");  // what the colours mean: Python's HTML
  legend.className = "graphpart-big-graph-legend";
  legend.style.cssText = "font-size:11px;line-height:1.4;margin:0 0 4px";
  legend.innerHTML = model.get("legend");
  el.append(legend, box);
  wheelScrollsPage(box);
  await sized(box);
  const graph = new Graph(stage, {
    enableSimulation: false,
    backgroundColor: "#ffffff",
    spaceSize: SPACE,
    rescalePositions: false,
    fitViewOnInit: false,  // fitted below, before the first frame (see there)
    transitionDuration: 0,  // no animation from the defaults to the first colours and sizes
    scalePointsOnZoom: true,
    pointSizeScale: 1,
    linkDefaultWidth: 0.6,
    curvedLinks: false,
    enableDrag: false,
    onZoom: () => {  // the nodes move under the mouse: found again once it stops
      hover(-1);
      placeMark();
    },
    onZoomEnd: (e) => {
      model.set("zoom", e.transform.k);
      model.save_changes();
      if (inside) hover(pick(mouse));
    },
  });
  stage.__cosmos = graph; // for tests: screen positions of nodes (spaceToScreenPosition)
  // d3-zoom takes a wheel with Ctrl held for a trackpad's pinch and zooms ten times faster: a
  // mouse's notch, Ctrl + wheel being how this view zooms, would zoom 4x. A notch (a line, or
  // 50 px and more) zooms as without Ctrl (1.15x for 100 px); a pinch's small steps keep d3's.
  graph.zoomInstance?.behavior?.wheelDelta?.((e) => {
    const step = -e.deltaY * (e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002);
    const notch = e.deltaMode !== 0 || Math.abs(e.deltaY) >= 50;
    return e.ctrlKey && !notch ? 10 * step : step;
  });
  // cosmos.gl draws a frame on every animation frame; without a GPU (SwiftShader) a frame of
  // 100K nodes takes the page's one thread for a long time, starving the notebook (a kernel's
  // answer, Python's card included, waits behind the frames). Frames run while the view zooms,
  // pans or changes what it highlights, and stop 1.5 s after the last of these: hovering, found
  // here, draws no frame.
  let idle = 0, awake = false;
  const wake = () => {
    if (!graph.requestAnimationFrameId) graph.startFrames();
    clearTimeout(idle);
    awake = true;
    idle = setTimeout(() => {
      awake = false;
      graph.stopFrames();
    }, 1500);
  };
  // in the capture phase: d3-zoom, below, stops the wheel's and the mouse's events
  const early = { capture: true };
  stage.addEventListener("wheel", wake, early);
  stage.addEventListener("pointerdown", wake, early);
  stage.addEventListener("pointermove", (e) => e.buttons && wake(), early);  // a pan

  // the nodes' positions in cosmos.gl's space
  let space = new Float32Array(0), owner = new Uint8Array(0), sizes = new Float32Array(0);
  let near = null, largest = 0;
  // the node under screen point (x, y) of the view: of those whose disc (and 3 px around it)
  // holds the point, the one whose centre is nearest; -1 if none
  const pick = ([x, y]) => {
    if (!near) return -1;
    const [ax] = graph.screenToSpacePosition([0, 0]);
    const [bx] = graph.screenToSpacePosition([100, 0]);
    const perPixel = Math.abs(bx - ax) / 100;
    const [sx, sy] = graph.screenToSpacePosition([x, y]);
    const reach = graph.spaceToScreenRadius(largest / 2) + 3;
    let best = -1, bestD = Infinity;
    near(sx, sy, reach * perPixel, (i) => {
      const [px, py] = graph.spaceToScreenPosition([space[2 * i], space[2 * i + 1]]);
      const d = Math.hypot(px - x, py - y);
      if (d < bestD && d <= graph.spaceToScreenRadius(sizes[i] / 2) + 3) {
        best = i;
        bestD = d;
      }
    });
    return best;
  };
  const showCard = (text, x, y) => {
    card.textContent = text;
    card.style.display = "block";
    const w = card.offsetWidth, h = card.offsetHeight;
    const W = box.clientWidth, H = box.clientHeight;
    card.style.left = `${x + 12 + w > W ? Math.max(0, x - 12 - w) : x + 12}px`;
    card.style.top = `${Math.min(Math.max(0, y - h / 2), Math.max(0, H - h))}px`;
  };
  let mouse = [0, 0], inside = false, hovered = -1, selected = -1;
  const ringAt = (el, index, pad) => {  // centred on node index, pad px outside its disc
    const [x, y] = graph.spaceToScreenPosition([space[2 * index], space[2 * index + 1]]);
    const r = graph.spaceToScreenRadius(sizes[index] / 2) + pad;
    Object.assign(el.style, {
      display: "block", left: `${x - r}px`, top: `${y - r}px`,
      width: `${2 * r}px`, height: `${2 * r}px`,
    });
  };
  const placeMark = () => {
    if (selected < 0) mark.style.display = "none";
    else ringAt(mark, selected, 6);
  };
  const hover = (index) => {
    if (index === hovered) return;
    hovered = index;
    if (index < 0) {
      card.style.display = ring.style.display = "none";
      stage.style.cursor = "";
    } else {
      ringAt(ring, index, 3);
      showCard(`node ${index} | part ${owner[index]}`, mouse[0], mouse[1]);
      stage.style.cursor = "pointer";
    }
    model.set("hovered", index);
    model.save_changes();
  };
  const at = (e) => {
    const r = stage.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  stage.addEventListener("pointermove", (e) => {
    mouse = at(e);
    inside = true;
    if (!e.buttons) hover(pick(mouse));
  }, early);
  stage.addEventListener("pointerleave", () => {
    inside = false;
    hover(-1);
  });
  // a click (not the end of a pan) selects the node under it, or nothing: the node and its
  // neighbours stay drawn, the rest greyed out, the node outlined and ringed. The node under
  // it is the hovered one, ringed and named by the card: a click's position is rounded to whole
  // pixels where the pointer's is not, and among 100K nodes a third of a pixel picked another
  let down = [0, 0];
  stage.addEventListener("pointerdown", (e) => { down = at(e); }, early);
  stage.addEventListener("click", (e) => {
    const [x, y] = at(e);
    if (Math.hypot(x - down[0], y - down[1]) > 4) return;
    const index = hovered >= 0 ? hovered : pick(down);
    selected = index;
    placeMark();
    model.set("selected", index);
    model.save_changes();
    graph.setConfigPartial(index < 0
      ? { highlightedPointIndices: undefined, outlinedPointIndices: undefined }
      : {
        highlightedPointIndices: [index, ...graph.getNeighboringPointIndices(index)],
        outlinedPointIndices: [index],
      });
    wake();
  });
  const onCard = () => {
    const c = model.get("card");  // Python's card of card_for: late answers for another node wait
    if (hovered >= 0 && c && model.get("card_for") === hovered) {
      showCard(c.split(" | ").join("\n"), mouse[0], mouse[1]);  // a fact a line: it fits the box
    }
  };
  model.on("change:card", onCard);
  Promise.all([arrays, graph.ready]).then(([a]) => {
    owner = view(a.owner, Uint8Array);
    sizes = view(a.sizes, Float32Array);
    space = place(view(a.positions, Float32Array));
    near = grid(space);
    graph.setPointPositions(space);
    graph.setPointColors(toUnit(view(a.colors, Uint8Array)));
    graph.setPointSizes(sizes);
    graph.setLinks(Float32Array.from(view(a.links, Uint32Array)));
    graph.setLinkColors(toUnit(view(a.link_colors, Uint8Array)));
    // The graph fitted to the view before the first frame, and that frame the only one: a
    // frame of 100K nodes takes seconds without a GPU, and cosmos.gl's own fit (fitViewOnInit)
    // comes a frame later, by a d3 transition, while its frames go on for as long as they run.
    graph.resizeCanvas();
    graph.canvasD3Selection.call(
      graph.zoomInstance.behavior.transform,
      graph.zoomInstance.getTransform(space, undefined, 0.1),  // fitView's padding
    );
    graph.render(undefined, 0);
    largest = sizes.reduce((m, v) => (v > m ? v : m), 0);
    selected = model.get("selected");  // ringed again after a reload
    if (selected >= owner.length) selected = -1;
    placeMark();
    requestAnimationFrame(() => {  // after cosmos.gl's first frame (its callback came first)
      if (!awake) graph.stopFrames();  // unless the mouse already zooms or pans
      requestAnimationFrame(() => {
        box.dataset.drawn = String(Math.round(performance.now() - t0));
      });
    });
  });
  return () => {
    clearTimeout(idle);
    model.off("change:card", onCard);
    graph.destroy();
  };
}

export default { render };
