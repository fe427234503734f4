// BigGraphView's browser side: a graph from typed arrays (binary buffers) into cosmos.gl's WebGL
// renderer; no per-node objects. Python sends positions, colours, sizes and links as bytes; the
// page sends back the hovered and clicked node and the zoom level. Simulation off: the layout is
// Python's.
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
  box.append(stage, card);
  el.append(box);
  wheelScrollsPage(box);
  let owner = new Uint8Array(0);
  let hovered = -1;
  const showCard = (text, x, y) => {
    card.textContent = text;
    card.style.display = "block";
    const w = card.offsetWidth, h = card.offsetHeight;
    const W = box.clientWidth, H = box.clientHeight;
    card.style.left = `${x + 12 + w > W ? Math.max(0, x - 12 - w) : x + 12}px`;
    card.style.top = `${Math.min(Math.max(0, y - h / 2), Math.max(0, H - h))}px`;
  };
  let mouse = [0, 0];
  stage.addEventListener("mousemove", (e) => {
    const r = stage.getBoundingClientRect();
    mouse = [e.clientX - r.left, e.clientY - r.top];
  });
  await sized(box);
  const graph = new Graph(stage, {
    enableSimulation: false,
    backgroundColor: "#ffffff",
    spaceSize: 4096,
    fitViewOnInit: true,
    fitViewDelay: 0,
    fitViewDuration: 0,
    scalePointsOnZoom: true,
    renderHoveredPointRing: true,
    hoveredPointRingColor: "#111111",
    pointSizeScale: 1,
    linkDefaultWidth: 0.6,
    curvedLinks: false,
    enableDrag: false,
    onPointMouseOver: (index) => {
      hovered = index;
      showCard(`node ${index} | part ${owner[index]}`, mouse[0], mouse[1]);
      stage.style.cursor = "pointer";
      model.set("hovered", index);
      model.save_changes();
    },
    onPointMouseOut: () => {
      hovered = -1;
      card.style.display = "none";
      stage.style.cursor = "";
      model.set("hovered", -1);
      model.save_changes();
    },
    onPointClick: (index) => {
      model.set("selected", index);
      model.save_changes();
      // the node and its neighbours stay drawn, the rest greyed out; the node ringed
      const near = graph.getNeighboringPointIndices(index);
      graph.setConfigPartial({
        highlightedPointIndices: [index, ...near],
        outlinedPointIndices: [index],
      });
    },
    onBackgroundClick: () => {
      model.set("selected", -1);
      model.save_changes();
      graph.setConfigPartial({ highlightedPointIndices: undefined, outlinedPointIndices: undefined });
    },
    onZoomEnd: (e) => {
      model.set("zoom", e.transform.k);
      model.save_changes();
    },
  });
  stage.__cosmos = graph; // for tests: screen positions of nodes (spaceToScreenPosition)
  // cosmos.gl draws a frame on every animation frame; without a GPU (SwiftShader) a frame of
  // 100K nodes takes the page's one thread for a long time, starving the notebook (a kernel's
  // answer, Python's card included, waits behind the frames). Frames run while the mouse moves,
  // clicks or zooms on the view (hover and clicks are found in frames), and stop 1.5 s after the
  // last of these: a mouse resting on the view costs nothing.
  let idle = 0;
  const wake = () => {
    if (!graph.requestAnimationFrameId) graph.startFrames();
    clearTimeout(idle);
    idle = setTimeout(() => graph.stopFrames(), 1500);
  };
  for (const ev of ["pointerenter", "pointerleave", "pointermove", "pointerdown", "wheel"]) {
    stage.addEventListener(ev, wake);
  }
  const onCard = () => {
    const c = model.get("card");  // Python's card of card_for: late answers for another node wait
    if (hovered >= 0 && c && model.get("card_for") === hovered) {
      showCard(c.split(" | ").join("\n"), mouse[0], mouse[1]);  // a fact a line: it fits the box
    }
  };
  model.on("change:card", onCard);
  Promise.all([arrays, graph.ready]).then(([a]) => {
    owner = view(a.owner, Uint8Array);
    graph.setPointPositions(view(a.positions, Float32Array));
    graph.setPointColors(toUnit(view(a.colors, Uint8Array)));
    graph.setPointSizes(view(a.sizes, Float32Array));
    graph.setLinks(Float32Array.from(view(a.links, Uint32Array)));
    graph.setLinkColors(toUnit(view(a.link_colors, Uint8Array)));
    graph.render();
    wake();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        box.dataset.drawn = String(Math.round(performance.now() - t0));
      }),
    );
  });
  return () => {
    clearTimeout(idle);
    model.off("change:card", onCard);
    graph.destroy();
  };
}

export default { render };
