// BoxView: the GPUs of a box in their NVLink groups, drawn as SVG, a group a row. Each GPU is a
// box with a bar of its reads by place (own shard / peers / host) and its hit rate; an arc
// between two GPUs of a group is as wide as the bytes it carried; a line from each GPU down to
// host memory (drawn under every row: one pinned host memory) as wide as its PCIe bytes. Step
// bumps `step_requests` (Python streams a batch); clicking a GPU sets `selected`, and Python's
// `detail` on it shows under the drawing. Hovering a GPU or a line writes its numbers above that.
const NS = "http://www.w3.org/2000/svg";

function node(tag, attrs, parent) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (parent) parent.append(n);
  return n;
}

function fmtBytes(b) {
  const units = ["B", "KB", "MB", "GB", "TB"];  // as graphpart.utils.units writes them
  let i = 0;
  while (b >= 1000 && i < units.length - 1) { b /= 1000; i++; }
  return `${b >= 100 || i === 0 ? b.toFixed(0) : b.toFixed(1)} ${units[i]}`;
}

function render({ model, el }) {
  el.classList.add("graphpart-box-view");
  const draw = () => {
    const gpus = model.get("gpus");
    const links = model.get("links");
    const groups = model.get("groups");
    const colors = model.get("colors");
    const selected = model.get("selected");
    el.replaceChildren();
    const head = document.createElement("div");
    head.style.cssText = "display:flex;gap:10px;align-items:center;margin:2px 0 6px";
    const title = document.createElement("div");
    title.className = "graphpart-box-title";
    title.textContent = model.get("title");
    title.style.cssText = "font-size:12px;font-weight:600";
    const step = document.createElement("button");
    step.className = "graphpart-box-step";
    step.textContent = "Step";
    step.disabled = model.get("done");
    step.addEventListener("click", () => {
      model.set("step_requests", model.get("step_requests") + 1);
      model.save_changes();
    });
    head.append(step, title);
    el.append(head);
    const W = 118, H = 92, GAP = 26, PAD = 18, ARC = 30, DROP = 44, HOST = 22;
    const ROW = ARC + H + DROP + HOST + 24;
    const width = Math.max(1, ...groups.map((g) => g.length)) * (W + GAP) + 2 * PAD;
    const height = groups.length * ROW + 8;
    const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}` }, el);
    const at = {};
    const labels = [];  // drawn last, over the lines
    const hint = "Hover a GPU or a line for its numbers; lines are as wide as the bytes they " +
      "carried.";
    const tip = document.createElement("div");  // what the hovered GPU or line carried
    tip.className = "graphpart-box-hover";
    tip.style.cssText = "font-size:11px;margin-top:4px;min-height:1.2em;color:#555";
    tip.textContent = hint;
    const foot = document.createElement("div");  // Python's words on the clicked GPU
    foot.className = "graphpart-box-detail";
    foot.style.cssText = "font-size:11px;margin-top:2px;min-height:1.2em";
    foot.textContent = model.get("detail") || "Click a GPU for what it read from where.";
    // a line's twin, transparent and at least 10 px wide, on it: what the mouse hovers
    const grip = (line) => {
      const t = line.cloneNode();
      t.removeAttribute("class");
      t.setAttribute("stroke", "transparent");
      t.setAttribute("stroke-width", Math.max(10, +line.getAttribute("stroke-width")));
      t.setAttribute("pointer-events", "stroke");
      line.after(t);
      return t;
    };
    const facts = (item, text) => {  // what hovering item says under the drawing
      item.addEventListener("pointerenter", () => {
        tip.textContent = text;
        tip.style.color = "#111";
      });
      item.addEventListener("pointerleave", () => {
        tip.textContent = hint;
        tip.style.color = "#555";
      });
    };
    groups.forEach((g, gi) => {
      const top = 4 + gi * ROW;
      node("rect", { x: 4, y: top, width: g.length * (W + GAP) + 8, height: ARC + H + 22,
        rx: 8, fill: "none", stroke: "#bbb", "stroke-dasharray": "4 3" }, svg);
      labels.push([top + ARC + H + 16, `group ${gi}: NVLink between its GPUs (arcs as wide as ` +
        "their bytes)"]);
      const hostY = top + ARC + H + DROP;
      node("rect", { x: 4, y: hostY, width: g.length * (W + GAP) + 8, height: HOST, rx: 6,
        fill: "#fbe3e3", stroke: "#e45756" }, svg);
      node("text", { x: 12, y: hostY + 15, "font-size": 11 }, svg).textContent =
        "host memory: the cold rows (pinned, read over PCIe)";
      g.forEach((gpu, i) => { at[gpu] = { x: PAD + i * (W + GAP), y: top + ARC, hostY }; });
    });
    const maxLink = Math.max(1, ...links.map((l) => l.bytes), ...gpus.map((g) => g.host_bytes));
    const widthOf = (b) => 1 + 9 * (b / maxLink);
    for (const g of gpus) {  // PCIe: the host to each GPU
      const p = at[g.gpu];
      const line = node("line", { x1: p.x + W / 2, y1: p.y + H, x2: p.x + W / 2, y2: p.hostY,
        stroke: colors["host (PCIe)"], "stroke-opacity": 0.55,
        "stroke-width": widthOf(g.host_bytes) }, svg);
      facts(grip(line), `PCIe, host -> GPU ${g.gpu}: ${fmtBytes(g.host_bytes)}`);
    }
    for (const l of links) {  // NVLink pairs
      const a = at[l.a], b = at[l.b];
      const lift = 8 + 18 * Math.min(1, Math.abs(a.x - b.x) / (3 * (W + GAP)));
      const path = node("path", {
        d: `M ${a.x + W / 2} ${a.y} Q ${(a.x + b.x) / 2 + W / 2} ${a.y - 2 * lift} ` +
          `${b.x + W / 2} ${b.y}`,
        fill: "none", stroke: colors["peer GPU (NVLink)"], "stroke-opacity": 0.8,
        "stroke-width": widthOf(l.bytes) }, svg);
      path.classList.add("graphpart-box-link");
      facts(grip(path), `NVLink GPU ${l.a} <-> GPU ${l.b}: ${fmtBytes(l.bytes)}`);
    }
    for (const g of gpus) {
      const p = at[g.gpu];
      const box = node("g", { transform: `translate(${p.x},${p.y})`, cursor: "pointer" }, svg);
      box.classList.add("graphpart-box-gpu");
      box.dataset.gpu = String(g.gpu);
      node("rect", { width: W, height: H, rx: 6, fill: "#fff",
        stroke: g.gpu === selected ? "#111" : "#888",
        "stroke-width": g.gpu === selected ? 2.5 : 1 }, box);
      node("text", { x: 8, y: 16, "font-size": 12, "font-weight": 600 }, box).textContent =
        `GPU ${g.gpu}`;
      node("text", { x: 8, y: 32, "font-size": 11 }, box).textContent =
        `hit rate ${(100 * g.hit_rate).toFixed(0)}%`;
      const total = Math.max(1, g.own + g.peer + g.host);
      let x = 8;
      [["own shard", g.own], ["peer GPU (NVLink)", g.peer], ["host (PCIe)", g.host]]
        .forEach(([place, rows]) => {
          const w = (W - 16) * (rows / total);
          node("rect", { x, y: 42, width: w, height: 14, fill: colors[place] }, box);
          x += w;
        });
      node("text", { x: 8, y: 74, "font-size": 10, fill: "#555" }, box).textContent =
        `${g.rows.toLocaleString()} rows, ${g.ms.toFixed(2)} ms`;
      facts(box,
        `GPU ${g.gpu} (group ${g.group}): ${g.rows.toLocaleString()} rows in ${g.batches} ` +
        `batches; own shard ${g.own.toLocaleString()} (${fmtBytes(g.own_bytes)}), peers ` +
        `${g.peer.toLocaleString()} (${fmtBytes(g.peer_bytes)}), host ` +
        `${g.host.toLocaleString()} (${fmtBytes(g.host_bytes)}); hit rate ` +
        `${(100 * g.hit_rate).toFixed(1)}%`);
      box.addEventListener("click", () => {
        model.set("selected", g.gpu);
        model.save_changes();
      });
    }
    for (const [y, text] of labels) {
      node("text", { x: 10, y, "font-size": 10, fill: "#666", stroke: "#fff",
        "stroke-width": 3, "paint-order": "stroke" }, svg).textContent = text;
    }
    el.append(tip, foot);
    const legend = document.createElement("div");
    legend.style.cssText = "font-size:11px;margin-top:2px";
    legend.innerHTML = Object.entries(colors).map(([p, c]) =>
      `<span style="color:${c}">&#9632;</span>&nbsp;${p}`).join(" &middot; ");
    el.append(legend);
  };
  draw();
  for (const t of ["gpus", "links", "groups", "title", "selected", "detail", "done"]) {
    model.on(`change:${t}`, draw);
  }
}

export default { render };
