// TrainerBars: one stacked bar per trainer, drawn as HTML; hovering or clicking a bar sets the
// model's `hovered` (the trainer), which Python follows.
function fmt(seconds, scale) {
  const v = seconds * scale;
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

function render({ model, el }) {
  el.classList.add("graphpart-trainer-bars");
  const draw = () => {
    const bars = model.get("bars");
    const colors = model.get("colors");
    const epoch = model.get("epoch_s");
    const hovered = model.get("hovered");
    const total = (b) => Object.values(b.parts).reduce((a, x) => a + x, 0);
    const top = Math.max(epoch, ...bars.map(total), 1e-12);
    const [unit, scale] = top < 1 ? ["ms", 1e3] : ["s", 1];
    const H = 170;
    el.replaceChildren();
    const title = document.createElement("div");
    title.textContent = model.get("title");
    title.style.cssText = "font-size:12px;font-weight:600;margin:2px 0 6px";
    el.append(title);
    const chart = document.createElement("div");
    chart.style.cssText = `position:relative;display:flex;align-items:flex-end;gap:6px;` +
      `height:${H}px;border-bottom:1px solid #888;padding:0 4px;overflow-x:auto`;
    const line = document.createElement("div");  // the epoch: the slowest trainer of each step
    line.style.cssText = `position:absolute;left:0;right:0;bottom:${(epoch / top) * H}px;` +
      "border-top:1px dashed #000;pointer-events:none";
    line.title = `epoch (estimate): ${fmt(epoch, scale)} ${unit}`;
    chart.append(line);
    bars.forEach((b, i) => {
      const bar = document.createElement("div");
      bar.className = "graphpart-trainer-bar";
      bar.dataset.trainer = String(i);
      const on = i === hovered;
      bar.style.cssText = `display:flex;flex-direction:column-reverse;width:28px;flex:0 0 28px;` +
        `cursor:pointer;outline:${on ? "2px solid #111" : "none"};outline-offset:1px`;
      for (const [part, s] of Object.entries(b.parts)) {
        const seg = document.createElement("div");
        seg.style.cssText = `height:${(s / top) * H}px;background:${colors[part] || "#999"}`;
        bar.append(seg);
      }
      bar.title = `trainer ${b.label} (machine ${b.machine}): ` +
        Object.entries(b.parts).map(([p, s]) => `${p} ${fmt(s, scale)} ${unit}`).join(", ");
      const pick = () => {
        if (model.get("hovered") !== i) {
          model.set("hovered", i);
          model.save_changes();
        }
      };
      bar.addEventListener("mouseenter", pick);
      bar.addEventListener("click", pick);
      chart.append(bar);
    });
    el.append(chart);
    const ticks = document.createElement("div");
    ticks.style.cssText = "display:flex;gap:6px;padding:0 4px;font-size:10px";
    bars.forEach((b) => {
      const t = document.createElement("div");
      t.style.cssText = `width:28px;flex:0 0 28px;text-align:center;` +
        `font-weight:${b.slowest ? 700 : 400}`;
      t.textContent = `${b.label} m${b.machine}`;
      ticks.append(t);
    });
    el.append(ticks);
    const legend = document.createElement("div");
    legend.style.cssText = "font-size:11px;margin-top:4px";
    legend.innerHTML = Object.entries(colors).map(([p, c]) =>
      `<span style="color:${c}">&#9632;</span>&nbsp;${p}`).join(" &middot; ") +
      ` &middot; dashed: the epoch (${fmt(epoch, scale)} ${unit}); bold: the slowest trainer;` +
      ` busy time per epoch in ${unit}`;
    el.append(legend);
  };
  draw();
  model.on("change:bars", draw);
  model.on("change:epoch_s", draw);
  model.on("change:hovered", draw);
  model.on("change:title", draw);
}

export default { render };
