// What a chess page has beside the moves: the last move highlighted, the move list numbered as a
// game record, stepping through earlier positions without undoing, the board flipped (by hand,
// and for a player of Black against the engine), the clocks, resign and draw, and a layout that
// fits a phone's 375 px. Boards are checked against `qchess simulate --json`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, simulate, settle, typeMove as type, serverGame, shownGame,
} from './harness.js';
import { boardLabels, assertBoardShows } from './board.js';

const shared = serverAndBrowser();

/** Waits until the page has shown everything it asked for (an error message may be showing). */
const idle = (page) => page.waitForFunction(() => document.body.getAttribute('aria-busy') === 'false');
const square = (page, name) => page.locator(`#board [data-square="${name}"]`);
const highlighted = (page) => page.$$eval('#board [data-square]', (squares) => squares
  .filter((s) => s.querySelector('rect.highlight')).map((s) => s.dataset.square).sort());

test('the last move is highlighted and the move list is numbered as a game record', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  assert.deepEqual(await highlighted(page), []);
  await type(page, 'b1^a3c3');
  assert.deepEqual(await highlighted(page), ['a3', 'b1', 'c3']);
  await type(page, 'e7e5');
  assert.deepEqual(await highlighted(page), ['e5', 'e7']);
  const entries = await page.$$eval('#history li', (items) => items.map((i) => [i.classList.contains('white') ? 'white' : 'black', i.querySelector('button').textContent]));
  assert.deepEqual(entries, [['white', '1. b1^a3c3'], ['black', '1... e7e5']]);
  assert.match(await page.locator('#history li').first().textContent(), /split jump/);
  await screenshot(page, 'last-move');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('stepping through earlier positions shows them without undoing anything', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  const start = await boardLabels(page);
  const moves = ['b1^a3c3', 'g8f6', 'a3c3^b1'];
  for (const m of moves) await type(page, m);
  const now = await boardLabels(page);
  await page.getByRole('button', { name: 'Previous move' }).click();
  await settle(page);
  assertBoardShows(await boardLabels(page), simulate(['--moves', moves.slice(0, 2).join(' ')]).squares);
  assert.match(await page.locator('#headline').textContent(), /^Earlier position \(after 1\.\.\. g8f6, ply 2 of 3\): White to move/);
  assert.deepEqual(await highlighted(page), ['f6', 'g8']);
  // A click on the board of an earlier position plays nothing.
  await square(page, 'e2').click();
  assert.match(await page.locator('#message').textContent(), /earlier position/);
  await page.getByRole('button', { name: 'First position' }).click();
  await idle(page);
  assert.deepEqual(await boardLabels(page), start);
  assert.equal(await page.getByRole('button', { name: 'Previous move' }).isDisabled(), true);
  // The move list goes to the position after a move; the arrow keys step.
  await page.locator('#history li[data-ply="1"] button').click();
  await idle(page);
  assertBoardShows(await boardLabels(page), simulate(['--moves', moves[0]]).squares);
  assert.equal(await page.locator('#history li[data-ply="1"]').getAttribute('aria-current'), 'step');
  await screenshot(page, 'browsing');
  await page.locator('#board').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('ArrowRight');
  await idle(page);
  assertBoardShows(await boardLabels(page), simulate(['--moves', moves.slice(0, 2).join(' ')]).squares);
  await page.getByRole('button', { name: 'Last position' }).click();
  await idle(page);
  assert.deepEqual(await boardLabels(page), now);
  assert.equal(await page.locator('#headline').textContent(), 'Black to move');
  // Nothing was taken back.
  const game = await serverGame(shared.server.url, await shownGame(page));
  assert.deepEqual(game.moves.map((m) => m.text), moves);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

/** Where the squares a1 and h8 are drawn on the screen. */
async function corners(page) {
  const a1 = await square(page, 'a1').boundingBox();
  const h8 = await square(page, 'h8').boundingBox();
  return { a1, h8 };
}

test('the board flips, by hand and for a player of Black against the engine', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  let { a1, h8 } = await corners(page);
  assert.ok(a1.x < h8.x && a1.y > h8.y, 'White at the bottom');
  await page.getByLabel('Flip board').check();
  await settle(page);
  ({ a1, h8 } = await corners(page));
  assert.ok(a1.x > h8.x && a1.y < h8.y, 'Black at the bottom');
  // Flipped, the board still plays by clicking and shows the same position.
  await square(page, 'e2').click();
  await square(page, 'e4').click();
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 1);
  await settle(page);
  assertBoardShows(await boardLabels(page), simulate(['--moves', 'e2e4']).squares);
  assert.deepEqual(await highlighted(page), ['e2', 'e4']);
  await page.getByLabel('Flip board').uncheck();
  await settle(page);
  // In a new game the engine takes White: it opens, and the board turns so that the player's
  // Black is at the bottom.
  await page.getByRole('button', { name: 'New game' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 0);
  await settle(page);
  await page.getByLabel('Time per move (ms)').fill('50');
  await page.getByLabel('Engine plays').selectOption('white');
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 1);
  await settle(page);
  assert.equal(await page.getByLabel('Flip board').isChecked(), true);
  ({ a1, h8 } = await corners(page));
  assert.ok(a1.x > h8.x && a1.y < h8.y, 'Black at the bottom against the engine on White');
  assert.equal(await page.locator('#headline').textContent(), 'Black to move');
  await screenshot(page, 'flipped');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('the clocks count each side\'s time, the running one marked', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  assert.match(await page.locator('#clock-white').textContent(), /^White \d+:\d\d$/);
  assert.match(await page.locator('#clock-white').getAttribute('class'), /running/);
  assert.doesNotMatch(await page.locator('#clock-black').getAttribute('class'), /running/);
  await type(page, 'e2e4');
  assert.match(await page.locator('#clock-black').getAttribute('class'), /running/);
  assert.doesNotMatch(await page.locator('#clock-white').getAttribute('class'), /running/);
  const game = await serverGame(shared.server.url, await shownGame(page));
  assert.equal(game.clocks.running, 'black');
  assert.ok(game.clocks.white_ms >= 0 && game.clocks.black_ms >= 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('resign and draw end the game; the server records it and refuses moves after', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await type(page, 'e2e4');
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.waitForFunction(() => document.querySelector('#headline').textContent.startsWith('Game over'));
  await settle(page);
  assert.equal(await page.locator('#headline').textContent(), 'Game over: White wins (Black resigned)');
  let game = await serverGame(shared.server.url, await shownGame(page));
  assert.equal(game.status, 'white_wins');
  assert.deepEqual(game.ending, { by: 'resignation', resigned: 'black', winner: 'white' });
  assert.equal(await page.getByRole('button', { name: 'Undo' }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Resign' }).isDisabled(), true);
  const field = page.getByLabel('Move', { exact: true });
  await field.fill('e7e5');
  await field.press('Enter');
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('Illegal move e7e5'));
  assert.match(await page.locator('#message').textContent(), /the game is over \(White wins \(Black resigned\)\)/);
  await screenshot(page, 'resigned');
  await page.getByRole('button', { name: 'New game' }).click();
  await page.waitForFunction(() => document.querySelector('#headline').textContent === 'White to move');
  await settle(page);
  await page.getByRole('button', { name: 'Draw' }).click();
  await page.waitForFunction(() => document.querySelector('#headline').textContent.startsWith('Game over'));
  await settle(page);
  assert.equal(await page.locator('#headline').textContent(), 'Game over: Draw (agreed)');
  game = await serverGame(shared.server.url, await shownGame(page));
  assert.equal(game.status, 'draw_agreed');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, ['POST /api/games/{id}/play 422']);
  await context.close();
});

test('at 375 px wide nothing overflows and Undo is visible and clickable', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url, { viewport: { width: 375, height: 740 } });
  await type(page, 'b1^a3c3');
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(widths.document <= 375 && widths.body <= 375, `the page is ${JSON.stringify(widths)} px wide`);
  // Every element ends inside the screen, save those in a panel that scrolls on its own.
  const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => !e.closest('.drawing, .program, #legal-panel:not([open]), [hidden]'))
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className && e.className.baseVal === undefined ? e.className : ''}`));
  assert.deepEqual(wide, []);
  const undo = page.getByRole('button', { name: 'Undo' });
  await undo.scrollIntoViewIfNeeded();
  const box = await undo.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `Undo at ${JSON.stringify(box)}`);
  await page.screenshot({ path: `${(await import('./harness.js')).SHOTS}/phone.png` });
  await screenshot(page, 'phone-full');
  await undo.click();
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 0);
  await settle(page);
  assert.match(await page.locator('#message').textContent(), /Took back b1\^a3c3/);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});
