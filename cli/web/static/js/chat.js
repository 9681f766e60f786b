// The room's chat: its history comes with every view (the latest 50 lines), so reopening the
// page shows it. Lines are text nodes: a line full of HTML stays a line of text.
const $ = (id) => document.getElementById(id);

// A line from someone else while the chat is off the screen (below the board on a phone) is
// told by a button over the page, which scrolls to it: new lines went unseen.
let chatRoom = "";     // the room whose chat is shown
let newestSeq = null;  // the seq of its newest line, when last shown

function inSight(element) {
  const r = element.getBoundingClientRect();
  return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
}

function hideNotice() {
  $("new-chat").hidden = true;
}

// Whether the chat is scrolled to its newest line: kept across a change of the window's width
// (a phone turned), after which the chat stayed mid-way and new lines went below its edge.
let following = true;

function toNewest() {
  const log = $("chat-log");
  log.scrollTop = log.scrollHeight;
  following = true;
}

export function wireChatNotice() {
  $("new-chat").addEventListener("click", () => {
    hideNotice();
    toNewest(); // the new line itself, not only the chat's box
    $("chat-pane").scrollIntoView({ block: "end" });
  });
  const log = $("chat-log");
  log.addEventListener("scroll", () => {
    following = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  });
  new ResizeObserver(() => { if (following) toNewest(); }).observe(log);
  new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) hideNotice(); })
    .observe($("chat-log"));
}

function noticeNewLines(view, lines) {
  const room = view ? view.summary.room_id : "";
  const last = lines.length ? lines[lines.length - 1] : null;
  const seq = last ? Number(last.seq) : 0;
  const own = view && view.your_seat >= 0 ? view.seats[view.your_seat].name : "";
  if (room !== chatRoom) hideNotice();
  else if (newestSeq !== null && seq > newestSeq && last.name !== own && !inSight($("chat-log"))) {
    $("new-chat").textContent = `New chat \u2193 ${last.name}: ${last.text}`;
    $("new-chat").hidden = false;
  }
  chatRoom = room;
  newestSeq = seq;
}

export function showChat(view) {
  const log = $("chat-log");
  const lines = view ? view.chat : [];
  const atBottom = following || log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const line of lines) {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = line.name;
    li.appendChild(who);
    li.appendChild(document.createTextNode(line.text));
    log.appendChild(li);
  }
  if (atBottom) toNewest();
  noticeNewLines(view, lines);
}
