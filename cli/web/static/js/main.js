// Wires the page: the room shown is re-read from the daemon after each of its events (docs/api.md:
// "the simplest correct front end"), others' moves are animated along event.move.path first, and
// clicks become requests. The page keeps no rules of its own: targets come from legal_moves.
import { ask, listen } from "./api.js";
import { animateHops, drawBoard } from "./board.js";
import { COLOUR_NAMES, holeIndex, parsePosition, place, turnsToBottom } from "./geometry.js";
import { showChat, wireChatNotice } from "./chat.js";
import { wireKeyboard } from "./keyboard.js";
import { setConnectionLight, showConnection, showRoom, showTurn } from "./panel.js";
import { RoomRoles } from "./room_roles.js";
import { isOurs, roomToOpen, showRooms } from "./rooms.js";
import { wireForms } from "./forms.js";
import { alertOnTurn, tintsOf, wireViewer } from "./viewer.js";

const $ = (id) => document.getElementById(id);
const svg = $("board");

const state = {
  daemonUp: null,    // halmad answers: true, false, or null until halma web first says
  roomId: "",        // the room shown; "" until one is picked, and after leaving it
  view: null,        // its RoomView
  rooms: null,       // RoomRoles: the newest room list, and where the player stands in each room
  left: new Set(),   // rooms left from this page: not opened again just for being listed
  leaving: "",       // the room a leave was sent for: its view may be gone before the reply
  selected: null,    // hole of the marble picked
  queue: [],         // room events not yet shown, in order
  busy: false,       // showing one (fetching, animating)
  skip: { requested: false },
  turns: null,       // the board's turn this viewer picked by clicking a colour; null: own at the bottom
  cursor: null,      // the keyboard's hole
  catchingUp: 0,     // tries left to read a room its restarted halmad is still fetching
  recheck: null,     // the timer that re-reads a room whose host is being reconnected to
  closedText: "",    // what the room's RoomClosed event said, for when its view is gone
  bridgeUp: true,    // halma web answers (its event stream is open)
  messageCause: "",  // the line the message is about ("bridge", "daemon", "host"), if any
  viewsAsked: 0,     // views asked for so far, each numbered
  viewTaken: 0,      // the number of the newest asked whose answer was taken
};

// After a restart halmad answers UNAVAILABLE until it has the room back from its host; the CLI
// asks again every half second, and so does the page, for at most a minute.
const CATCH_UP_EVERY_MS = 500;
const CATCH_UP_TRIES = 120;
const RECHECK_MS = 1000;

// The page tells its tests what it has drawn, so they compare it with the daemon's state
// instead of waiting a fixed time.
function markDrawn() {
  document.body.dataset.seq = state.view ? state.view.seq : "";
  document.body.dataset.position = state.view ? state.view.position : "";
  document.body.dataset.room = state.roomId;
}

// tone: "error" (a refusal, the daemon's reason) or "info" (what was done). cause: the line
// whose being down the message is about ("bridge": halma web, "daemon": halmad, "host": the
// room's host), so unsay() takes it back once that line is up: it stayed under a green light.
function say(text, tone = "error", cause = "") {
  const message = $("message");
  message.textContent = text;
  message.className = tone;
  state.messageCause = text ? cause : "";
  // A refusal is brought into sight: on a phone the host form's was under the board, a screen
  // above the button pressed, and nothing seemed to happen.
  if (text && tone === "error") {
    const box = message.getBoundingClientRect();
    const header = document.querySelector("header").getBoundingClientRect().bottom;
    if (box.top < header || box.bottom > window.innerHeight)
      message.scrollIntoView({ block: "center" });
  }
}

function unsay(cause) {
  if (state.messageCause === cause) say("");
}

// A refusal as a person should read it: halmad or halma web being down is said in words of the
// page, not the CLI's "start one with `halmad &`". A refusal of an action in the room shown
// ("not connected to the host of this room") is taken back once its line is green again; not a
// join's, a host form's or a full disk's, which the room's light has nothing to do with.
function sayRefusal(reply, ofRoomShown = false) {
  // NO_DAEMON is also halmad answering too late: said in the page's words only while it is down.
  if (reply.bridge_error === "NO_DAEMON" && !state.daemonUp) return say(DAEMON_DOWN, "error", "daemon");
  if (reply.bridge_down) return say(BRIDGE_DOWN, "error", "bridge");
  const lineDown = ofRoomShown && reply.error.code === "ERROR_CODE_UNAVAILABLE" && state.view
    && state.view.connection !== "CONNECTION_STATE_CONNECTED";
  say(reply.error.message, "error", lineDown ? "host" : "");
}

// Asks halma web; when it does not answer at all, the reply says so (bridge_down) instead of
// throwing, so every caller shows it.
function askOrSay(kind, body) {
  return ask(kind, body).catch((e) => ({ bridge_down: true, error: { message: e.message } }));
}

function movesFrom(view) {
  const from = new Map();
  if (!view || !view.your_turn) return from;
  for (const m of view.legal_moves) {
    if (m === "pass") continue;
    const [a, b] = m.split("-");
    const i = holeIndex(a);
    if (!from.has(i)) from.set(i, new Map());
    from.get(i).set(holeIndex(b), m);
  }
  return from;
}

function boardTurns(view) {
  if (state.turns !== null) return state.turns;
  if (!view || view.your_seat < 0 || !view.game_number) return 0;
  const seat = view.seats[view.your_seat];
  return seat && seat.sets.length ? turnsToBottom(seat.sets[0]) : 0;
}

function redraw(hidden = null) {
  const view = state.view;
  const moves = movesFrom(view);
  const targets = state.selected !== null && moves.has(state.selected) ? moves.get(state.selected) : new Map();
  drawBoard(svg, {
    cells: view ? parsePosition(view.position) : null,
    turns: boardTurns(view),
    selected: state.selected,
    targets: new Set(targets.keys()),
    movable: new Set(moves.keys()),
    lastPath: view ? view.last_path : [],
    hidden,
    tints: tintsOf(view),
    cursor: state.cursor,
  }, onHole);
  showRoom(view, turnBoardTo);
  // With halmad down nobody can move: the turn light is off (it still said "your turn").
  showTurn(state.daemonUp ? view : null, turnBoardTo);
  if (!state.daemonUp && view) $("turn-text").textContent = "waiting for halmad to come back";
  showConnection(state.daemonUp, view, state.catchingUp > 0);
  alertOnTurn(view);
  showChat(view);
  $("chat-pane").hidden = !view; // a chat belongs to a room
  document.body.dataset.inRoom = view ? "yes" : "no";
  // The room shown is in the list too: its summary in the view is the newer one (the list only
  // changes with the LAN's adverts).
  const list = state.rooms.list;
  const listed = list && list.rooms ? list.rooms : [];
  const mine = view ? listed.findIndex((r) => r.room_id === view.summary.room_id) : -1;
  if (mine >= 0) listed[mine] = { ...listed[mine], ...view.summary };
  if (view) state.rooms.seen(view);
  showRooms(list, state.roomId, pickRoom, state.rooms.roles, state.daemonUp !== false);
  $("last-move").textContent = view && view.moves.length ? `Last move: ${view.moves[view.moves.length - 1]}` : "";
  // Why the room takes no change now (the host's disk, a host whose key changed): said once.
  const readOnly = view ? view.read_only || "" : "";
  if (readOnly !== (state.toldReadOnly || "")) {
    state.toldReadOnly = readOnly;
    if (readOnly) say(readOnly);
  }
  // A side with no legal move must pass (docs/rules.md): the page offers it, as the board cannot.
  const mustPass = !!(view && view.your_turn && view.legal_moves.length === 1 && view.legal_moves[0] === "pass");
  $("pass").hidden = !mustPass;
  if (mustPass) say("You have no move: pass (the Pass button).", "info");
  if (hidden === null) markDrawn();
}

// Turns this viewer's board so `set`'s triangle is at the bottom; the own set's colour (or the
// same colour again) goes back to the default.
function turnBoardTo(set) {
  const view = state.view;
  const own = view && view.your_seat >= 0 ? view.seats[view.your_seat] : null;
  const turns = turnsToBottom(set);
  state.turns = (own && own.sets.includes(set)) || state.turns === turns ? null : turns;
  redraw();
}

// draw: false when the caller draws (an animation first), so the page never says it has drawn a
// view (markDrawn) whose move it is still animating.
async function loadView(draw = true) {
  const asked = state.roomId;
  if (!state.daemonUp || !asked) return;
  const number = ++state.viewsAsked;
  const reply = await askOrSay("view", { room: asked });
  // Another room was opened meanwhile, or this one is being left (a joined room leaves the daemon
  // with its seat): the answer is about a room no longer shown, its error no news.
  if (state.roomId !== asked || state.leaving === asked) return;
  // Answers can come out of order (each is a fetch of its own): one asked before another whose
  // answer is taken already is older news. Taken, it put the room back a move (the page back
  // from halma web restarting read the view as a move's event came, and the older answer came
  // last); the board showed a marble where it had been, for good.
  if (number < state.viewTaken) return;
  state.viewTaken = number;
  if (reply.view) {
    state.view = reply.view;
    state.roomId = reply.view.summary.room_id;
    if (state.catchingUp) say("");
    state.catchingUp = 0;
    if (reply.view.connection === "CONNECTION_STATE_CONNECTED") unsay("host");
    // While halmad rejoins the host (yellow) the room may send no event until it is back: look
    // again now and then, so the light turns green without one.
    if (reply.view.connection === "CONNECTION_STATE_CONNECTING" && !state.recheck)
      state.recheck = setTimeout(() => { state.recheck = null; loadView(); }, RECHECK_MS);
  } else if (reply.error.code === "ERROR_CODE_UNAVAILABLE" && state.roomId && state.catchingUp > 1) {
    // The old view stays on the board, the light yellow, until the room is back.
    state.catchingUp -= 1;
    setTimeout(loadView, CATCH_UP_EVERY_MS);
  } else if (reply.bridge_down || reply.bridge_error === "NO_DAEMON") {
    sayRefusal(reply); // the board stays as it was: the room is not gone, the line to it is
  } else {
    // A room gone from the daemon (its host closed it, or this player left it elsewhere) is
    // said in words, not as the daemon's "no room '9c85...' on this daemon".
    const name = state.view ? state.view.summary.name : "";
    state.view = null;
    if (state.roomId && reply.error.code === "ERROR_CODE_UNKNOWN_ROOM")
      say(state.closedText || (name ? `Room ${name} is no longer open here: its host closed it, or you left it.`
        : "That room is no longer open here."), "info");
    else if (state.roomId) sayRefusal(reply);
    state.closedText = "";
    state.catchingUp = 0;
  }
  if (draw) redraw();
}

// The room this tab showed, kept across a reload (sessionStorage: this tab's alone): a reload
// mid-game opened the room where it was the player's move, not the one they were playing.
const SHOWN_KEY = "halma-room-shown";
function keptRoom() {
  try {
    const kept = sessionStorage.getItem(SHOWN_KEY);
    const rooms = (state.rooms.list && state.rooms.list.rooms) || [];
    return rooms.find((r) => r.room_id === kept && r.phase !== "PHASE_CLOSED" && state.rooms.roles.get(kept)
      && !state.left.has(kept)) || null;
  } catch {
    return null; // storage refused (a private window): the usual choice
  }
}

// After the rooms are read again: with no room open, opens the one this tab showed before a
// reload, else the one roomToOpen picks.
function afterRoomsRead() {
  const room = state.roomId ? null : keptRoom() || roomToOpen(state.rooms.list, state.rooms.roles, state.left);
  if (room) return openRoom(room.room_id);
  redraw();
}

// Everything kept for the room shown goes with it: its queued events (animated on the next room's
// board otherwise), the turn picked for its board, the marble picked, an animation under way.
function showRoomId(roomId) {
  if (roomId === state.roomId) return;
  state.roomId = roomId;
  try {
    sessionStorage.setItem(SHOWN_KEY, roomId || "");
  } catch {
    // storage refused: a reload picks the room as a new page does
  }
  state.queue = [];
  state.turns = null;
  state.selected = null;
  state.skip.requested = true;
}

function openRoom(roomId) {
  showRoomId(roomId);
  state.selected = null;
  return loadView();
}

async function onHole(index) {
  // A click ends an animation at once; the view is already the one after the move animated.
  state.skip.requested = true;
  const view = state.view;
  if (!view) return;
  const moves = movesFrom(view);
  if (moves.has(index)) {
    state.selected = state.selected === index ? null : index;
    say("");
    return redraw();
  }
  if (state.selected === null) {
    const cells = parsePosition(view.position);
    const cell = cells ? cells[index] : ".";
    // An empty hole with no marble picked: what to do first (the click did nothing, and an old
    // message stayed as if it were the answer).
    if (cell === "." && view.your_seat >= 0)
      return say(view.your_turn ? `${holeName(index)} is empty: pick one of your marbles first, then where it goes.`
        : "Not your turn yet.");
    if (cell === ".") return;
    if (!state.daemonUp) return sayDown();
    if (!view.your_turn) return say("Not your turn yet.");
    // A marble that cannot be picked says why (a click on it did nothing).
    const seat = view.seats[view.your_seat];
    const mine = seat && cell !== "x" && seat.sets.includes(Number(cell) - 1);
    // With several sets each, one moves at a time (the position's last character says which).
    const toMove = Number(view.position.slice(-1)) - 1;
    const otherSet = mine && Number(cell) - 1 !== toMove && COLOUR_NAMES[toMove];
    say(otherSet ? `That is your ${COLOUR_NAMES[Number(cell) - 1]} set: move a ${otherSet} marble now.`
      : mine ? `The marble on ${holeName(index)} cannot move now.`
      : `The marble on ${holeName(index)} is not yours to move.`);
    return;
  }
  // A target, or any other hole: the daemon says whether and why not.
  const targets = moves.get(state.selected);
  const text = targets && targets.has(index) ? targets.get(index)
    : `${holeName(state.selected)}-${holeName(index)}`;
  const from = state.selected;
  state.selected = null;
  const reply = await act({ move: text });
  // Refused: the marble stays picked, its holes lit, beside the daemon's reason ("i5 is not
  // reachable from n1; it can go to m5, m6"), which names holes the board does not label.
  if (reply.error && state.view && state.view.your_turn && movesFrom(state.view).has(from)) {
    state.selected = from;
    redraw();
  }
}

function holeName(index) {
  return svg.querySelector(`[data-hole="${index}"]`).dataset.name;
}

// What a click can do while halmad is down: nothing, said for a person (the daemon connection's
// own text told them to run `halmad &` or to point --runtime-dir somewhere).
const DAEMON_DOWN = "halmad is not running on this computer, so nothing can be done now. The page " +
  "picks up again by itself when it is back.";
// halma web, which serves the page, is gone: started again, it serves the same address (the
// port, if still free, and the token), and the page picks up by itself.
const BRIDGE_DOWN = "halma web, the program that serves this page, has stopped: run `halma web` " +
  "again and this page picks up by itself (if it does not, open the address it prints).";

function sayDown() {
  return state.bridgeUp ? say(DAEMON_DOWN, "error", "daemon") : say(BRIDGE_DOWN, "error", "bridge");
}

async function act(action) {
  if (!state.daemonUp) {
    sayDown();
    return { error: { message: DAEMON_DOWN } }; // what callers look at (the chat box keeps its line)
  }
  const room = state.roomId;
  if (action.leave) state.leaving = room;
  const reply = await askOrSay("action", { room, ...action });
  if (action.leave) state.leaving = "";
  if (reply.error) sayRefusal(reply, true);
  else if (action.leave) say(`left ${state.view ? state.view.summary.name : "the room"}`, "info");
  // A chat line shows in the chat itself: "said it" under the board only looked like news.
  else if (action.chat) say("");
  else say(reply.done.detail, "info");
  if (action.leave && !reply.error && state.roomId === room) {
    // The seat is given up: the room is not the player's to show any more (a joined one is gone
    // from the daemon, a hosted one stays with a computer in the seat). The page opens what it
    // would open on arrival, if anything, but not this room again.
    state.left.add(room);
    showRoomId("");
    state.view = null;
    state.rooms.left(room);
    redraw();
    return reply;
  }
  await loadView();
  return reply;
}

// Room events waiting to be shown, at most: enough for a round of five computers' moves, each
// animated in turn; a room of computers playing as fast as they can (bot-pace-ms 0, hundreds of
// moves a second) would otherwise queue events without end while the page animates them.
const kMostBehind = 8;

// The daemon's words for an event as a sentence: "the game was cancelled" -> "The game was
// cancelled." A player's name that begins it is left as they wrote it ("ann took back..." read
// "Ann took back...; ann moves again").
function sentence(text) {
  const view = state.view;
  const names = view ? [...view.seats.map((seat) => seat.name), ...(view.spectators || [])] : [];
  const byName = names.some((name) => name && text.startsWith(name));
  return (byName ? text : text.charAt(0).toUpperCase() + text.slice(1)) + (/[.!?]$/.test(text) ? "" : ".");
}

// Room events, one at a time: others' moves are animated from their path, then the view is read.
async function showNextEvent() {
  if (state.busy) return;
  const event = state.queue.shift();
  if (!event) return;
  state.busy = true;
  try {
    const move = event.event && event.event.move;
    const before = state.view;
    await loadView(false);
    // The player's own move is on the board already; one the computer made for them (their
    // turn ran out) is news: animated like others', and said.
    const ours = before && move && move.seat === before.your_seat && !move.by_computer;
    // Another room may have been opened meanwhile: this move is not on its board.
    const shown = state.view && event.room_id === state.roomId;
    const body = event.event || {};
    // What the room decided is said to everyone in it: a page whose player had not voted showed
    // only "cancelled" in the title, and a message from before stayed under the board.
    const news = body.cancelled || body.taken_back || body.leader || body.started;
    if (shown && news && event.text) say(sentence(event.text), "info");
    // A take-back asked for lapses when someone moves first: said, or it vanished unexplained
    // and the asker's page still said "voted to take back a move".
    else if (shown && move && before && before.take_back_seat >= 0 && state.view.take_back_seat < 0
      && before.seats[before.take_back_seat]) {
      const asker = before.take_back_seat === before.your_seat ? "Your" : `${before.seats[before.take_back_seat].name}'s`;
      say(`${asker} request to take back ${before.take_back_move} lapsed: ${event.text}.`, "info");
    }
    // Another's move makes what the page said of the player's own last action old news.
    else if (shown && move && !ours && $("message").className === "info") say("");
    if (shown && before && move && move.seat === before.your_seat && move.by_computer && move.path.length) {
      const playing = state.view.summary.phase === "PHASE_PLAYING"; // the move may have ended it
      say(`Your time ran out: the computer played ${move.path.map(holeName).join("-")} for you ` +
        "(marked on the board)." + (playing ? " Make a move yourself next time to come back." : ""), "info");
    }
    if (move && !ours && move.path.length > 1 && shown) {
      const path = move.path;
      const cell = parsePosition(state.view.position)[path[path.length - 1]];
      if (cell && cell !== "." && cell !== "x") {
        redraw(path[path.length - 1]);
        state.skip.requested = false;
        $("skip").hidden = false;
        await animateHops(svg, path, Number(cell) - 1, boardTurns(state.view), state.skip);
        $("skip").hidden = true;
        document.body.dataset.animated = path.join(" ");
      }
    }
    redraw();
  } finally {
    state.busy = false;
  }
  showNextEvent();
}

async function pickRoom(room) {
  say("");
  state.left.delete(room.room_id); // picked: the player wants it back
  if (isOurs(room)) return openRoom(room.room_id);
  return afterJoin(await askOrSay("join", { address: room.address, room: room.name }));
}

async function afterJoin(reply) {
  if (reply.error) return sayRefusal(reply);
  say(""); // a refusal of an earlier try no longer holds
  state.left.delete(reply.view.summary.room_id);
  showRoomId(reply.view.summary.room_id);
  state.view = reply.view;
  redraw();
  state.rooms.listChanged();
  // The forms are below the board: the new room's board was left mostly off the screen. Its
  // title with it, clear of the sticky header (style.css: #board-pane's scroll margin).
  $("board-pane").scrollIntoView({ block: "start" });
}

// Where the keyboard's ring starts: the player's marble nearest the centre, among those that can
// move when it is their turn; the centre when they have none on the board.
const CENTRE = 60;
function startHole(view) {
  const cells = view ? parsePosition(view.position) : null;
  const seat = view && view.your_seat >= 0 ? view.seats[view.your_seat] : null;
  if (!cells || !seat) return CENTRE;
  const movable = view.your_turn ? movesFrom(view) : new Map();
  const mine = cells.flatMap((c, i) => (c !== "." && c !== "x" && seat.sets.includes(Number(c) - 1)
    && (!movable.size || movable.has(i)) ? [i] : []));
  const centre = place(CENTRE, 0);
  const away = (i) => { const p = place(i, 0); return Math.hypot(p.x - centre.x, p.y - centre.y); };
  return mine.length ? mine.reduce((a, b) => (away(b) < away(a) ? b : a)) : CENTRE;
}

function wireBoardKeys() {
  wireKeyboard(svg, {
    turns: () => boardTurns(state.view),
    cursor: () => state.cursor,
    setCursor(index) {
      state.cursor = index;
      redraw();
    },
    press: (index) => onHole(index),
    start: () => startHole(state.view),
  });
  svg.addEventListener("blur", () => {
    state.cursor = null;
    redraw();
  });
}

// Escape and the skip button end an animation; Escape also puts down a marble picked by mistake.
function wireSkip() {
  $("skip").addEventListener("click", () => { state.skip.requested = true; });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    // Escape ends an animation, and puts down a marble picked by mistake.
    state.skip.requested = true;
    if (state.selected !== null) {
      state.selected = null;
      redraw();
    }
  });
}

function start() {
  // The token is in the cookie now: take it out of the address bar and of the history.
  history.replaceState(null, "", "/");
  state.rooms = new RoomRoles(() => state.roomId, afterRoomsRead);
  wireSkip();
  wireForms({ act, askOrSay, afterJoin, say, view: () => state.view });
  wireBoardKeys();
  wireViewer(() => redraw());
  wireChatNotice();
  redraw();
  listen({
    daemon(data) {
      state.daemonUp = data.up;
      state.bridgeUp = true; // the stream is back: halma web was only restarting, or slow
      unsay("bridge");
      if (data.up) {
        unsay("daemon");
        document.title = `halma: ${data.status.name}`;
        if (state.roomId) state.catchingUp = CATCH_UP_TRIES;
        redraw();
        loadView();
        state.rooms.forget();
      } else redraw();
    },
    room(event) {
      // Another room's event may change whose move it is there, or, with no room open, which
      // room to open: state.rooms keeps both, afterRoomsRead opens it.
      if (state.roomId && event.room_id === state.roomId) {
        if (event.event && event.event.closed) state.closedText = event.text; // "the host closed room four"
        state.queue.push(event);
        // Past kMostBehind waiting, the oldest are dropped: each event shown reads the room as
        // it stands, so only their animations are lost.
        if (state.queue.length > kMostBehind) state.queue.splice(0, state.queue.length - kMostBehind);
        document.body.dataset.waiting = state.queue.length; // for tests, as data-seq is
        showNextEvent();
      } else state.rooms.heard(event);
    },
    rooms(list) {
      state.rooms.pushed(list);
    },
    lost() {
      // halma web itself is gone (or restarting): the browser tries the stream again by itself,
      // and its first `daemon` event brings the page back.
      state.daemonUp = false;
      state.bridgeUp = false;
      setConnectionLight("red", "lost halma web: run `halma web` again and this page picks up by itself");
    },
  });
}

start();
