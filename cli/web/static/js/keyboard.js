// Playing without a mouse: the board takes the focus (Tab), the arrow keys move a ring from hole
// to hole as the holes lie on the screen (the board may be turned), Enter or Space does what a
// click on that hole does. The ring appears when the board is reached by Tab (not by a mouse
// click), on one of the player's own marbles: it showed only at the first arrow, in the centre,
// a board's width from anything the player could move. Escape skips an animation (main.js).
import { holeToward } from "./geometry.js";

const DIRECTIONS = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};
// board: { turns(), cursor(), setCursor(index), press(index), start() }; start(): the hole the
// ring starts on.
export function wireKeyboard(svg, board) {
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("focus", () => {
    if (board.cursor() === null && svg.matches(":focus-visible")) board.setCursor(board.start());
  });
  svg.addEventListener("keydown", (e) => {
    const direction = DIRECTIONS[e.key];
    if (direction) {
      e.preventDefault();
      if (board.cursor() === null) return board.setCursor(board.start());
      board.setCursor(holeToward(board.cursor(), direction[0], direction[1], board.turns()));
    } else if ((e.key === "Enter" || e.key === " ") && board.cursor() !== null) {
      e.preventDefault();
      board.press(board.cursor());
    }
  });
}
