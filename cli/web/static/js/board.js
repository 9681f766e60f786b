// The SVG board as a pure function of what to show (chessground's lesson): drawBoard() redraws
// everything from a position, the selection and the targets; animateHops() moves one marble
// along a path on top of it. It knows nothing of rooms or the daemon.
import { HOLES, LETTERS, place, triangleOf } from "./geometry.js";

const SVG = "http://www.w3.org/2000/svg";
const HOLE_R = 0.22;
const MARBLE_R = 0.4;
const HOP_MS = 280;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function marble(parent, set, at, extraClass = "") {
  const g = el("g", { class: `marble-group ${extraClass}` }, parent);
  const isFixed = set === "x";
  el("circle", { cx: at.x, cy: at.y, r: MARBLE_R, class: `marble ${isFixed ? "setx" : `set${set}`}` }, g);
  if (!isFixed) {
    const t = el("text", { x: at.x, y: at.y, class: `letter set${set}-text` }, g);
    t.textContent = LETTERS[set];
  }
  return g;
}

// view: { cells: [chars] | null, turns, selected, targets: Set, movable: Set, lastPath: [],
//         hidden: hole not to draw a marble on (the one being animated to),
//         tints: Map triangle (1..6) -> set whose colour tints its holes, cursor: the keyboard's hole }
// onHole(index) is called for a click on a hole or marble.
export function drawBoard(svg, view, onHole) {
  svg.replaceChildren();
  const holes = el("g", { class: "holes" }, svg);
  const last = view.lastPath || [];
  for (const h of HOLES) {
    const at = place(h.index, view.turns);
    const classes = ["hole"];
    if (view.targets.has(h.index)) classes.push("target");
    if (last.length && h.index === last[0]) classes.push("last-from");
    if (last.length && h.index === last[last.length - 1]) classes.push("last-to");
    const g = el("g", { class: classes.join(" "), "data-hole": h.index, "data-name": h.name }, holes);
    // The hole's name on hover: the messages and "Last move" name holes the board does not label.
    el("title", {}, g).textContent = h.name;
    const tint = view.tints && view.tints.get(triangleOf(h.index));
    el("circle", { cx: at.x, cy: at.y, r: HOLE_R, class: tint === undefined ? "spot" : `spot tint set${tint}` }, g);
    // A bigger, invisible target for fingers on a phone.
    el("circle", { cx: at.x, cy: at.y, r: 0.48, fill: "transparent" }, g);
    const cell = view.cells ? view.cells[h.index] : ".";
    g.setAttribute("data-set", cell === "." ? "" : cell === "x" ? "x" : String(Number(cell) - 1));
    if (cell !== "." && h.index !== view.hidden) {
      const set = cell === "x" ? "x" : Number(cell) - 1;
      const m = marble(g, set, at);
      const circle = m.firstChild;
      if (view.movable.has(h.index)) circle.classList.add("movable");
      if (view.selected === h.index) circle.classList.add("selected");
    }
    if (view.cursor === h.index) el("circle", { cx: at.x, cy: at.y, r: 0.5, class: "cursor-ring" }, g);
    g.addEventListener("click", () => onHole(h.index));
  }
  if (last.length > 1) {
    const points = last.map((i) => place(i, view.turns)).map((p) => `${p.x},${p.y}`).join(" ");
    el("polyline", { points, class: "last-line" }, svg);
  }
}

// Moves a blinking marble of `set` hop by hop along `path`; resolves when done or when
// skip.requested turns true (the Skip button, a click on the board).
export function animateHops(svg, path, set, turns, skip) {
  return new Promise((resolve) => {
    if (path.length < 2) return resolve();
    const start = place(path[0], turns);
    const g = marble(svg, set, start, "moving");
    const circle = g.firstChild;
    const text = g.childNodes[1];
    let hop = 0;
    let began = performance.now();
    let done = false;
    // Frames may not come (a browser that stops drawing a page it deems hidden, or one starved
    // of time): the animation then ends on a timer, or the page waited on it, every later event
    // held up behind it and the board left mid-move.
    const timer = setTimeout(() => finish(), HOP_MS * (path.length - 1) + 2000);
    function frame(now) {
      if (done) return;
      if (skip.requested) return finish();
      let t = (now - began) / HOP_MS;
      if (t >= 1) {
        hop += 1;
        began = now;
        t = 0;
        if (hop >= path.length - 1) return finish();
      }
      const a = place(path[hop], turns);
      const b = place(path[hop + 1], turns);
      const x = a.x + (b.x - a.x) * t;
      const y = a.y + (b.y - a.y) * t;
      circle.setAttribute("cx", x);
      circle.setAttribute("cy", y);
      if (text) { text.setAttribute("x", x); text.setAttribute("y", y); }
      requestAnimationFrame(frame);
    }
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      g.remove();
      resolve();
    }
    requestAnimationFrame(frame);
  });
}
