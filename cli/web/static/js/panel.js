// The room's side panel: lights, seats (with their colours and letters), who leads, standings and
// the buttons that fit the room's phase. Every name is put in as text, never as HTML.
import { LETTERS, COLOUR_NAMES } from "./geometry.js";

const $ = (id) => document.getElementById(id);

function chip(set) {
  const span = document.createElement("span");
  span.className = `chip set${set}`;
  span.textContent = LETTERS[set];
  span.title = COLOUR_NAMES[set];
  return span;
}

export function setConnectionLight(state, text) {
  const light = $("light-connection");
  light.className = `light ${state}`;
  light.dataset.state = state;
  $("connection-text").textContent = text;
}

export function showConnection(daemonUp, view) {
  if (!daemonUp) return setConnectionLight("red", "halmad is not running");
  if (!view) return setConnectionLight("green", "halmad is running");
  const c = view.connection;
  if (c === "CONNECTION_STATE_CONNECTED") setConnectionLight("green", "connected");
  else if (c === "CONNECTION_STATE_CONNECTING") setConnectionLight("yellow", "reconnecting to the host");
  else setConnectionLight("red", "not in this room any more");
}

export function showTurn(view) {
  const on = !!(view && view.your_turn);
  const light = $("light-turn");
  light.className = on ? "light on" : "light";
  light.dataset.on = on ? "yes" : "no";
  let text = "no game running";
  if (on) text = "your turn";
  else if (view && view.turn_seat >= 0) {
    const seat = view.seats[view.turn_seat];
    text = `${seat && seat.name ? seat.name : "seat " + (view.turn_seat + 1)} to move`;
  }
  $("turn-text").textContent = text;
}

function seatLabel(seat) {
  let label = seat.name || "(free seat)";
  if (seat.bot) label += ` (computer${seat.bot_level ? ", " + seat.bot_level : ""})`;
  if (seat.name && !seat.connected) label += " (gone, seat held)";
  if (seat.voted_new_game) label += " (voted new game)";
  if (seat.voted_cancel) label += " (voted cancel)";
  return label;
}

export function showRoom(view) {
  const seats = $("seats");
  seats.replaceChildren();
  if (!view) {
    $("room-title").textContent = "No room open";
    for (const id of ["start-box", "vote-new", "vote-cancel", "leave", "standings", "friends-code"])
      $(id).hidden = true;
    $("leader").textContent = "";
    return;
  }
  const s = view.summary;
  $("room-title").textContent = `${s.name} (${s.seats_taken}/${s.seats} seats, ` +
    `${s.phase.replace("PHASE_", "").toLowerCase()}${view.game_number ? ", game " + view.game_number : ""})`;
  const playing = view.game_number > 0;
  for (const seat of view.seats) {
    const li = document.createElement("li");
    if (playing) for (const set of seat.sets) li.appendChild(chip(set));
    li.appendChild(document.createTextNode(seatLabel(seat) + (seat.seat === view.your_seat ? " (you)" : "")));
    if (seat.seat === view.turn_seat) li.className = "turn";
    seats.appendChild(li);
  }
  const member = view.your_seat >= 0;
  $("start-box").hidden = !(member && view.game_number === 0 && s.phase === "PHASE_WAITING");
  $("vote-new").hidden = !(member && view.game_number > 0);
  $("vote-cancel").hidden = !(member && view.seats.some((x) => x.name && !x.bot && !x.connected));
  $("leave").hidden = !member;
  $("friends-code").hidden = !s.code;
  $("code").textContent = s.code;
  showLeader(view);
  showStandings(view);
}

function showLeader(view) {
  let text = "";
  if (view.game_number > 0 && view.standings.length) {
    if (view.leader_seat >= 0) {
      const seat = view.seats[view.leader_seat];
      text = `In the lead: ${seat.name || "seat " + (view.leader_seat + 1)}`;
    } else text = "In the lead: level";
  }
  $("leader").textContent = text;
}

function showStandings(view) {
  const table = $("standings");
  table.hidden = !(view.game_number > 0 && view.standings.length);
  // Translucent while places are still open: a place may change until the game is over.
  table.classList.toggle("undecided", view.summary.phase !== "PHASE_OVER");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const st of view.standings) {
    const tr = document.createElement("tr");
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
