// What the page does while the engine thinks: a move, an undo or a new game asked for then is
// never lost and never shows an answer that belongs to another game or ply. The engine's answer
// is held in the browser (`holdEngine`) until the test has done what a hurried player does, so
// the think lasts exactly as long as the test needs, on a loaded machine too. Each test ends by
// checking the page against the server's own state of the game.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, openPage, screenshot, settle, holdEngine, serverGame, shownGame,
} from './harness.js';

const shared = serverAndBrowser();

const historyTexts = (page) => page.$$eval('#history li strong', (items) => items.map((i) => i.textContent));

/** The page and the server agree on the game: its id, its moves, its headline. */
async function assertPageIsServer(page) {
  const id = await shownGame(page);
  const game = await serverGame(shared.server.url, id);
  assert.deepEqual(await historyTexts(page), game.moves.map((m) => m.text), 'the moves on the page are the server\'s');
  assert.equal(await page.locator('#headline').textContent(), game.headline);
  return game;
}

/** Engine on Black with a short time: the think's length is the held answer's, not this. */
async function engineOnBlack(page) {
  await page.getByLabel('Engine plays').selectOption('black');
  await page.getByLabel('Time per move (ms)').fill('50');
}

async function submit(page, text) {
  const field = page.getByLabel('Move', { exact: true });
  await field.fill(text);
  await field.press('Enter');
}

/** A page with the engine on Black, after e2e4 typed: returns once the engine's answer is held. */
async function engineThinkingAfterE2e4() {
  const opened = await openPage(shared.browser, shared.server.url);
  const hold = await holdEngine(opened.page, 1);
  await engineOnBlack(opened.page);
  await submit(opened.page, 'e2e4');
  await hold.arrived();
  return { ...opened, hold };
}

/** Waits until the page has queued an action (the fix) or sent the request `path` (without it). */
async function queuedOrSent(page, path) {
  await Promise.race([
    page.waitForFunction(() => Number(document.body.dataset.queued) > 0),
    page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(path)),
  ]);
}

test('a move typed while the engine thinks waits for its answer, then is played and answered', async () => {
  const {
    page, context, errors, refused, hold,
  } = await engineThinkingAfterE2e4();
  const thinking = await page.locator('body').getAttribute('data-thinking');
  await submit(page, 'd2d4');
  await queuedOrSent(page, '/play');
  const message = await page.locator('#message').textContent();
  hold.release();
  await settle(page);
  // e2e4, the engine's answer, d2d4, the engine's answer to it: four moves, White to move.
  const game = await assertPageIsServer(page);
  assert.equal(thinking, 'true');
  assert.match(message, /d2d4 waits for the engine's move/);
  assert.equal(game.moves.length, 4);
  assert.deepEqual([game.moves[0].text, game.moves[2].text], ['e2e4', 'd2d4']);
  assert.deepEqual(game.moves.map((m) => m.mover), ['white', 'black', 'white', 'black']);
  assert.equal(game.side_to_move, 'white');
  assert.equal(await page.locator('#headline').textContent(), 'White to move');
  await screenshot(page, 'race-move');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('undo pressed while the engine thinks takes back its move and yours once it has moved', async () => {
  const {
    page, context, errors, refused, hold,
  } = await engineThinkingAfterE2e4();
  await page.getByRole('button', { name: 'Undo' }).click();
  await queuedOrSent(page, '/undo');
  hold.release();
  await settle(page);
  const game = await assertPageIsServer(page);
  assert.equal(game.moves.length, 0);
  assert.equal(game.side_to_move, 'white');
  assert.match(await page.locator('#message').textContent(), /^Took back e2e4 /);
  // The engine answers the next move as before.
  await submit(page, 'd2d4');
  await settle(page);
  const next = await assertPageIsServer(page);
  assert.equal(next.moves.length, 2);
  assert.equal(next.moves[1].mover, 'black');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('a new game started while the engine thinks is not overwritten by the old game\'s answer', async () => {
  const {
    page, context, errors, refused, hold,
  } = await engineThinkingAfterE2e4();
  const first = await shownGame(page);
  await page.getByRole('button', { name: 'New game' }).click();
  await page.waitForFunction((old) => !location.hash.includes(old), first);
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 0);
  hold.release();
  await settle(page);
  const game = await assertPageIsServer(page);
  assert.notEqual(game.id, first);
  assert.equal(game.moves.length, 0);
  assert.equal(await page.locator('#headline').textContent(), 'White to move');
  // The new game plays on, the engine answering.
  await submit(page, 'g1f3');
  await settle(page);
  assert.equal((await assertPageIsServer(page)).moves.length, 2);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('a move from a stale page (another tab moved the game) is refused and the page catches up', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  const id = await shownGame(page);
  // Another tab plays e2e4 in the same game.
  const other = await fetch(`${shared.server.url}api/games/${id}/play`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ move: 'e2e4', ply: 0 }),
  });
  assert.equal(other.status, 200);
  // This page still shows the start and plays d2d4 as White's first move: refused with 409,
  // and the page now shows the game as it is (Black to move after e2e4).
  await submit(page, 'd2d4');
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes('changed elsewhere'));
  await page.waitForFunction(() => document.body.getAttribute('aria-busy') === 'false');
  const game = await assertPageIsServer(page);
  assert.deepEqual(game.moves.map((m) => m.text), ['e2e4']);
  assert.equal(await page.locator('#headline').textContent(), 'Black to move');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, ['POST /api/games/{id}/play 409']);
  await context.close();
});
