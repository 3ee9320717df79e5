// Reading the page's board as a person using a screen reader would: the aria-label of every
// square (`e4: white knight, 50%`, `e4: empty`), and comparing it with what the command line
// says of the same game (`qchess simulate --json`).

import assert from 'node:assert/strict';
import { percent } from './harness.js';

const KINDS = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

/** The name of a FEN letter's piece: `N` is `white knight`. */
export function pieceName(letter) {
  const colour = letter === letter.toUpperCase() ? 'white' : 'black';
  return `${colour} ${KINDS[letter.toLowerCase()]}`;
}

/** `{square: label}` for every square of the board on the page. */
export async function boardLabels(page, selector = '#board') {
  return page.$$eval(`${selector} [data-square]`, (squares) => Object.fromEntries(
    squares.filter((s) => s.getAttribute('aria-label'))
      .map((s) => [s.dataset.square, s.getAttribute('aria-label')]),
  ));
}

/**
 * Checks that every square's label says what `squares` (the `squares` of `qchess simulate
 * --json`: `{e4: {piece, probability}}`) says: the piece and, when it is not certain, its
 * percentage; every other square empty. Niel's marks may follow.
 */
export function assertBoardShows(labels, squares, { width = 8, height = 8 } = {}) {
  const files = 'abcdefgh'.slice(0, width);
  let checked = 0;
  for (const file of files) {
    for (let rank = 1; rank <= height; rank += 1) {
      const square = `${file}${rank}`;
      const label = labels[square];
      assert.ok(label !== undefined, `no element with data-square="${square}" and an aria-label`);
      const content = squares[square];
      if (!content || content.probability <= 0) {
        assert.equal(label, `${square}: empty`);
      } else {
        let expected = `${square}: ${pieceName(content.piece)}`;
        if (content.probability < 1 - 1e-9) expected += `, ${percent(content.probability)}`;
        assert.ok(label === expected || label.startsWith(`${expected}, `),
          `${square}: the page says "${label}", the command line "${expected}"`);
      }
      checked += 1;
    }
  }
  assert.equal(checked, width * height);
}
