// The API under hostile input: a few thousand random requests (seeded, bounded in number, size
// and time) to a qchess server on 127.0.0.1, and raw garbage over TCP. Every answer must be a
// success or a 4xx with a reason in words (never a 5xx, never a dropped connection on a
// well-formed request), and the server must still play a game afterwards.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer } from './harness.js';

const REQUESTS = Number(process.env.QCHESS_WEB_FUZZ_REQUESTS || 3000);
const SEED = Number(process.env.QCHESS_WEB_FUZZ_SEED || 28);
/** The server's body limit (`qc_web::Limits`, 1 MiB). */
const LIMIT = 1 << 20;

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0, 'qchess serve exits 0 on SIGINT after the fuzz');
});

/** A small seeded generator (mulberry32), so that a failure replays with its seed. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

const WORDS = ['b1^a3c3', 'a3c3^b1', 'e2e4', 'e2^e4e3', 'b1xc3.m1', '0000', 'e7e8Q', '~d4', 'He4',
  'f6&f6d5@e4', 'zz9', '', ' ', '\u0000', '\u{1F600}', 'e2e4'.repeat(40), 'cantwell', 'niels',
  'full+hadamard', 'qasm3', 'qasm2', 'ir', 'json', 'ibm', 'google', 'braket', 'generic', 'dynamic',
  'deferred', 'board', 'none', 'qiskit', 'csv', 'postselect,symmetry', '{"0001": 5}', '0001,5',
  '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n1. a1a2', '1. e2e4 e7e5 2. e4e5', '-1', 'NaN', '1e309'];

function randomValue(g, depth = 0) {
  switch (g.int(depth > 2 ? 5 : 8)) {
    case 0: return g.pick(WORDS);
    case 1: return g.int(2) ? g.int(1000) : g.pick([-1, 1.5, 2 ** 64, -(2 ** 63), 0]);
    case 2: return g.int(2) === 1;
    case 3: return null;
    case 4: return Array.from({ length: g.int(20) }, () => String.fromCharCode(g.int(0x3000))).join('');
    case 5: return Array.from({ length: g.int(4) }, () => randomValue(g, depth + 1));
    default: return randomObject(g, depth + 1);
  }
}

const FIELDS = ['rules', 'variant', 'fen', 'moves', 'game', 'seed', 'move', 'counts', 'counts_format',
  'mitigate', 'calibration', 'compile', 'format', 'target', 'form', 'movetime_ms', 'colour'];

function randomObject(g, depth = 0) {
  const object = {};
  for (let k = g.int(4); k > 0; k -= 1) object[g.pick(FIELDS)] = randomValue(g, depth);
  return object;
}

function randomBody(g) {
  switch (g.int(6)) {
    case 0: return undefined;
    case 1: return JSON.stringify(randomObject(g));
    case 2: return JSON.stringify(randomValue(g));
    case 3: return Array.from({ length: g.int(200) }, () => String.fromCharCode(g.int(256))).join('');
    case 4: return `{"move": "${g.pick(WORDS)}"`;
    default: return g.int(20) === 0 ? 'x'.repeat(LIMIT + g.int(1000)) : JSON.stringify({ move: g.pick(WORDS) });
  }
}

const ENDPOINTS = [
  ['POST', ''], ['GET', ''], ['POST', '/play'], ['POST', '/play'], ['POST', '/play'], ['POST', '/undo'],
  ['GET', '/moves'], ['GET', '/board.svg'], ['GET', '/circuit.svg'], ['GET', '/compile'],
  ['GET', '/compile'], ['POST', '/counts'], ['GET', '/game'], ['POST', '/engine'], ['DELETE', ''],
];

/** A method and a path: mostly an endpoint with its own method, else anything. */
function randomRequest(g, ids) {
  const id = g.int(6) ? g.pick(ids) : g.pick(['nope', '..', '%00', 'a'.repeat(300), '0'.repeat(16), '']);
  const query = g.int(2) ? '' : `?${g.pick(['move', 'format', 'target', 'form', 'all_wires', 'optimize', 'measure', 'x'])}=${encodeURIComponent(g.pick(WORDS))}`;
  if (g.int(10) < 7) {
    const [method, tail] = g.pick(ENDPOINTS);
    if (method === 'POST' && tail === '') return { method, path: '/api/games' };
    return { method, path: `/api/games/${id}${tail}${query}` };
  }
  const method = g.pick(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD']);
  const tail = g.pick(['', '/play', '/undo', '/moves', '/nothing', '/play/extra']);
  return {
    method,
    path: g.pick([`/api/games/${id}${tail}${query}`, '/api/games', '/api/info', '/', '/app.js', '/api',
      `/api/${encodeURIComponent(g.pick(WORDS))}`]),
  };
}

async function request(url, method, path, body, type) {
  const init = { method, headers: {}, signal: AbortSignal.timeout(30000) };
  if (body !== undefined && method !== 'GET' && method !== 'HEAD') {
    init.body = body;
    init.headers['content-type'] = type;
  }
  let response;
  try {
    response = await fetch(new URL(path, url), init);
  } catch (error) {
    const code = error.cause?.code;
    // A server may answer (413, 404, 405) before reading a body over its limit and close the
    // connection; the client then fails writing the rest. Only such bodies may end this way.
    if (init.body && init.body.length > LIMIT && (code === 'EPIPE' || code === 'ECONNRESET')) {
      return { status: 413, text: '{"error": "closed while sending a body over the limit"}', type: '' };
    }
    throw new Error(`${method} ${path.slice(0, 80)} (${String(body).length} bytes): ${code || error.cause || error}`);
  }
  const text = await response.text();
  return { status: response.status, text, type: response.headers.get('content-type') || '' };
}

test(`${REQUESTS} random API requests: every answer a success or a 4xx with a reason`, async () => {
  const g = generator(SEED);
  const url = server.url;
  const ids = [];
  for (const rules of ['cantwell', 'niels', 'cantwell']) {
    const made = await request(url, 'POST', '/api/games', JSON.stringify({ rules }), 'application/json');
    assert.equal(made.status, 201, made.text);
    ids.push(JSON.parse(made.text).id);
  }
  const statuses = new Map();
  const started = Date.now();
  const worker = async (count) => {
    for (let k = 0; k < count; k += 1) {
      const { method, path } = randomRequest(g, ids);
      const body = randomBody(g);
      const type = g.int(8) ? 'application/json' : g.pick(['text/plain', 'application/x-www-form-urlencoded', '']);
      if (method === 'DELETE' && g.int(3)) continue; // keep the games mostly alive
      const answer = await request(url, method, path, body, type);
      statuses.set(answer.status, (statuses.get(answer.status) || 0) + 1);
      const what = `${method} ${path.slice(0, 80)} ${String(body).slice(0, 80)}`;
      assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
      if (answer.status >= 400 && method !== 'HEAD') {
        const reason = JSON.parse(answer.text).error;
        assert.ok(typeof reason === 'string' && reason.length > 5, `${what}: no reason in ${answer.text.slice(0, 200)}`);
      }
      if (answer.status === 201) ids.push(JSON.parse(answer.text).id);
      if (answer.status === 204) {
        ids.splice(ids.findIndex((id) => path.endsWith(id)), 1);
        const made = await request(url, 'POST', '/api/games', '{}', 'application/json');
        ids.push(JSON.parse(made.text).id);
      }
    }
  };
  // Four clients at once, as a page and a few scripts might be.
  await Promise.all([0, 1, 2, 3].map(() => worker(REQUESTS / 4)));
  const seconds = (Date.now() - started) / 1000;
  const summary = [...statuses].sort().map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`# ${REQUESTS} requests in ${seconds.toFixed(1)} s (seed ${SEED}): ${summary}`);
  assert.ok(statuses.get(422) > 0 && statuses.get(404) > 0 && statuses.get(200) > 0, summary);
});

test('random legal moves until the move limit or the end of the game', async () => {
  const g = generator(SEED + 1);
  const url = server.url;
  for (const rules of ['cantwell', 'niels']) {
    const made = await request(url, 'POST', '/api/games', JSON.stringify({ rules, seed: SEED }), 'application/json');
    const id = JSON.parse(made.text).id;
    for (let ply = 0; ply < 60; ply += 1) {
      const legal = JSON.parse((await request(url, 'GET', `/api/games/${id}/moves`)).text).moves;
      if (legal.length === 0) break;
      const move = g.pick(legal).text;
      const played = await request(url, 'POST', `/api/games/${id}/play`, JSON.stringify({ move }), 'application/json');
      // A legal move may still be refused (one that would change nothing): with a reason.
      assert.ok(played.status === 200 || played.status === 422, `${rules} ${move}: ${played.status} ${played.text.slice(0, 200)}`);
      if (g.int(10) === 0) {
        const undone = await request(url, 'POST', `/api/games/${id}/undo`);
        assert.ok(undone.status === 200 || undone.status === 422, undone.text);
      }
    }
    for (const tail of ['/circuit.svg', '/compile', '/game', '/board.svg']) {
      const answer = await request(url, 'GET', `/api/games/${id}${tail}`);
      assert.ok(answer.status === 200 || answer.status === 422, `${tail}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }
});

/** Sends raw bytes and resolves with what came back before the server closed (or 5 s). */
function raw(url, bytes) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    const done = () => { socket.destroy(); resolve(answer); };
    socket.setTimeout(5000, done);
    socket.on('data', (d) => { answer += d; });
    socket.on('error', done);
    socket.on('close', done);
    socket.end(bytes);
  });
}

test('raw garbage over TCP gets a 400 or a closed connection, and the server goes on', async () => {
  const g = generator(SEED + 2);
  const url = server.url;
  const garbage = [
    'GARBAGE\r\n\r\n',
    'GET / HTTP/9.9\r\n\r\n',
    'GET /api/info HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{}',
    'POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n',
    `GET /${'a'.repeat(100000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET / HTTP/1.1\r\n${'X-A: b\r\n'.repeat(2000)}\r\n`,
    '\u0000\u0001\u0002\u00ff'.repeat(100),
  ];
  for (let k = 0; k < 40; k += 1) {
    garbage.push(Array.from({ length: g.int(2000) }, () => String.fromCharCode(g.int(256))).join(''));
  }
  for (const bytes of garbage) {
    const answer = await raw(url, Buffer.from(bytes, 'latin1'));
    assert.ok(answer === '' || /^HTTP\/1\.1 4\d\d/.test(answer), `answered ${answer.slice(0, 100)}`);
  }
  // Still serving: a game is played as before.
  const made = await request(url, 'POST', '/api/games', '{}', 'application/json');
  assert.equal(made.status, 201);
  const id = JSON.parse(made.text).id;
  const played = await request(url, 'POST', `/api/games/${id}/play`, '{"move":"b1^a3c3"}', 'application/json');
  assert.equal(played.status, 200, played.text);
  assert.equal(JSON.parse(played.text).squares.a3.probability, 0.5);
});
