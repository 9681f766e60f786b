// The page's line to `halma web`: each request is the JSON of a local-API request body
// (docs/api.md) POSTed to /api/KIND; pushes come on one EventSource. The token travels in the
// cookie set when the page was opened.

// Returns the daemon's Reply as an object; a reply with `error` is returned too (the caller shows
// error.message). Throws only when halmad or halma web did not answer.
export async function ask(kind, body = {}) {
  const response = await fetch(`/api/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const reply = await response.json().catch(() => null);
  if (!reply) throw new Error(`halma web answered ${response.status}`);
  return reply;
}

// handlers: { daemon(data), room(event), rooms(roomList), lost() }
export function listen(handlers) {
  const source = new EventSource("/api/events");
  for (const name of ["daemon", "room", "rooms"])
    source.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
  source.onerror = () => handlers.lost();
  return source;
}
