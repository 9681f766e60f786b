// What each viewer picks for themselves, kept in this browser (localStorage) and never sent to
// the daemon: the palette, whether the triangles wear their starters' or their goers' colours, and
// a sound or notification on one's turn. The board's turn is chosen per room, in main.js.
const $ = (id) => document.getElementById(id);
const KEY = "halma.viewer";

export const viewer = { palette: "standard", tint: "start", turnAlert: false };

function load() {
  try {
    Object.assign(viewer, JSON.parse(localStorage.getItem(KEY) || "{}"));
  } catch {
    // A broken or foreign value: the defaults do.
  }
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(viewer));
  } catch {
    // Private windows may refuse storage: the choice lasts until the page closes.
  }
}

function apply() {
  document.documentElement.dataset.palette = viewer.palette;
  $("palette").value = viewer.palette;
  $("swap-colours").checked = viewer.tint === "home";
  $("turn-alert").checked = viewer.turnAlert;
}

// onChange() is called after any choice, to redraw.
export function wireViewer(onChange) {
  load();
  apply();
  $("palette").addEventListener("change", () => {
    viewer.palette = $("palette").value;
    save();
    apply();
    onChange();
  });
  $("swap-colours").addEventListener("change", () => {
    viewer.tint = $("swap-colours").checked ? "home" : "start";
    save();
    onChange();
  });
  $("turn-alert").addEventListener("change", () => {
    viewer.turnAlert = $("turn-alert").checked;
    save();
    // Asked on the click itself: browsers only grant it (and only start sound) after a gesture.
    if (viewer.turnAlert) prepareAlerts();
  });
}

// Triangle (1..6) -> the set whose colour tints it: set s starts in triangle s+1 and heads for
// the opposite one (docs/rules.md). Only the sets in this game.
export function tintsOf(view) {
  const tints = new Map();
  if (!view || !view.game_number) return tints;
  for (const seat of view.seats)
    for (const set of seat.sets) {
      const start = set + 1;
      const home = ((set + 3) % 6) + 1;
      tints.set(viewer.tint === "home" ? home : start, set);
    }
  return tints;
}

let audio = null;
function prepareAlerts() {
  try {
    audio = audio || new AudioContext();
    audio.resume();
  } catch {
    audio = null;
  }
  if ("Notification" in window && Notification.permission === "default")
    Notification.requestPermission().catch(() => {});
}

function beep() {
  if (!audio) return;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.4);
}

let lastTurn = "";
// Called with each view drawn: rings (and notifies, when the page is in the background and the
// browser allows it) once for each turn of the local player. A turn is known by the room, game
// and number of moves before it: a quick computer may move before the page ever draws a view in
// which it is not the local player's turn.
export function alertOnTurn(view) {
  if (!view || !view.your_turn) return;
  const turn = `${view.summary.room_id}/${view.game_number}/${view.moves.length}`;
  if (turn === lastTurn) return;
  lastTurn = turn;
  if (viewer.turnAlert) {
    document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts || 0) + 1);
    try {
      beep();
      if (document.hidden && "Notification" in window && Notification.permission === "granted")
        new Notification("halma: your turn", { body: view.summary.name });
    } catch (e) {
      // No sound device, or notifications refused: the light still turns.
      console.warn(`halma: no turn alert: ${e}`);
    }
  }
}
