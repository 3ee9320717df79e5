// What every browser test shares: the qchess server started on a free port of 127.0.0.1 (and
// stopped with SIGINT, as Ctrl-C does), Debian's Chromium driven by playwright-core, console
// errors collected, screenshots kept under target/web-screenshots/.

import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const QCHESS = process.env.QCHESS_BIN || join(ROOT, 'target', 'release', 'qchess');
export const SHOTS = join(ROOT, 'target', 'web-screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Starts `qchess serve --port 0 ARGS`; resolves with its URL once it listens. */
export function startServer(args = []) {
  const child = spawn(QCHESS, ['serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`qchess serve printed no address within 20 s; stderr: ${stderr}`));
    }, 20000);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line.startsWith('http://127.0.0.1:')) {
        clearTimeout(timer);
        resolvePromise({
          url: line.trim(),
          child,
          stderr: () => stderr,
          /** SIGINT (Ctrl-C); resolves with the exit code. */
          stop: () => new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code, signal) => done(code ?? signal));
            child.kill('SIGINT');
          }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`qchess serve exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}

/**
 * A server and a browser for a test file: started before its tests, stopped after them (the
 * server with SIGINT, which must exit 0). The fields are set once `before` has run.
 */
export function serverAndBrowser() {
  const shared = { server: null, browser: null };
  before(async () => {
    shared.server = await startServer();
    shared.browser = await launchBrowser();
  });
  after(async () => {
    await shared.browser?.close();
    if (shared.server) assert.equal(await shared.server.stop(), 0, 'qchess serve exits 0 on SIGINT');
  });
  return shared;
}

/** Debian's Chromium, headless, with the flags that keep it off the network. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/**
 * A fresh page on the server's URL with its console errors and uncaught exceptions collected
 * in `errors` and the API's 4xx answers in `refused`; waits until the first game is shown.
 */
export async function openPage(browser, url, { hash = '', viewport = { width: 1280, height: 1000 } } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  // Chromium logs every 4xx answer as a console error ("Failed to load resource"); those of the
  // API, which a test provokes on purpose, are listed apart (`refused`) so that a test can say
  // exactly which it expected, and every other console error still fails it.
  const refused = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname.startsWith('/api/')) {
      refused.push(`${r.request().method()} ${new URL(r.url()).pathname.replace(/[0-9a-f]{16}/, '{id}')} ${r.status()}`);
    }
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const api = new URL(m.location().url || url).pathname.startsWith('/api/');
    if (api && m.text().startsWith('Failed to load resource: the server responded with a status of 4')) return;
    errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(url + hash);
  await page.waitForFunction(() => document.querySelector('#board svg') !== null);
  await page.waitForFunction(() => document.querySelector('#circuit-drawing svg') !== null);
  await page.waitForFunction(() => document.body.getAttribute('aria-busy') === 'false');
  return { page, context, errors, refused };
}

/**
 * Waits until the page has shown everything it asked for after the last change (aria-busy
 * "false" on <body>), and fails with the page's own message if that message is an error: a
 * test that expected success then says why it did not get it.
 */
export async function settle(page) {
  await page.waitForFunction(() => document.body.getAttribute('aria-busy') === 'false');
  const message = page.locator('#message');
  if ((await message.getAttribute('class')) === 'message error') {
    throw new Error(`the page shows an error: ${await message.textContent()}`);
  }
}

/** Waits until the move list has `n` moves and the page has settled. */
export async function waitForMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#history li strong').length === k, n);
  await settle(page);
}

/** Types a move in the field labelled Move and presses Enter; waits for the answer. */
export async function typeMove(page, text) {
  const before = await page.locator('#history li strong').count();
  const field = page.getByLabel('Move', { exact: true });
  await field.fill(text);
  await field.press('Enter');
  await waitForMoves(page, before + 1);
}

/** Saves a full-page screenshot as target/web-screenshots/NAME.png. */
export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** `qchess simulate ... --json`, parsed: the command line's answer to compare the page with. */
export function simulate(args) {
  const out = execFileSync(QCHESS, ['simulate', ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

/** The percent label the board writes for probability p (qc-render's `percent`). */
export function percent(p) {
  const whole = Math.round(100 * p);
  if (whole < 1) return '<1%';
  if (whole >= 100) return '>99%';
  return `${whole}%`;
}

/**
 * Holds the answers to the page's first `times` engine requests in the browser until the test
 * releases them: the server has played the engine's move, but the page is still waiting, so the
 * engine "thinks" for as long as the test needs, however loaded the machine. Later engine
 * requests pass untouched. `arrived()` resolves once an answer is held; `release()` lets the
 * oldest held answer through to the page.
 */
export async function holdEngine(page, times = 1) {
  const held = [];
  const waiters = [];
  let seen = 0;
  await page.route(/\/api\/games\/[^/]+\/engine$/, async (route) => {
    seen += 1;
    if (seen > times) {
      await route.continue();
      return;
    }
    const response = await route.fetch();
    await new Promise((release) => {
      held.push(release);
      while (waiters.length > 0) waiters.shift()();
    });
    await route.fulfill({ response });
  });
  return {
    arrived: () => new Promise((resolve) => {
      if (held.length > 0) resolve();
      else waiters.push(resolve);
    }),
    release: () => {
      const next = held.shift();
      if (!next) throw new Error('no engine answer is held');
      next();
    },
  };
}

/** The game `id` as the server has it (`GET /api/games/{id}`), asked from Node, not the page. */
export async function serverGame(url, id) {
  const response = await fetch(`${url}api/games/${id}`);
  assert.equal(response.status, 200, `GET /api/games/${id}`);
  return response.json();
}

/** The id of the game the page shows (its address's `#game=`). */
export async function shownGame(page) {
  return page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('game'));
}
