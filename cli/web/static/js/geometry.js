// The star's layout and the names of its holes (docs/notation.md): where each hole is drawn, and
// how the board turns so a player's own triangle is at the bottom. Drawing only: which moves are
// legal is the daemon's to say.

export const ROW_LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const ROW_LETTERS = "abcdefghijklmnopq";
export const LETTERS = ["B", "G", "Y", "R", "C", "P"]; // set 0..5, docs/rules.md "Colours"
export const COLOUR_NAMES = ["black", "green", "yellow", "red", "cyan", "purple"];

// Every hole, 0..120 row by row from a1: its name and its place with the centre at (0, 0), one
// unit between neighbours. Rows are centred, which is exactly the star's shape.
export const HOLES = [];
{
  const dy = Math.sqrt(3) / 2;
  ROW_LENGTHS.forEach((length, row) => {
    for (let k = 0; k < length; k++)
      HOLES.push({ index: HOLES.length, name: `${ROW_LETTERS[row]}${k + 1}`,
                   x: k - (length - 1) / 2, y: (row - 8) * dy });
  });
}
const BY_NAME = new Map(HOLES.map((h) => [h.name, h.index]));

export function holeIndex(name) {
  return BY_NAME.get(name.toLowerCase());
}

// "4/44/.../1 1" -> one character per hole ('.', '1'..'6', 'x'), or null when empty.
export function parsePosition(position) {
  if (!position) return null;
  const rows = position.split(" ")[0];
  return rows.replaceAll("/", "").split("");
}

// The board turned by `turns` sixths of a circle, clockwise on the screen.
export function place(index, turns) {
  const a = (turns * Math.PI) / 3;
  const { x, y } = HOLES[index];
  return { x: x * Math.cos(a) - y * Math.sin(a), y: x * Math.sin(a) + y * Math.cos(a) };
}

// Set s starts in triangle s+1; triangles 1..6 go round from the bottom clockwise (bottom, lower
// left, upper left, top, upper right, lower right), so bringing set s's triangle to the bottom
// takes -s sixths.
export function turnsToBottom(set) {
  return -set;
}

// The triangle (1..6, docs/rules.md) a hole belongs to, 0 for the centre (docs/notation.md,
// "Triangles"): for tinting each triangle with the colour of the set that starts or ends there.
export function triangleOf(index) {
  let row = 0;
  let k = index;
  while (k >= ROW_LENGTHS[row]) k -= ROW_LENGTHS[row++];
  const length = ROW_LENGTHS[row];
  if (row <= 3) return 4;
  if (row >= 13) return 1;
  const side = row <= 7 ? 8 - row : row - 8; // holes of a side triangle on this row
  if (k < side) return row <= 7 ? 3 : 2;
  if (k >= length - side) return row <= 7 ? 5 : 6;
  return 0;
}

// The hole nearest `from` in screen direction (dx, dy) on a board turned by `turns`, or `from`
// when there is none that way: for moving the keyboard's cursor. Neighbours on the star lie
// 0, 60 or 120 degrees round, so a cone of 55 degrees either side finds one for every arrow.
export function holeToward(from, dx, dy, turns) {
  const a = place(from, turns);
  let best = from;
  let bestScore = Infinity;
  for (const h of HOLES) {
    if (h.index === from) continue;
    const b = place(h.index, turns);
    const vx = b.x - a.x;
    const vy = b.y - a.y;
    const distance = Math.hypot(vx, vy);
    const cos = (vx * dx + vy * dy) / distance;
    if (cos < Math.cos((55 * Math.PI) / 180)) continue;
    const score = distance * (2 - cos);
    if (score < bestScore) {
      bestScore = score;
      best = h.index;
    }
  }
  return best;
}
