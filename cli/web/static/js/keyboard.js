// Playing without a mouse: the board takes the focus (Tab), the arrow keys move a ring from hole
// to hole as the holes lie on the screen (the board may be turned), Enter or Space does what a
// click on that hole does. The ring appears with the first arrow, so a mouse click shows none. Escape skips an animation (main.js).
import { holeToward } from "./geometry.js";

const DIRECTIONS = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};
const CENTRE = 60;

// board: { turns(), cursor(), setCursor(index), press(index) }
export function wireKeyboard(svg, board) {
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("keydown", (e) => {
    const direction = DIRECTIONS[e.key];
    if (direction) {
      e.preventDefault();
      const from = board.cursor() === null ? CENTRE : board.cursor();
      board.setCursor(holeToward(from, direction[0], direction[1], board.turns()));
    } else if ((e.key === "Enter" || e.key === " ") && board.cursor() !== null) {
      e.preventDefault();
      board.press(board.cursor());
    }
  });
}
