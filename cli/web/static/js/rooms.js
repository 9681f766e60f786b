// The rooms list: this daemon's rooms and the LAN's (ListRequest with lan, kept fresh by the
// event stream), each a button that opens (our rooms) or joins (others') it; and which of this
// daemon's rooms a page with none open shows.
const $ = (id) => document.getElementById(id);

function describe(r) {
  const phase = r.phase.replace("PHASE_", "").toLowerCase();
  const where = r.origin === "ROOM_ORIGIN_HOSTED" ? "hosted here"
    : r.host_player ? `at ${r.host_player}` : r.address;
  const friends = r.visibility === "VISIBILITY_FRIENDS" ? ", friends" : "";
  return `${r.name}: ${r.seats_taken}/${r.seats} seats, ${phase}${friends} (${where})`;
}

export function isOurs(room) {
  return room.origin === "ROOM_ORIGIN_HOSTED" || room.origin === "ROOM_ORIGIN_JOINED";
}

// The room a page with none open shows, among this daemon's (those with a role, roleIn by room id,
// in `roles`): the one where it is the player's turn, else one where they hold a seat, else the
// first listed. With a single room that is the room, as the daemon's "the only room" would be. A
// room in `left` (left from this page) is not shown again for being listed: the player gave it up,
// and sees it again only by taking a seat there again or by picking it.
export function roomToOpen(list, roles, left) {
  const rooms = (list && list.rooms) || [];
  const ours = rooms.filter((r) => r.phase !== "PHASE_CLOSED" && roles.get(r.room_id));
  const first = (wanted) => ours.find((r) => wanted(roles.get(r.room_id)));
  return first((role) => role.yourTurn) || first((role) => role.seated)
    || ours.find((r) => !left.has(r.room_id)) || null;
}

// onPick(room) is called when a room's button is clicked; roles (roleIn, by room id) marks the
// rooms waiting for the player's move, which the page may not be showing.
// daemonUp: false while halmad is down, when an empty list says nothing about the rooms.
export function showRooms(list, currentId, onPick, roles, daemonUp = true) {
  const ul = $("rooms-list");
  ul.replaceChildren();
  const rooms = (list && list.rooms) || [];
  if (!rooms.length) {
    const li = document.createElement("li");
    li.textContent = daemonUp ? "No rooms yet: host one below."
      : "halmad is not running here: your rooms show when it is back.";
    ul.appendChild(li);
  }
  for (const r of rooms) {
    if (r.phase === "PHASE_CLOSED") continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const yourMove = !!(roles.get(r.room_id) || {}).yourTurn;
    b.textContent = (r.room_id === currentId ? "\u25B6 " : "") + describe(r) + (yourMove ? " \u2014 your move" : "");
    b.dataset.roomId = r.room_id;
    b.dataset.name = r.name;
    if (isOurs(r)) b.classList.add("mine");
    if (yourMove) b.classList.add("your-move");
    b.addEventListener("click", () => onPick(r));
    li.appendChild(b);
    ul.appendChild(li);
  }
}

// What the join box says, as a JoinRequest: "host:port/room", "host:port", a code or a name.
export function joinRequest(text, spectate) {
  let t = text.trim();
  // The command a terminal shows others ("halma join 'pi.local:7460/sunday'"), pasted whole: what
  // it joins, as the shell would hand it to halma (the words were taken for a room's name).
  const command = /^halma\s+join\s+(.*)$/s.exec(t);
  if (command) {
    t = command[1].trim();
    if (/^--spectate(\s|$)/.test(t)) {
      spectate = true;
      t = t.slice("--spectate".length).trim();
    }
    if (/^'[^']*'$|^"[^"]*"$/.test(t)) t = t.slice(1, -1);
  }
  // At the first slash, as `halma join` reads it: a room's name may hold one ("a/b", which
  // `halma host` prints as HOST:PORT/a/b), a host's address never does.
  const slash = t.indexOf("/");
  if (slash > 0) return { address: t.slice(0, slash), room: t.slice(slash + 1), spectate };
  if (/^[\w.-]+:\d+$|^\[[0-9a-fA-F:]+\]:\d+$/.test(t)) return { address: t, room: "", spectate };
  return { address: "", room: t, spectate };
}
