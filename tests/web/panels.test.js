// The circuit panel (the drawing as the game grows, OpenQASM for a target) and the hardware
// round trip (download the program, upload a device's counts), in Chromium, checked against
// `qchess compile` and `qchess counts`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverAndBrowser, openPage, screenshot, typeMove as type, QCHESS, ROOT } from './harness.js';
import { boardLabels, assertBoardShows } from './board.js';

const shared = serverAndBrowser();

function qchess(args) {
  return execFileSync(QCHESS, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

const sections = (page) => page.$$eval('#circuit-drawing text.section', (labels) => labels.map((l) => [l.textContent, l.classList.contains('current')]));

test('the circuit grows with the game, the move just played highlighted; OpenQASM for any target', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await type(page, 'b1^a3c3');
  assert.deepEqual(await sections(page), [['set-up', false], ['1. b1^a3c3', true]]);
  await type(page, 'g8f6');
  assert.deepEqual(await sections(page), [['set-up', false], ['1. b1^a3c3', false], ['1... g8f6', true]]);
  const drawn = await page.locator('#circuit-drawing svg').innerHTML();
  assert.match(drawn, />siswap</);
  await screenshot(page, 'circuit-drawing');
  await page.getByRole('tab', { name: 'OpenQASM' }).click();
  await page.waitForFunction(() => document.querySelector('#qasm').textContent.startsWith('OPENQASM 3.0'));
  const moves = ['--moves', 'b1^a3c3 g8f6'];
  assert.equal(await page.locator('#qasm').textContent(), qchess(['compile', ...moves]));
  await page.getByLabel('Target', { exact: true }).selectOption('ibm');
  await page.waitForFunction(() => document.querySelector('#qasm').textContent.includes('"target":"ibm"'));
  assert.equal(await page.locator('#qasm').textContent(), qchess(['compile', ...moves, '--target', 'ibm']));
  await page.getByLabel('Format', { exact: true }).selectOption('qasm2');
  await page.waitForFunction(() => document.querySelector('#qasm').textContent.startsWith('OPENQASM 2.0'));
  assert.equal(await page.locator('#qasm').textContent(),
    qchess(['compile', ...moves, '--target', 'ibm', '--format', 'qasm2']));
  assert.match(await page.locator('#summary').textContent(), /qubit\(s\), .* two-qubit depth/);
  await screenshot(page, 'circuit-qasm');
  await page.getByRole('tab', { name: 'Drawing' }).click();
  await page.waitForFunction(() => !document.querySelector('#drawing-panel').hidden);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();
});

test('hardware round trip: download the program, upload counts, see the board beside the exact one', async () => {
  const { page, context, errors, refused } = await openPage(shared.browser, shared.server.url);
  await page.setInputFiles('#load', join(ROOT, 'circuits', 'interference.qcg'));
  await page.waitForFunction(() => document.querySelectorAll('#history li strong').length === 5);
  await page.getByRole('tab', { name: 'OpenQASM' }).click();
  await page.getByLabel('Target', { exact: true }).selectOption('generic');
  await page.waitForFunction(() => document.querySelector('#qasm').textContent.includes('"target":"generic"'));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download program' }).click(),
  ]);
  const program = readFileSync(await download.path(), 'utf8');
  assert.equal(program, readFileSync(join(ROOT, 'circuits', 'interference.qasm'), 'utf8'),
    'the program the page downloads is the bundled one qchess compile wrote');
  // Detected, the file's bit order cannot be told (Qiskit's or Braket's): the page says what to
  // do in its own words, naming no command-line flag.
  await page.setInputFiles('#counts', join(ROOT, 'circuits', 'interference.counts.json'));
  await page.waitForFunction(() => document.querySelector('#message').textContent.startsWith('Cannot read'));
  const why = await page.locator('#message').textContent();
  assert.match(why, /Qiskit order .* Braket order .*Choose Qiskit or Braket under “Counts format”/);
  assert.doesNotMatch(why, /--|counts_format/);
  await page.getByLabel('Counts format').selectOption('qiskit');
  await page.setInputFiles('#counts', join(ROOT, 'circuits', 'interference.counts.json'));
  await page.waitForSelector('#counts-exact svg');
  // The game has 5 moves: both boards say Black is to move, as the game does.
  for (const board of ['#counts-measured', '#counts-exact']) {
    assert.equal(await page.locator(`${board} svg text.status`).textContent(), 'Black to move');
  }
  const cli = JSON.parse(qchess(['counts', 'circuits/interference.qasm', 'circuits/interference.counts.json',
    '--counts-format', 'qiskit', '--exact', '--json']));
  const measured = Object.fromEntries(Object.entries(cli.squares).map(([sq, s]) => [sq, s]));
  const exact = Object.fromEntries(Object.entries(cli.exact).map(([sq, p]) => [sq, { piece: cli.squares[sq].piece, probability: p }]));
  // Unknown pieces are drawn as `?`; every square of the interference game has its piece.
  assertBoardShows(await boardLabels(page, '#counts-measured'), measured);
  assertBoardShows(await boardLabels(page, '#counts-exact'), exact);
  assert.equal((await boardLabels(page, '#counts-measured')).a1, 'a1: white king, 74%');
  assert.equal((await boardLabels(page, '#counts-exact')).a1, 'a1: white king, 73%');
  assert.match(await page.locator('#counts-facts').textContent(), /1000 shot\(s\), 1000 kept.*Total variation distance/);
  await screenshot(page, 'counts');
  // The game moves on: counts of the old program are refused with the reason, not misread.
  await page.getByRole('tab', { name: 'Drawing' }).click();
  await type(page, 'h8g8');
  await page.setInputFiles('#counts', join(ROOT, 'circuits', 'interference.counts.json'));
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes('download the program again'));
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, ['POST /api/games/{id}/counts 422', 'POST /api/games/{id}/counts 409']);
  await context.close();
});
