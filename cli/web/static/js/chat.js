// The room's chat: its history comes with every view (the latest 50 lines), so reopening the
// page shows it. Lines are text nodes: a line full of HTML stays a line of text.
const $ = (id) => document.getElementById(id);

export function showChat(view) {
  const log = $("chat-log");
  const lines = view ? view.chat : [];
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
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
  if (atBottom) log.scrollTop = log.scrollHeight;
}
