// A room's rules in words a family reads at a glance: only what differs from the plain rules
// (docs/rules.md), so a variant is never played by surprise. The settings come as the daemon
// writes them ("jumps=long,rest=any"); one this page does not know is shown as it is.

const kWords = {
  "jumps=long": "long jumps (over one marble from any distance)",
  "rest=any": "marbles may stop in any triangle",
  "rest=unused": "marbles may also stop in the unused triangles",
  "home-lock=off": "a marble home may leave it again",
  "spoil=swap": "a marble left in your home may be swapped out",
  "spoil=occupied": "a full home counts, whoever's marbles fill it",
  "release=off": "no need to release a blocked home",
  "unused=filled": "unused triangles filled with fixed marbles",
  "first=coin": "a coin decides who starts",
};
const kDefaults = ["jumps=short", "rest=own", "home-lock=on", "spoil=none", "release=on", "unused=empty",
  "first=black"];
const kDefaultMoveLimit = 1000;

export function rulesInWords(mode) {
  const said = [];
  for (const setting of (mode.rules || "").split(",").map((s) => s.trim()).filter(Boolean))
    if (!kDefaults.includes(setting)) said.push(kWords[setting] || setting);
  const limit = mode.move_limit || kDefaultMoveLimit;
  if (limit !== kDefaultMoveLimit)
    said.push(`ends after ${limit} ${limit === 1 ? "move" : "moves"} each, the rest placed by distance`);
  if (mode.turn_limit_s) said.push(`${mode.turn_limit_s} s a turn, then the computer moves`);
  if (mode.hide_leader) said.push("the leader is hidden until the end");
  return said.length ? `Rules: ${said.join("; ")}.` : "Rules: the standard ones.";
}
