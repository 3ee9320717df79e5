// Playing on the page in Chromium as a person does, by typing in the Move field and by clicking
// on the board, checked against `qchess simulate --json`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  serverAndBrowser, openPage, screenshot, simulate, settle, waitForMoves, typeMove as type, ROOT, SHOTS,
} from './harness.js';
import { boardLabels, assertBoardShows } from './board.js';

const shared = serverAndBrowser();

const square = (page, name) => page.locator(`#board [data-square="${name}"]`);

async function historyTexts(page) {
  return page.$$eval('#history li strong', (items) => items.map((i) => i.textContent));
}

test('typing b1^a3c3 in the Move field shows a3 and c3 at 50 %', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await type(page, 'b1^a3c3');
  const labels = await boardLabels(page);
  assert.equal(labels.a3, 'a3: white knight, 50%');
  assert.equal(labels.c3, 'c3: white knight, 50%');
  assert.equal(labels.b1, 'b1: empty');
  // The percentages are written on the board, not only in the labels.
  const shown = page.locator('#board svg text').filter({ hasText: /^50%$/ });
  assert.equal(await shown.count(), 2);
  assert.ok(await shown.first().isVisible());
  assertBoardShows(labels, simulate(['--moves', 'b1^a3c3']).squares);
  assert.equal(await page.locator('#headline').textContent(), 'Black to move');
  await type(page, 'g8^f6h6');
  // The picture of docs/web.md (docs/web-screenshot.png): what the window shows.
  await page.screenshot({ path: `${SHOTS}/page.png` });
  await type(page, 'a3c3^b1');
  assertBoardShows(await boardLabels(page), simulate(['--moves', 'b1^a3c3 g8^f6h6 a3c3^b1']).squares);
  assert.deepEqual(await historyTexts(page), ['b1^a3c3', 'g8^f6h6', 'a3c3^b1']);
  await screenshot(page, 'typed-moves');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('moves, a split and a merge by clicking', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  // A jump: click the piece, then the target (which is highlighted first).
  await square(page, 'g1').click();
  assert.equal(await square(page, 'f3').getAttribute('class'), 'square target');
  assert.match(await square(page, 'g1').getAttribute('class'), /selected/);
  await square(page, 'f3').click();
  await waitForMoves(page, 1);
  // A split: Shift on the first target, then the second.
  await square(page, 'b8').click();
  await square(page, 'a6').click({ modifiers: ['Shift'] });
  assert.match(await square(page, 'c6').getAttribute('class'), /target/);
  await square(page, 'c6').click();
  await waitForMoves(page, 2);
  const split = await boardLabels(page);
  assert.equal(split.a6, 'a6: black knight, 50%');
  assert.equal(split.c6, 'c6: black knight, 50%');
  await square(page, 'f3').click();
  await square(page, 'g1').click();
  await waitForMoves(page, 3);
  // A merge: both sources, then the target.
  await square(page, 'a6').click();
  await square(page, 'c6').click();
  assert.match(await square(page, 'b8').getAttribute('class'), /target/);
  await screenshot(page, 'merge-selected');
  await square(page, 'b8').click();
  await waitForMoves(page, 4);
  assert.deepEqual(await historyTexts(page), ['g1f3', 'b8^a6c6', 'f3g1', 'a6c6^b8']);
  assertBoardShows(await boardLabels(page), simulate(['--moves', 'g1f3 b8^a6c6 f3g1 a6c6^b8']).squares);
  await screenshot(page, 'clicked-moves');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('undo takes moves back, down to the start', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  const start = await boardLabels(page);
  assert.equal(await page.locator('#undo').isDisabled(), true);
  await type(page, 'b1^a3c3');
  await type(page, 'g8f6');
  await page.getByRole('button', { name: 'Undo' }).click();
  await waitForMoves(page, 1);
  assertBoardShows(await boardLabels(page), simulate(['--moves', 'b1^a3c3']).squares);
  assert.match(await page.locator('#message').textContent(), /Took back g8f6/);
  await page.getByRole('button', { name: 'Undo' }).click();
  await waitForMoves(page, 0);
  assert.deepEqual(await boardLabels(page), start);
  assert.equal(await page.locator('#undo').isDisabled(), true);
  await screenshot(page, 'undo');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('an illegal move gets a clear message and changes nothing', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await type(page, 'b1^a3c3');
  const board = await page.locator('#board').innerHTML();
  const field = page.getByLabel('Move', { exact: true });
  for (const [text, words] of [['b1b3', /no piece on b1/], ['e2e5', /e2/], ['zz9', /zz9/]]) {
    await field.fill(text);
    await field.press('Enter');
    const message = page.locator('#message');
    await page.waitForFunction((t) => document.querySelector('#message').textContent.includes(`Illegal move ${t}`), text);
    assert.match(await message.textContent(), words);
    assert.equal(await message.getAttribute('class'), 'message error');
    assert.equal(await page.locator('#board').innerHTML(), board, `${text} changed the board`);
    assert.deepEqual(await historyTexts(page), ['b1^a3c3']);
  }
  // A click on a square no move starts from says so, and changes nothing either.
  await square(page, 'e5').click();
  assert.match(await page.locator('#message').textContent(), /e5 is empty/);
  await screenshot(page, 'illegal-move');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, Array(3).fill('POST /api/games/{id}/play 422'));
  await context.close();
});

test("a Niel's Chess game, typed and clicked", async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await page.getByLabel('Rules').selectOption('niels');
  await page.getByRole('button', { name: 'New game' }).click();
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes("Niel's Chess"));
  await settle(page);
  await type(page, 'e2^e4e3');
  await square(page, 'e7').click();
  await square(page, 'e5').click();
  await waitForMoves(page, 2);
  const labels = await boardLabels(page);
  assert.match(labels.e4, /^e4: white pawn, 50%/);
  assertBoardShows(labels, simulate(['--rules', 'niels', '--moves', 'e2^e4e3 e7e5']).squares);
  await screenshot(page, 'niels');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('save downloads the game file; load replays one', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await type(page, 'b1^a3c3');
  await type(page, 'g8f6');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save game' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'game.qcg');
  const saved = readFileSync(await download.path(), 'utf8');
  assert.match(saved, /1\. b1\^a3c3 g8f6/);
  // A file that is no game is refused with the reason, and the game on the page stays.
  await page.setInputFiles('#load', { name: 'bad.qcg', mimeType: 'text/plain', buffer: Buffer.from('1. e2e4 e7e5 2. e4e6\n') });
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('Cannot load bad.qcg'));
  assert.match(await page.locator('#message').textContent(), /move 3 `e4e6`, line 1/);
  assert.deepEqual(await historyTexts(page), ['b1^a3c3', 'g8f6']);
  await page.setInputFiles('#load', join(ROOT, 'circuits', 'interference.qcg'));
  await waitForMoves(page, 5);
  // The message comes once the new game is shown (after the moves are listed).
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('Loaded interference.qcg'));
  assert.match(await page.locator('#message').textContent(), /Loaded interference\.qcg: 5 move/);
  assertBoardShows(await boardLabels(page), simulate(['circuits/interference.qcg']).squares);
  await screenshot(page, 'loaded');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, ['POST /api/games 422']);
  await context.close();
});

test('the engine answers a typed move for the side it plays, and moves on request', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await page.getByLabel('Engine plays').selectOption('black');
  await page.getByLabel('Time per move (ms)').fill('100');
  const field = page.getByLabel('Move', { exact: true });
  await field.fill('e2e4');
  await field.press('Enter');
  // The typed move, then the engine's answer, without another click.
  await waitForMoves(page, 2);
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('The engine played'));
  assert.equal(await page.locator('#headline').textContent(), 'White to move');
  let moves = await historyTexts(page);
  assert.equal(moves[0], 'e2e4');
  // The engine's move (its outcome written in) gives the command line's board.
  assertBoardShows(await boardLabels(page), simulate(['--moves', moves.join(' ')]).squares);
  // "Engine move now" plays the side to move (White here) once; Black's answer follows.
  await page.getByLabel('Engine plays').selectOption('');
  await page.getByRole('button', { name: 'Engine move now' }).click();
  await waitForMoves(page, 3);
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('The engine played'));
  assert.equal(await page.locator('#headline').textContent(), 'Black to move');
  moves = await historyTexts(page);
  assertBoardShows(await boardLabels(page), simulate(['--moves', moves.join(' ')]).squares);
  await screenshot(page, 'engine');
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});
