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
