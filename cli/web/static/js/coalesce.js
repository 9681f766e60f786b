// Paces work that many events ask for: a room of bots may push a hundred events a second, and a
// request per event would queue behind (and delay) the player's own.

// Returns request(): it runs `work` (async) soon, never two runs at once and at most one start
// every `gapMs`. Requests made while a run waits or goes on make one more run after it, not one
// each, so that run sees all they asked for.
export function coalesced(work, gapMs) {
  let timer = null;
  let running = false;
  let requestedAgain = false;
  let lastStart = -Infinity;
  async function run() {
    timer = null;
    running = true;
    requestedAgain = false;
    lastStart = performance.now();
    try {
      await work();
    } finally {
      running = false;
      if (requestedAgain) request();
    }
  }
  function request() {
    if (running) requestedAgain = true;
    else if (timer === null) timer = setTimeout(run, Math.max(0, lastStart + gapMs - performance.now()));
  }
  return request;
}
