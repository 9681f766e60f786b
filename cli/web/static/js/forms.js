// The page's forms and buttons: chat, the votes, start, pass, leave, the friends code's copy,
// and the Join and Host forms. Each becomes a request through `page` (main.js): act(action) for
// the room shown, askOrSay(kind, body) for the others, afterJoin(reply) to show a room joined or
// hosted, say(text) for a word to the player, view() for the room shown.
import { joinRequest } from "./rooms.js";

const $ = (id) => document.getElementById(id);

export function wireForms(page) {
  $("chat-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("chat-input").value;
    if (!text.trim()) return;
    const reply = await page.act({ chat: text });
    if (!reply.error) $("chat-input").value = "";
  });
  $("start").addEventListener("click", () => page.act({ start: { bot_level: $("start-level").value } }));
  $("pass").addEventListener("click", () => page.act({ move: "pass" }));
  $("vote-new").addEventListener("click", () => page.act({ vote: "VOTE_KIND_NEW_GAME" }));
  $("vote-cancel").addEventListener("click", () => page.act({ vote: "VOTE_KIND_CANCEL" }));
  $("vote-leader").addEventListener("click", () => page.act({ vote: "VOTE_KIND_LEADER" }));
  $("vote-take-back").addEventListener("click", () => page.act({ vote: "VOTE_KIND_TAKE_BACK" }));
  $("leave").addEventListener("click", () => {
    // Mid-game, leaving gives the seat to a computer (and to whoever joins next): asked first,
    // as `halma close` asks, for a click meant for something else.
    const view = page.view();
    const playing = view && view.summary.phase === "PHASE_PLAYING" && view.your_seat >= 0;
    const question = view && `Leave ${view.summary.name} in the middle of the game? A computer ` +
      "plays your seat, and whoever joins next can take it.";
    if (playing && !window.confirm(question)) return;
    page.act({ leave: {} });
  });
  $("copy-code").addEventListener("click", () => navigator.clipboard.writeText($("code").textContent));
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    // Spaces alone pass the browser's check of an empty box: said here, nothing sent.
    if (!$("join-what").value.trim()) {
      page.say("Type a room's name or code, or HOST[:PORT]/ROOM, to join it.");
      return;
    }
    const reply = await page.askOrSay("join", joinRequest($("join-what").value, $("join-spectate").checked));
    // The daemon's words are for the terminal ("join by address: halma join HOST[:PORT]/ROOM"):
    // here the address goes in this box.
    if (reply.error && reply.error.message)
      reply.error.message = reply.error.message.replace("halma join HOST[:PORT]/ROOM", "type HOST[:PORT]/ROOM in this box");
    page.afterJoin(reply);
    // Joined: the box is emptied, and "watch" unticked, or the next join was a watch unasked.
    if (!reply.error) {
      $("join-what").value = "";
      $("join-spectate").checked = false;
    }
  });
  // The browser refuses a form it finds incomplete (no room name) without a submit: the
  // message of an earlier try would stay beside the browser's own, as if it were this one's.
  for (const form of ["host-form", "join-form"])
    $(form).addEventListener("invalid", () => page.say(""), true);
  // The button says what hosting will do with the seats: with the form's default of one
  // computer, a two-player room starts at once and nobody else can take a seat, which a family
  // hosting for the child in the next room did not expect.
  const sayHostSeats = () => {
    const people = Math.max(1, Number($("host-players").value) - Number($("host-bots").value || 0));
    const bots = Number($("host-players").value) - people;
    $("host-submit").textContent = people === 1 ? `Host and play ${bots === 1 ? "the computer" : `${bots} computers`} now`
      : `Host: ${bots ? `${bots} computer${bots > 1 ? "s" : ""}, ` : ""}${people - 1} seat${people > 2 ? "s" : ""} for others`;
  };
  for (const field of ["host-players", "host-bots"]) $(field).addEventListener("input", sayHostSeats);
  sayHostSeats();
  $("host-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const reply = await page.askOrSay("host", {
      name: $("host-name").value,
      visibility: $("host-friends").checked ? "VISIBILITY_FRIENDS" : "VISIBILITY_PUBLIC",
      mode: { players: Number($("host-players").value), sets_per_player: Number($("host-sets").value),
              rules: $("host-rules").value, move_limit: Number($("host-limit").value) || 0,
              hide_leader: $("host-hide-leader").checked, turn_limit_s: Number($("host-turn").value) || 0 },
      bots: Number($("host-bots").value),
      bot_level: $("host-level").value,
    });
    // A room made empties the name (a second click made a duplicate, or "exists already");
    // the rest of the form stays, for the next room like it.
    if (!reply.error) $("host-name").value = "";
    page.afterJoin(reply);
  });
}
