// The room's side panel: lights, seats (with their colours and letters), who leads, standings and
// the buttons that fit the room's phase. Every name is put in as text, never as HTML.
import { LETTERS, COLOUR_NAMES } from "./geometry.js";
import { rulesInWords } from "./rules_words.js";

const $ = (id) => document.getElementById(id);

function chip(set) {
  const span = document.createElement("span");
  span.className = `chip set${set}`;
  span.textContent = LETTERS[set];
  span.title = COLOUR_NAMES[set];
  return span;
}

// A colour in the turn display is a button: it turns this viewer's board so that set's triangle
// is at the bottom (onChip(set)).
function chipButton(set, onChip) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `chip set${set}`;
  b.textContent = LETTERS[set];
  b.dataset.set = String(set);
  b.title = `turn the board: ${COLOUR_NAMES[set]} at the bottom`;
  b.setAttribute("aria-label", b.title);
  b.addEventListener("click", () => onChip(set));
  return b;
}

export function setConnectionLight(state, text) {
  const light = $("light-connection");
  light.className = `light ${state}`;
  if (light.dataset.state !== state) {
    // The lights' recent history, for tests that must see a short yellow go by.
    const seen = (document.body.dataset.lights || "").split(" ").filter(Boolean);
    document.body.dataset.lights = [...seen, state].slice(-20).join(" ");
  }
  light.dataset.state = state;
  $("connection-text").textContent = text;
}

// catchingUp: halmad is back but the room is still being fetched from its host (docs/api.md,
// "When your own daemon restarts", step 3).
export function showConnection(daemonUp, view, catchingUp = false) {
  if (!daemonUp) return setConnectionLight("red", "halmad is not running");
  if (catchingUp) return setConnectionLight("yellow", "halmad is back: catching up with the room");
  if (!view) return setConnectionLight("green", "halmad is running");
  const c = view.connection;
  if (c === "CONNECTION_STATE_CONNECTED") setConnectionLight("green", "connected");
  else if (c === "CONNECTION_STATE_CONNECTING") setConnectionLight("yellow", "reconnecting to the host");
  else setConnectionLight("red", "not in this room any more");
}

// A room's turn limit: the time left on the turn of the person to move, counted down here from
// what the view said (view.turn_ms_left) when it came.
let turnClock = null; // { deadline (performance.now() ms) }
let clockView = null; // the view the deadline was taken from
let clockDeadline = 0;
function timeLeft(ms) {
  const s = Math.ceil(ms / 1000);
  const two = (n) => String(n).padStart(2, "0");
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}
function showClock() {
  const span = $("turn-clock");
  if (!span) return;
  if (!turnClock) {
    span.textContent = "";
    return;
  }
  const left = Math.max(0, turnClock.deadline - performance.now());
  span.textContent = ` (${timeLeft(left)} left${turnClock.yours ? ", then the computer moves for you" : ""})`;
  span.classList.toggle("hurry", left < 10000 && turnClock.yours);
}
setInterval(showClock, 1000);

// A gone player's seat: how long it is still held for them (view seat.hold_ms_left), counted
// down here from when the view came, as the turn's clock is. HOLD_MARK stands where the time goes
// in the seat's label.
const HOLD_MARK = "\u2063";
const holdDeadlines = new WeakMap(); // view -> Map(seat number -> performance.now() deadline)
function holdDeadline(view, seat) {
  let deadlines = holdDeadlines.get(view);
  if (!deadlines) {
    deadlines = new Map();
    for (const s of view.seats)
      if (s.hold_ms_left !== undefined) deadlines.set(s.seat, performance.now() + Number(s.hold_ms_left));
    holdDeadlines.set(view, deadlines);
  }
  return deadlines.get(seat.seat);
}
function showHolds() {
  for (const span of document.querySelectorAll(".hold-clock"))
    span.textContent = timeLeft(Math.max(0, Number(span.dataset.deadline) - performance.now()));
}
setInterval(showHolds, 1000);

// onChip(set): a colour of the set to move was clicked (chipButton).
export function showTurn(view, onChip) {
  const on = !!(view && view.your_turn);
  const light = $("light-turn");
  light.className = on ? "light on" : "light";
  light.dataset.on = on ? "yes" : "no";
  let text = "no game running";
  const seatToMove = view && view.turn_seat >= 0 ? view.seats[view.turn_seat] : null;
  // With several sets each, which of them moves now (the position's last character), as the
  // terminal says it: a red marble clicked when black was to move only said it "cannot move".
  if (on && seatToMove && seatToMove.sets.length > 1)
    text = `your turn: move ${COLOUR_NAMES[Number(view.position.slice(-1)) - 1]}`;
  else if (on) text = "your turn";
  else if (view && view.summary.phase === "PHASE_OVER") text = "game over";
  else if (view && view.turn_seat >= 0) {
    const seat = view.seats[view.turn_seat];
    text = `${seat && seat.name ? seat.name : "seat " + (view.turn_seat + 1)} to move`;
  }
  const turnText = $("turn-text");
  turnText.replaceChildren();
  const seat = view && view.turn_seat >= 0 ? view.seats[view.turn_seat] : null;
  for (const set of seat ? seat.sets : []) turnText.appendChild(chipButton(set, onChip));
  turnText.appendChild(document.createTextNode(text));
  const clock = document.createElement("span");
  clock.id = "turn-clock";
  turnText.appendChild(clock);
  const running = view && view.summary.phase === "PHASE_PLAYING" && view.turn_ms_left !== undefined;
  // The deadline is taken when a view comes, not at each redraw: a click redraws, and reset the
  // countdown to what the view said when it was read (the computer moved for a player the page
  // still gave 25 s).
  if (view !== clockView) {
    clockView = view;
    clockDeadline = running ? performance.now() + Number(view.turn_ms_left) : 0;
  }
  turnClock = running ? { deadline: clockDeadline, yours: on } : null;
  showClock();
}

// What the computer played for you while you were away: "; the computer played o1-m7 for you"
// (the latest three named), so a player who comes back to the page is told.
function madeForYou(view) {
  const made = view.moves_made_for_you || [];
  if (!made.length) return "";
  const named = made.slice(-3);
  const count = Math.max(Number(view.moves_made_for_you_count || 0), made.length);
  if (count === named.length) return `; the computer played ${named.join(", ")} for you`;
  return `; the computer played ${count} moves for you; the last ${named.length === 1 ? "" : named.length + " "}` +
    `were ${named.join(", ")}`;
}

function seatLabel(seat, yours, view) {
  let label = seat.name || "(free seat)";
  if (seat.bot) label += ` (computer${seat.bot_level ? ", " + seat.bot_level : ""})`;
  if (seat.name && !seat.connected)
    label += holdDeadline(view, seat) === undefined ? " (gone, seat held)"
      : ` (gone, seat held ${HOLD_MARK} more, then a computer keeps it for them)`;
  // Away means something only while a game is played: once it is over nobody can move.
  const playing = view.summary.phase === "PHASE_PLAYING";
  if (seat.away && playing && yours) {
    label += ` (away: your time ran out${madeForYou(view)}; make a move to come back)`;
  }
  else if (seat.away && playing) label += " (away: ran out of time, the computer moves)";
  if (seat.voted_new_game) label += " (voted new game)";
  if (seat.voted_cancel) label += " (voted cancel)";
  // The others see a leader vote too (it looked stuck: only the voter's button said it).
  if (seat.voted_leader) label += view.leader_hidden ? " (voted to show the leader)" : " (voted to hide the leader)";
  if (seat.voted_take_back) label += seat.seat === view.take_back_seat
    ? ` (asks to take back ${view.take_back_move})` : " (agrees to take back a move)";
  return label;
}

// onChip(set): a colour was clicked (chipButton).
export function showRoom(view, onChip) {
  const seats = $("seats");
  seats.replaceChildren();
  if (!view) {
    $("room-title").textContent = "No room open";
    $("room-rules").hidden = true;
    for (const id of ["start-box", "vote-new", "vote-cancel", "vote-leader", "vote-take-back", "leave", "standings", "friends-code", "join-address", "result",
      "spectators"])
      $(id).hidden = true;
    $("leader").textContent = "";
    return;
  }
  const s = view.summary;
  $("room-title").textContent = `${s.name} (${s.seats_taken}/${s.seats} seats, ` +
    `${s.phase.replace("PHASE_", "").toLowerCase()}${view.game_number ? ", game " + view.game_number : ""})`;
  $("room-rules").hidden = false;
  $("room-rules").textContent = rulesInWords(s.mode || {});
  const playing = view.game_number > 0;
  for (const seat of view.seats) {
    const li = document.createElement("li");
    if (playing) for (const set of seat.sets) li.appendChild(chipButton(set, onChip));
    const yours = seat.seat === view.your_seat;
    const [before, after] = (seatLabel(seat, yours, view) + (yours ? " (you)" : "")).split(HOLD_MARK);
    li.appendChild(document.createTextNode(before));
    if (after !== undefined) {
      const clock = document.createElement("span");
      clock.className = "hold-clock";
      clock.dataset.deadline = String(holdDeadline(view, seat));
      clock.textContent = timeLeft(Math.max(0, holdDeadline(view, seat) - performance.now()));
      li.appendChild(clock);
      li.appendChild(document.createTextNode(after));
    }
    if (seat.seat === view.turn_seat) li.className = "turn";
    seats.appendChild(li);
  }
  const member = view.your_seat >= 0;
  // Spectators are shown (only the terminal listed them), and one watching a room joined at
  // another host is told so, and can leave it (the page had no way out for them).
  const watching = !member && s.origin === "ROOM_ORIGIN_JOINED";
  const spectators = view.spectators || [];
  $("spectators").hidden = spectators.length === 0 && !watching;
  $("spectators").textContent = (spectators.length ? `Watching: ${spectators.join(", ")}` : "") +
    (watching ? `${spectators.length ? ". " : ""}You are watching this room.` : "");
  $("start-box").hidden = !(member && view.game_number === 0 && s.phase === "PHASE_WAITING");
  $("vote-new").hidden = !(member && view.game_number > 0);
  // Only while a game runs and a player is gone or away (after a cancel it was still offered).
  $("vote-cancel").hidden = !(member && s.phase === "PHASE_PLAYING"
    && view.seats.some((x) => x.name && !x.bot && (!x.connected || x.away)));
  // A vote counts once: after it, the button says so until the others have voted too.
  const own = member ? view.seats[view.your_seat] : null;
  $("vote-new").disabled = !!(own && own.voted_new_game);
  $("vote-new").textContent = own && own.voted_new_game ? "Voted for a new game: waiting for the others"
    : "Vote for a new game";
  $("vote-cancel").disabled = !!(own && own.voted_cancel);
  // Hiding who leads is the room's choice: everyone seated agrees, for the rest of this game.
  const what = view.leader_hidden ? "show" : "hide";
  $("vote-leader").hidden = !(member && s.phase === "PHASE_PLAYING");
  $("vote-leader").disabled = !!(own && own.voted_leader);
  $("vote-leader").textContent = own && own.voted_leader ? `Voted to ${what} the leader: waiting for the others`
    : `Vote to ${what} the leader`;
  showTakeBack(view, member, own);
  $("leave").hidden = !member && !watching;
  $("leave").textContent = watching ? "Stop watching" : "Leave the room";
  $("friends-code").hidden = !s.code;
  $("code").textContent = s.code;
  // Where discovery does not reach (README), others need the room's address: `halma host`
  // prints it, the page did not.
  const address = joinAddress(s);
  $("join-address").hidden = !address;
  $("join-with").textContent = address;
  showLeader(view);
  showStandings(view);
  showResult(view);
}

// What others type in their Join box (or after `halma join`) to reach a room hosted here:
// HOST:PORT/ROOM, the friends code for a friends room; empty for rooms joined elsewhere.
export function joinAddress(summary) {
  if (summary.origin !== "ROOM_ORIGIN_HOSTED" || !summary.address) return "";
  const room = summary.code || summary.name;
  const colon = summary.address.lastIndexOf(":");
  const host = summary.address.slice(0, colon);
  if (!["0.0.0.0", "*", "::", "[::]", ""].includes(host)) return `${summary.address}/${room}`;
  // Every interface: the machine's mDNS name, else the first address the LAN found it at.
  if (summary.machine) return `${summary.machine}:${summary.address.slice(colon + 1)}/${room}`;
  const found = (summary.addresses || [])[0];
  return found ? `${found}/${room}` : "";
}

// The viewer as "you", first ("Winner: ann" on ann's own page read as someone else's win).
function seatNames(view, standings) {
  const yours = standings.filter((st) => st.seat === view.your_seat && view.your_seat >= 0);
  const others = standings.filter((st) => !yours.includes(st));
  return [...yours.map(() => "you"), ...others.map((st) => st.name || `seat ${st.seat + 1}`)].join(" and ");
}

const GAME_ENDS = {
  GAME_END_ALL_HOME: "everyone is home",
  GAME_END_PLACES_DECIDED: "every place is decided",
  GAME_END_MOVE_LIMIT: "the move limit was reached; the rest are placed by distance",
  GAME_END_STALLED: "nobody got nearer home for 100 moves each, or nobody could move",
};

// The winners, once first place is decided (place 1, shared in a draw). Before that, once someone
// is home, the round is being completed and others can still draw level: shown translucent.
function showResult(view) {
  const result = $("result");
  const first = view.standings.filter((st) => st.place === 1);
  const home = view.standings.filter((st) => st.finished && !st.place);
  let text = "";
  if (first.length > 1) text = `Draw for first place: ${seatNames(view, first)}`;
  else if (first.length === 1 && first[0].seat === view.your_seat) text = "You won!";
  else if (first.length === 1) text = `Winner: ${seatNames(view, first)}`;
  else if (home.length) text = `${seatNames(view, home)} home: the round is completed (a draw is still possible)`;
  if (text && view.summary.phase === "PHASE_OVER" && GAME_ENDS[view.game_end])
    text += ` (game over: ${GAME_ENDS[view.game_end]})`;
  // A cancel is the room's decision too: the page of a player who had not voted said nothing.
  if (view.summary.phase === "PHASE_CANCELLED")
    text = "Game cancelled: the players present voted to end it. Vote for a new game to play again.";
  result.textContent = text;
  result.hidden = !text;
  result.classList.toggle("undecided", !first.length);
}

// A take-back: asked for by a player with a move of their own to take back; agreed to by the
// others while one is open. The daemon says when it applies (can_take_back, take_back_seat).
function showTakeBack(view, member, own) {
  const button = $("vote-take-back");
  const playing = view.summary.phase === "PHASE_PLAYING";
  const open = view.take_back_seat >= 0 && view.take_back_seat < view.seats.length;
  const asker = open ? view.seats[view.take_back_seat] : null;
  const mine = open && view.take_back_seat === view.your_seat;
  button.hidden = !(member && playing && (open || view.can_take_back));
  button.disabled = !!(own && own.voted_take_back);
  if (mine) button.textContent = `Asked to take back ${view.take_back_move}: waiting for the others`;
  else if (open && own && own.voted_take_back) button.textContent = "Agreed to take back: waiting for the others";
  else if (open) button.textContent = `Agree to take back ${asker.name}'s ${view.take_back_move}`;
  else button.textContent = `Ask to take back your last move (${view.your_take_back_move})`;
}

function showLeader(view) {
  let text = "";
  const playing = view.summary.phase === "PHASE_PLAYING";
  // The daemon already leaves the leader out of the view: this only says why nothing is shown.
  // Only while a game is played: once it is over, the result says who won (it said "nobody yet"
  // beside a draw for first place).
  if (playing && view.leader_hidden) text = "In the lead: hidden until the game ends";
  else if (playing && view.standings.length) {
    if (view.leader_seat >= 0) {
      const seat = view.seats[view.leader_seat];
      text = `In the lead: ${seat.name || "seat " + (view.leader_seat + 1)}`;
    } else {
      // Those level at the front, as the terminal says it (leader_words in cli/client/output.cpp):
      // standings come best first, so two home in the same round are level ahead of everyone.
      const top = view.standings[0];
      const alike = (st) => Boolean(st.finished) === Boolean(top.finished)
        && (top.finished ? Number(st.moves) === Number(top.moves) : Number(st.distance_left) === Number(top.distance_left));
      const level = view.standings.filter(alike).map((st) => st.name);
      if (!top.finished && level.length === view.standings.length) text = "In the lead: nobody yet (all level)";
      else if (level.length === 1) text = `In the lead: ${level[0]}`;
      else text = `In the lead: ${level.slice(0, -1).join(", ")} and ${level[level.length - 1]} (level${top.finished ? ", home" : ""})`;
    }
  }
  $("leader").textContent = text;
}

function showStandings(view) {
  const table = $("standings");
  table.hidden = !(view.game_number > 0 && view.standings.length);
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const st of view.standings) {
    const tr = document.createElement("tr");
    // Translucent while its place is still open: it may change until decided.
    if (!st.place) tr.className = "undecided";
    const cells = [st.place ? String(st.place) : "-", null, String(st.moves),
                   st.finished ? "home" : String(st.distance_left)];
    for (const c of cells) {
      const td = document.createElement("td");
      if (c === null) {
        const seat = view.seats[st.seat];
        for (const set of seat ? seat.sets : []) td.appendChild(chip(set));
        td.appendChild(document.createTextNode(st.name));
      } else td.textContent = c;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}
