// Where the player stands in each of this daemon's rooms besides the one shown, for the rooms
// list's "your move" marks and for the room a page with none open picks; and the newest room list.
// The page hears every event of every room, and a room of bots plays many moves a second: reading
// the rooms again on each would flood halma web and delay the player's own requests. So a move (or
// any event that seats no one) updates its room's turn from the event's own your_turn, with no
// request; only an event that may move seats has that room's view read again, only a changed list
// has new rooms read; and one refresh runs at a time, at most every REFRESH_GAP_MS.
import { ask } from "./api.js";
import { coalesced } from "./coalesce.js";
import { isOurs } from "./rooms.js";

const REFRESH_GAP_MS = 300;

// RoomEvent bodies that seat and unseat no one: after them the event's your_turn is all that changed.
const SEATS_UNCHANGED = ["move", "chat", "vote", "leader", "connection"];

// The room's role as of its view: what the list and roomToOpen read, and the seq it holds at.
export function roleIn(view) {
  return { yourTurn: !!view.your_turn, seated: view.your_seat >= 0, seq: Number(view.seq) };
}

export class RoomRoles {
  // shownId(): the room the page shows, whose role the page sets itself (seen) from the views it
  // reads anyway. refreshed(): called (and awaited) after each refresh, to redraw the list or open a room.
  constructor(shownId, refreshed) {
    this.list = null;          // the newest RoomList (ours and the LAN's)
    this.roles = new Map();    // room id -> roleIn, or null when its view could not be read
    this.stale = new Set();    // rooms whose view must be read again
    this.listStale = true;     // the list must be asked for (no push brings it)
    this.pushes = 0;           // lists pushed so far: an asked list older than a push is dropped
    this.daemonsSeen = 0;      // forget() calls: views asked of a daemon since gone are dropped
    this.latestTurn = new Map(); // room id -> { seq, yourTurn } of its newest event, for a view read before it
    this.shownId = shownId;
    this.refreshed = refreshed;
    this.refresh = coalesced(() => this.readStale(), REFRESH_GAP_MS);
  }

  // halmad (re)started, or the page just opened: nothing known holds any more.
  forget() {
    this.daemonsSeen += 1;
    this.roles.clear();
    this.stale.clear();
    this.latestTurn.clear();
    this.listStale = true;
    this.refresh();
  }

  // A join or a host: the list has a new room, which no push may have brought yet.
  listChanged() {
    this.listStale = true;
    this.refresh();
  }

  // The player gave up their seat in `roomId`: the seat its role holds is gone at once (a hosted
  // room stays, with a computer in the seat: read again), and a joined room leaves the list.
  left(roomId) {
    this.roles.delete(roomId);
    this.markStale(roomId);
    this.listChanged();
  }

  pushed(list) {
    this.pushes += 1;
    this.take(list);
    this.refresh();
  }

  // A view of the room shown, read by the page.
  seen(view) {
    this.roles.set(view.summary.room_id, roleIn(view));
  }

  // An event of a room not shown.
  heard(event) {
    const id = event.room_id;
    const body = event.event;
    if (!body || !SEATS_UNCHANGED.some((kind) => kind in body)) {
      this.markStale(id);
      return this.refresh();
    }
    const seq = Number(body.seq);
    const yourTurn = !!event.your_turn;
    this.latestTurn.set(id, { seq, yourTurn });
    const role = this.roles.get(id);
    if (!role || seq <= role.seq) return;
    this.roles.set(id, { ...role, yourTurn, seq });
    if (role.yourTurn !== yourTurn) this.refresh();
  }

  // The role stays shown until the view is read. An answer already on its way is from before
  // what made it stale: readStale drops it.
  markStale(id) {
    this.latestTurn.delete(id);
    this.stale.add(id);
  }

  take(list) {
    this.list = list;
    const ours = new Set(this.ourIds());
    for (const id of [...this.roles.keys()]) if (!ours.has(id)) this.roles.delete(id);
    for (const id of [...this.stale]) if (!ours.has(id)) this.stale.delete(id);
  }

  ourIds() {
    const rooms = (this.list && this.list.rooms) || [];
    return rooms.filter((r) => isOurs(r) && r.phase !== "PHASE_CLOSED").map((r) => r.room_id);
  }

  async readStale() {
    const daemon = this.daemonsSeen;
    if (this.listStale) {
      this.listStale = false;
      const pushes = this.pushes;
      const reply = await ask("list", { lan: true }).catch(() => null);
      if (!reply || !reply.rooms) this.listStale = true; // asked again on the next refresh
      else if (pushes === this.pushes && daemon === this.daemonsSeen) this.take(reply.rooms);
    }
    const shown = this.shownId();
    const wanted = this.ourIds().filter((id) => id !== shown && (this.stale.has(id) || !this.roles.has(id)));
    for (const id of wanted) this.stale.delete(id);
    const replies = await Promise.all(wanted.map((id) => ask("view", { room: id }).catch(() => null)));
    if (daemon !== this.daemonsSeen) return; // forget() asked for another refresh, which reads them all
    wanted.forEach((id, i) => {
      const reply = replies[i];
      if (this.stale.has(id)) return;
      if (!reply) this.stale.add(id); // halma web did not answer: read on the next refresh
      else if (!reply.view) this.roles.set(id, null);
      else {
        const role = roleIn(reply.view);
        // Moves heard while the view was on its way are newer than it.
        const turn = this.latestTurn.get(id);
        this.roles.set(id, turn && turn.seq > role.seq ? { ...role, ...turn } : role);
      }
    });
    await this.refreshed();
  }
}
