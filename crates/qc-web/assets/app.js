// The qchess page: talks to the JSON API under /api/ (docs/web.md) and shows what it answers.
// The board and the circuit are drawn by the server (qc-render's SVG); this script only places
// them, hooks clicks onto the board's squares (`[data-square]`) and knows no game rules: the
// legal moves come with the squares a player clicks to make each (`clicks`), every move of the
// list with its mover, its move number and its kind, every state with its side to move.
//
// What changes a game (a move, undo, the engine's move, resign, draw) runs one at a time in the
// order it was asked for (`act`): a move typed while the engine thinks waits for the engine's
// move, an undo waits too, and nothing is lost. Every request that changes a game says the ply
// the page saw (the server refuses it with 409 if the game is elsewhere), and every answer names
// its game and ply: an answer for a game or a ply the page no longer shows is dropped. A new game
// starts at once and leaves whatever was still coming for the old one unshown.

const $ = (id) => document.getElementById(id);

const page = {
  info: null,
  id: null,
  state: null,
  legal: [],
  selection: [],
  // The program last downloaded, for the counts that come back from a device.
  program: null,
  // The board seen from Black's side.
  flipped: false,
  // The ply shown while stepping through the game (`null`: the game as it is now).
  viewPly: null,
  // Counts the games the page has started: an action queued for an older one is not run.
  epoch: 0,
  // The epoch whose engine is thinking (`null`: none).
  thinking: null,
};

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message, kind) {
    super(message);
    this.status = status;
    this.kind = kind || null;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
    // The server closes the connection on a body over its limit before reading it all, which a
    // browser reports as a network error: say it here instead.
    const limit = page.info ? page.info.limits.body_bytes : Infinity;
    const size = new TextEncoder().encode(init.body).length;
    if (size > limit) {
      throw new ApiError(413, `that is ${size} bytes to send; the server takes at most ${limit}`);
    }
  }
  const response = await fetch(path, init);
  const type = response.headers.get('content-type') || '';
  if (!response.ok) {
    let reason = `${response.status} ${response.statusText}`;
    let kind = null;
    if (type.includes('application/json')) {
      const json = await response.json();
      if (json && json.error) reason = json.error;
      if (json && json.kind) kind = json.kind;
    }
    throw new ApiError(response.status, reason, kind);
  }
  return response;
}

async function api(method, path, body) {
  const response = await request(method, path, body);
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') || '';
  return type.includes('application/json') ? response.json() : response.text();
}

// An SVG answer with the game and ply it shows (its `x-qchess-*` headers).
async function apiSvg(path) {
  const response = await request('GET', path);
  return {
    svg: await response.text(),
    id: response.headers.get('x-qchess-game'),
    ply: Number(response.headers.get('x-qchess-ply')),
  };
}

const gamePath = (rest = '') => `/api/games/${encodeURIComponent(page.id)}${rest}`;

// Whether an answer is about the game shown, at the ply expected (when one is given).
function current(answer, ply) {
  return answer !== null && answer.id === page.id && (ply === undefined || answer.ply === ply);
}

// ---------------------------------------------------------------- messages

function say(text, kind = 'info') {
  const box = $('message');
  box.textContent = text;
  box.className = `message ${kind}`;
}

function fail(error) {
  say(error.message || String(error), 'error');
}

// The page's own words for the API's error kinds it explains better than the API's message
// (which names the API's fields).
const WORDS = {
  counts_order_ambiguous: 'it could be in Qiskit order (bit 0 rightmost) or in Braket order (bit 0 leftmost). Choose Qiskit or Braket under “Counts format” and upload it again.',
  counts_format_mismatch: 'it is a Braket file (it has measurement_counts), not Qiskit counts. Choose Braket or “detect” under “Counts format” and upload it again.',
  counts_probabilities: 'it holds probabilities, not counts of shots. Run the program with shots and upload its counts.',
  counts_not_counts: 'it is not a counts file. Upload Qiskit or Braket counts (JSON), or CSV lines “bits,count”.',
  counts_needs_calibration: 'readout mitigation needs a calibration.',
  game_changed: 'the game has moved on since the program was downloaded: download the program again and run it.',
};

const wordsFor = (error) => (error instanceof ApiError && WORDS[error.kind]) || error.message;

// ---------------------------------------------------------------- one action at a time

let queue = Promise.resolve();
let waiting = 0;

// Runs `work` after every action asked for before it, if the game is still the one it was asked
// for; returns when it is done. Errors are shown, not thrown. The page is busy from the moment
// an action is asked for until it is done.
function act(work) {
  const epoch = page.epoch;
  const before = queue;
  waiting += 1;
  controls();
  const run = whileBusy(async () => {
    await before;
    if (epoch !== page.epoch) return;
    try {
      await work();
    } catch (error) {
      if (epoch === page.epoch) fail(error);
    }
  }).finally(() => {
    waiting -= 1;
    controls();
  });
  queue = run;
  return run;
}

// A new game starts at once, ahead of everything queued: what was queued or still running for
// the old game is not shown.
function actOnNewGame(work) {
  page.epoch += 1;
  queue = Promise.resolve();
  return act(work);
}

// A request that changed the game was refused because the game is not at the ply the page saw
// (another tab moved it): show the game as the server has it.
async function resync(error) {
  if (!(error instanceof ApiError && error.kind === 'stale_ply')) throw error;
  const state = await api('GET', gamePath());
  if (!current(state)) return;
  await show(state);
  say('This game was changed elsewhere (another tab or window): the page now shows it as it is.', 'error');
}

function controls() {
  const state = page.state;
  const over = !state || state.status !== 'ongoing';
  const ended = Boolean(state && state.ending);
  $('undo').disabled = !state || ended || (state.ply === 0 && waiting === 0);
  $('resign').disabled = over;
  $('draw').disabled = over;
  $('engine-move').disabled = over || page.thinking !== null;
  document.body.dataset.thinking = String(page.thinking !== null);
  // Actions waiting behind the one running (a test, or assistive technology, can read it).
  document.body.dataset.queued = String(Math.max(0, waiting - 1));
}

// ---------------------------------------------------------------- set-up

function fillSelect(select, items, value) {
  select.replaceChildren();
  for (const item of items) {
    const option = document.createElement('option');
    option.value = item.name;
    option.textContent = item.title || item.name;
    if (item.help) option.title = item.help;
    select.append(option);
  }
  if (value !== undefined && value !== null) select.value = value;
}

function showVariantOptions() {
  const rules = page.info.rules.find((r) => r.name === $('rules').value);
  const box = $('variant');
  box.querySelectorAll('label').forEach((l) => l.remove());
  box.hidden = !rules || rules.options.length === 0;
  for (const option of rules ? rules.options : []) {
    const label = document.createElement('label');
    label.className = 'check';
    label.title = option.help;
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = option.name;
    label.append(input, ` ${option.name}`);
    box.append(label);
  }
}

function chosenVariant() {
  const names = [...$('variant').querySelectorAll('input:checked')].map((i) => i.value);
  return names.length ? names.join('+') : null;
}

async function start() {
  page.info = await api('GET', '/api/info');
  const info = page.info;
  fillSelect($('rules'), info.rules, info.initial.rules);
  showVariantOptions();
  // The seed field starts empty: a new game draws a fresh seed unless one is typed (the
  // server's own seed replays only its first game).
  $('seed').value = '';
  fillSelect($('format'), info.formats.filter((f) => f.name === 'qasm3' || f.name === 'qasm2'));
  fillSelect($('target'), [{ name: 'none', title: 'none (all gates)' },
    ...info.targets.map((name) => ({ name }))]);
  fillSelect($('form'), info.forms, 'dynamic');
  fillSelect($('counts-format'), [{ name: 'auto', title: 'detect' }, ...info.counts_formats]);
  $('engine-time').min = info.engine.min_movetime_ms;
  $('engine-time').max = info.engine.max_movetime_ms;
  wire();
  setInterval(tickClocks, 250);
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('game');
  if (fromHash) {
    try {
      page.id = fromHash;
      await show(await api('GET', gamePath()));
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  await actOnNewGame(() => newGame(info.initial));
}

function wire() {
  $('rules').addEventListener('change', showVariantOptions);
  $('new-game').addEventListener('submit', (event) => {
    event.preventDefault();
    const spec = {
      rules: $('rules').value,
      variant: chosenVariant(),
      seed: chosenSeed(),
    };
    actOnNewGame(() => newGame(spec));
  });
  $('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('move').value.trim();
    if (!text) {
      say('Type a move first, e.g. b1^a3c3.', 'error');
      return;
    }
    $('move').value = '';
    if (waiting > 0) say(`${text} waits for the engine's move; it is played next.`);
    play(text, { fromField: true });
  });
  $('undo').addEventListener('click', () => {
    if (waiting > 0) say("Undo waits for the engine's move; it then takes your move back.");
    act(undoNow);
  });
  $('engine-move').addEventListener('click', () => act(engineNow));
  $('engine-side').addEventListener('change', () => {
    // Playing Black against the engine: Black at the bottom (the player may flip back).
    setFlipped($('engine-side').value === 'white');
    act(engineTurn);
  });
  $('resign').addEventListener('click', () => act(resignNow));
  $('draw').addEventListener('click', () => act(drawNow));
  $('flip').addEventListener('change', () => setFlipped($('flip').checked));
  for (const [id, step] of [['first', -Infinity], ['previous', -1], ['next', 1], ['last', Infinity]]) {
    $(id).addEventListener('click', () => browse(step));
  }
  $('save').addEventListener('click', () => save().catch(fail));
  $('load').addEventListener('change', (event) => load(event.target));
  $('tab-drawing').addEventListener('click', () => showTab('drawing'));
  $('tab-qasm').addEventListener('click', () => showTab('qasm'));
  for (const id of ['format', 'target', 'form']) {
    $(id).addEventListener('change', () => whileBusy(refreshProgram).catch(fail));
  }
  $('all-wires').addEventListener('change', () => whileBusy(refreshCircuit).catch(fail));
  $('download-program').addEventListener('click', () => downloadProgram().catch(fail));
  $('counts').addEventListener('change', (event) => uploadCounts(event.target).catch(fail));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') clearSelection();
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement
      || event.target instanceof HTMLTextAreaElement;
    if (typing) return;
    if (event.key === 'ArrowLeft') browse(-1);
    if (event.key === 'ArrowRight') browse(1);
  });
}

// ---------------------------------------------------------------- games

/** The seed typed in the seed field, or `undefined` (the server draws a fresh one). */
function chosenSeed() {
  const text = $('seed').value.trim();
  return text === '' ? undefined : Number(text);
}

async function newGame(spec) {
  const body = {};
  for (const key of ['rules', 'variant', 'fen', 'moves', 'game', 'seed']) {
    if (spec[key] !== undefined && spec[key] !== null) body[key] = spec[key];
  }
  const epoch = page.epoch;
  const state = await api('POST', '/api/games', body);
  if (epoch !== page.epoch) {
    // Another new game was asked for meanwhile: this one is not wanted.
    api('DELETE', `/api/games/${encodeURIComponent(state.id)}`).catch(() => {});
    return false;
  }
  const old = page.id;
  page.id = state.id;
  page.program = null;
  history.replaceState(null, '', `#game=${state.id}`);
  await show(state);
  say(`New game: ${titleOf(state)}.`);
  if (old && old !== state.id) api('DELETE', `/api/games/${encodeURIComponent(old)}`).catch(() => {});
  await engineTurn();
  return true;
}

function titleOf(state) {
  const rules = page.info.rules.find((r) => r.name === state.rules);
  const title = rules ? rules.title : state.rules;
  return state.variant ? `${title}, ${state.variant}` : title;
}

// `1. e2e4` for White's move, `1... e7e5` for Black's: the move number as a game record writes it.
const numbered = (move) => `${move.number}${move.mover === 'white' ? '.' : '...'} ${move.text}`;

function play(text, { fromField = false } = {}) {
  return act(async () => {
    const ply = page.state.ply;
    let after;
    try {
      after = await api('POST', gamePath('/play'), { move: text, ply });
    } catch (error) {
      // Nothing changed on the server: the board stays as it is.
      clearSelection();
      if (fromField && $('move').value === '') $('move').value = text;
      if (error instanceof ApiError && error.status === 422) {
        say(`Illegal move ${text}: ${error.message}`, 'error');
        return;
      }
      await resync(error);
      return;
    }
    if (!current(after, ply + 1)) return;
    await show(after);
    say(`Played ${numbered(after.moves[after.moves.length - 1])}: ${after.detail}`);
    await engineTurn();
  });
}

// The engine's side: after a move of the other side (or when the side is chosen), the engine
// answers if it is its turn and the game goes on. Whose turn it is comes from the server.
async function engineTurn() {
  const side = $('engine-side').value;
  if (side && page.state && page.state.status === 'ongoing' && page.state.side_to_move === side) {
    await engineNow();
  }
}

async function engineNow() {
  if (!page.state || page.state.status !== 'ongoing') return;
  const asked = Number($('engine-time').value);
  const { min_movetime_ms: least, max_movetime_ms: most } = page.info.engine;
  const movetime = Math.min(most, Math.max(least, Number.isFinite(asked) ? Math.round(asked) : 1000));
  const epoch = page.epoch;
  const ply = page.state.ply;
  page.thinking = epoch;
  controls();
  say(`The engine is thinking (${movetime} ms)…`);
  try {
    let after;
    try {
      after = await api('POST', gamePath('/engine'), { movetime_ms: movetime, ply });
    } catch (error) {
      if (epoch !== page.epoch) return;
      if (error instanceof ApiError && error.status === 422) {
        say(`The engine cannot move: ${error.message}`, 'error');
        return;
      }
      await resync(error);
      return;
    }
    // A new game started while it thought: its move belongs to the old game.
    if (!current(after, ply + 1)) return;
    await show(after);
    const s = after.search;
    say(`The engine played ${numbered(after.moves[after.moves.length - 1])}: ${after.detail} (depth ${s.depth}, score ${s.score.toFixed(2)}, ${s.nodes} positions in ${s.time_ms} ms)`);
  } finally {
    if (page.thinking === epoch) page.thinking = null;
    controls();
  }
}

// Takes the last move back; against the engine, moves back until it is the player's turn (the
// engine's answer and the player's move), so that the engine does not answer again at once.
async function undoNow() {
  const engineSide = $('engine-side').value;
  const taken = [];
  let refused = null;
  try {
    while (page.state.ply > 0) {
      const ply = page.state.ply;
      const after = await api('POST', gamePath('/undo'), { ply });
      if (!current(after, ply - 1)) return;
      taken.unshift(after.done);
      page.state = after;
      if (!engineSide || after.side_to_move !== engineSide) break;
    }
  } catch (error) {
    refused = error;
  }
  if (taken.length > 0) await show(page.state);
  if (refused instanceof ApiError && refused.status === 422) {
    say(`Cannot undo: ${refused.message}`, 'error');
    return;
  }
  if (refused) {
    await resync(refused);
    return;
  }
  say(taken.length ? `Took back ${taken.join(' ')}.` : 'No move to take back.');
  await engineTurn();
}

// The side that resigns: the player's against the engine, else the side to move.
function resigningSide() {
  const engineSide = $('engine-side').value;
  if (engineSide) return engineSide === 'white' ? 'black' : 'white';
  return page.state.side_to_move;
}

async function resignNow() {
  await endNow('/resign', { side: resigningSide(), ply: page.state.ply });
}

async function drawNow() {
  await endNow('/draw', { ply: page.state.ply });
}

async function endNow(path, body) {
  try {
    const after = await api('POST', gamePath(path), body);
    if (!current(after, body.ply)) return;
    await show(after);
    say(after.headline);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) {
      say(error.message, 'error');
      return;
    }
    await resync(error);
  }
}

async function save() {
  const text = await api('GET', gamePath('/game'));
  const extension = page.state.rules === 'niels' ? 'qng' : 'qcg';
  downloadText(text, `game.${extension}`);
  say(`Saved the game as game.${extension} (every outcome written in: it replays exactly).`);
}

async function load(input) {
  const file = input.files && input.files[0];
  input.value = '';
  if (!file) return;
  const text = await file.text();
  const rules = file.name.toLowerCase().endsWith('.qng') ? 'niels' : $('rules').value;
  await actOnNewGame(async () => {
    try {
      if (await newGame({ rules, game: text, seed: chosenSeed() })) {
        say(`Loaded ${file.name}: ${page.state.moves.length} move(s).`);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        say(`Cannot load ${file.name}: ${error.message}`, 'error');
      } else {
        throw error;
      }
    }
  });
}

function downloadText(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// ---------------------------------------------------------------- showing a state

// The page is busy (aria-busy="true" on <body>) from the moment an action starts or it starts
// showing a new state until the board, the legal moves and the circuit for it have arrived (and,
// after a move against the engine, its answer too): assistive technology then waits for the
// whole update, and so can a test, instead of guessing when the network is quiet.
let pendingUpdates = 0;

async function whileBusy(work) {
  pendingUpdates += 1;
  document.body.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    pendingUpdates -= 1;
    if (pendingUpdates === 0) document.body.setAttribute('aria-busy', 'false');
  }
}

// Two refreshes of one panel can be in flight at once (a new state while the last one's answer
// is still coming) and their answers can arrive in either order: a panel shows only the answer
// to its newest request, never an older state's over a newer one.
const newestTicket = new Map();

async function newestAnswer(panel, ask) {
  const ticket = (newestTicket.get(panel) || 0) + 1;
  newestTicket.set(panel, ticket);
  const answer = await ask();
  return newestTicket.get(panel) === ticket ? { answer } : null;
}

async function show(state) {
  return whileBusy(() => showNow(state));
}

async function showNow(state) {
  page.state = state;
  page.viewPly = null;
  page.selection = [];
  hideChooser();
  showClocks(state);
  showHistory(state);
  const facts = [`${titleOf(state)}`, `state: ${state.state_size} basis state(s)`, `FEN ${state.fen}`];
  if (state.most_likely_board && state.most_likely_board.fen !== state.fen) {
    const p = (100 * state.most_likely_board.probability).toFixed(1);
    facts.push(`most likely board (${p}%): ${state.most_likely_board.fen}`);
  }
  if (state.endings_note) facts.push(state.endings_note);
  $('facts').textContent = facts.join(' · ');
  controls();
  // All settle before the page stops being busy, also when one of them fails (Promise.all
  // would end the busy time at the first failure, with another panel still the old state's).
  const settled = await Promise.allSettled([refreshBoard(), refreshLegal(), refreshCircuit()]);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

// The board of the ply shown (the game now unless stepping through it), from the side chosen:
// the state's own board when that is the game now from White's side, else the server's picture
// of that position.
async function refreshBoard() {
  const state = page.state;
  const at = page.viewPly === null ? state.ply : page.viewPly;
  let svg = state.board_svg;
  let headline = state.headline;
  if (at !== state.ply || page.flipped) {
    const query = new URLSearchParams({ ply: String(at), flip: String(page.flipped) });
    const newest = await newestAnswer('board', () => api('GET', gamePath(`/position?${query}`)));
    if (!newest || !current(newest.answer, state.ply) || newest.answer.at !== at || page.state !== state) return;
    svg = newest.answer.board_svg;
    headline = newest.answer.headline;
  } else {
    newestTicket.set('board', (newestTicket.get('board') || 0) + 1);
  }
  if (at !== state.ply) {
    const move = state.moves[at - 1];
    const where = move ? `after ${numbered(move)}` : 'at the start';
    headline = `Earlier position (${where}, ply ${at} of ${state.ply}): ${headline}`;
  }
  $('headline').textContent = headline;
  $('board').innerHTML = svg;
  $('board').classList.toggle('earlier', at !== state.ply);
  hookSquares();
  markSquares();
  markViewed(at);
}

function setFlipped(flipped) {
  page.flipped = flipped;
  $('flip').checked = flipped;
  if (page.state) whileBusy(refreshBoard).catch(fail);
}

// Steps through the game without changing it: -1 one move back, 1 forward, ±Infinity to the
// start or to the game now; a number from a click on the move list is that ply.
function browse(step, ply) {
  const state = page.state;
  if (!state) return;
  const at = page.viewPly === null ? state.ply : page.viewPly;
  const to = ply !== undefined ? ply : Math.max(0, Math.min(state.ply, at + step));
  if (to === at) return;
  page.viewPly = to === state.ply ? null : to;
  clearSelection();
  whileBusy(refreshBoard).catch(fail);
}

function showHistory(state) {
  const list = $('history');
  list.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement('li');
    item.dataset.ply = move.ply;
    item.className = move.mover;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ply';
    button.title = `Show the position after ${numbered(move)}`;
    const number = document.createElement('span');
    number.className = 'number';
    number.textContent = `${move.number}${move.mover === 'white' ? '.' : '...'}`;
    const text = document.createElement('strong');
    text.textContent = move.text;
    button.append(number, ' ', text);
    button.addEventListener('click', () => browse(0, move.ply));
    const kind = document.createElement('span');
    kind.className = 'kind';
    kind.textContent = move.kind.replaceAll('_', ' ');
    item.append(button, ' ', kind);
    if (move.outcome) {
      const outcome = document.createElement('span');
      outcome.className = 'outcome';
      outcome.textContent = `outcome ${move.outcome}`;
      item.append(' ', outcome);
    }
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.textContent = ` ${move.mover}: ${move.detail}`;
    item.append(detail);
    list.append(item);
  }
  if (state.moves.length === 0) {
    const item = document.createElement('li');
    item.className = 'empty';
    item.textContent = 'No move played yet.';
    list.append(item);
  }
}

function markViewed(at) {
  for (const item of $('history').querySelectorAll('li[data-ply]')) {
    const viewed = Number(item.dataset.ply) === at;
    item.classList.toggle('viewed', viewed);
    if (viewed) item.setAttribute('aria-current', 'step');
    else item.removeAttribute('aria-current');
  }
  const state = page.state;
  $('first').disabled = at === 0;
  $('previous').disabled = at === 0;
  $('next').disabled = at === state.ply;
  $('last').disabled = at === state.ply;
}

// ---------------------------------------------------------------- clocks

// The clocks as the last state gave them, and when it came: the running one goes on here.
let clocks = null;

function showClocks(state) {
  clocks = { ...state.clocks, received: performance.now() };
  tickClocks();
}

function clockText(ms) {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

function tickClocks() {
  if (!clocks) return;
  const running = clocks.running;
  const extra = running ? performance.now() - clocks.received : 0;
  for (const side of ['white', 'black']) {
    const ms = clocks[`${side}_ms`] + (running === side ? extra : 0);
    const element = $(`clock-${side}`);
    element.querySelector('.time').textContent = clockText(ms);
    element.classList.toggle('running', running === side);
  }
}

async function refreshLegal() {
  const state = page.state;
  const newest = await newestAnswer('legal', () => api('GET', gamePath('/moves')));
  if (!newest || !current(newest.answer, state.ply) || page.state !== state) return;
  page.legal = newest.answer.moves;
  $('legal-count').textContent = String(page.legal.length);
  const box = $('legal');
  box.replaceChildren();
  const byKind = new Map();
  for (const move of page.legal) {
    if (!byKind.has(move.kind)) byKind.set(move.kind, []);
    byKind.get(move.kind).push(move);
  }
  for (const [kind, moves] of byKind) {
    const group = document.createElement('div');
    const title = document.createElement('h3');
    title.textContent = `${kind.replaceAll('_', ' ')} (${moves.length})`;
    const buttons = document.createElement('div');
    buttons.className = 'move-buttons';
    for (const move of moves) buttons.append(moveButton(move));
    group.append(title, buttons);
    box.append(group);
  }
  markSquares();
}

function moveButton(move) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move-button';
  button.textContent = move.text;
  button.addEventListener('click', () => play(move.text));
  return button;
}

// ---------------------------------------------------------------- clicking on the board

function squareElements() {
  return [...$('board').querySelectorAll('[data-square].square, g[data-square]')];
}

function hookSquares() {
  for (const element of squareElements()) {
    element.addEventListener('click', (event) => {
      onSquare(element.dataset.square, event.shiftKey || $('extend').checked);
    });
  }
}

const startsWith = (clicks, prefix) => prefix.every((sq, k) => clicks[k] === sq);

function onSquare(square, extend) {
  if (page.viewPly !== null) {
    say('This is an earlier position: go to the last one (▶| Last position) to play.', 'error');
    return;
  }
  if (waiting > 0) {
    // The legal moves shown are those before the answer still coming.
    say("Wait for the engine's move (or type yours in the Move field: it is played next).", 'error');
    return;
  }
  const selection = page.selection;
  if (selection.length === 1 && selection[0] === square && !extend) {
    clearSelection();
    return;
  }
  const next = [...selection, square];
  const candidates = page.legal.filter((m) => startsWith(m.clicks, next));
  if (candidates.length === 0) {
    if (selection.length > 0 && page.legal.some((m) => m.clicks[0] === square)) {
      select([square]);
    } else if (selection.length > 0) {
      say(`No legal move goes ${[...selection, square].join(' → ')}.`, 'error');
      clearSelection();
    } else {
      const content = page.state.squares[square];
      say(content ? `The ${content.name} on ${square} has no legal move.`
        : `${square} is empty: click one of your pieces first.`, 'error');
    }
    return;
  }
  const complete = candidates.filter((m) => m.clicks.length === next.length);
  const longer = candidates.length - complete.length;
  if (complete.length > 0 && (!extend || longer === 0)) {
    if (complete.length === 1) {
      play(complete[0].text);
    } else {
      select(next);
      showChooser(`Which move ${next.join(' → ')}?`, complete);
    }
    return;
  }
  select(next);
  if (complete.length > 0 || next.length > 1) {
    showChooser(`Moves from ${next.join(', ')}:`, candidates);
  }
}

function select(squares) {
  page.selection = squares;
  hideChooser();
  markSquares();
  if (squares.length > 0) {
    const targets = nextClicks();
    say(`Selected ${squares.join(', ')}: ${targets.length} square(s) to go on with.`);
  }
}

function clearSelection() {
  page.selection = [];
  hideChooser();
  markSquares();
}

function nextClicks() {
  const selection = page.selection;
  const squares = new Set();
  for (const move of page.legal) {
    if (move.clicks.length > selection.length && startsWith(move.clicks, selection)) {
      squares.add(move.clicks[selection.length]);
    }
  }
  return [...squares];
}

function markSquares() {
  const targets = new Set(page.selection.length ? nextClicks() : []);
  for (const element of squareElements()) {
    const square = element.dataset.square;
    element.classList.toggle('selected', page.selection.includes(square));
    element.classList.toggle('target', targets.has(square));
  }
}

function showChooser(title, moves) {
  $('chooser-title').textContent = title;
  const box = $('chooser-moves');
  box.replaceChildren(...moves.map(moveButton));
  $('chooser').hidden = false;
}

function hideChooser() {
  $('chooser').hidden = true;
}

// ---------------------------------------------------------------- the circuit

function showTab(which) {
  const drawing = which === 'drawing';
  $('tab-drawing').setAttribute('aria-selected', String(drawing));
  $('tab-qasm').setAttribute('aria-selected', String(!drawing));
  $('drawing-panel').hidden = !drawing;
  $('qasm-panel').hidden = drawing;
  whileBusy(refreshCircuit).catch(fail);
}

async function refreshCircuit() {
  if (!$('drawing-panel').hidden) {
    const state = page.state;
    const query = $('all-wires').checked ? '?all_wires=true' : '';
    const newest = await newestAnswer('drawing', () => apiSvg(gamePath(`/circuit.svg${query}`)));
    if (!newest || !current(newest.answer, state.ply) || page.state !== state) return;
    const box = $('circuit-drawing');
    box.innerHTML = newest.answer.svg;
    const labels = box.querySelectorAll('text.section');
    const last = state.moves.length;
    // Sections are numbered in drawing order (the set-up, then one per move), so the move just
    // played is the highest; its label is the record's (`1... g8f6`), not the ply.
    const newestSection = Math.max(-1, ...Array.from(labels, (l) => Number(l.dataset.section)));
    for (const label of labels) {
      const now = last > 0 && Number(label.dataset.section) === newestSection;
      label.classList.toggle('current', now);
      if (now) label.setAttribute('aria-current', 'step');
    }
  } else {
    await refreshProgram();
  }
}

function compileOptions() {
  return {
    format: $('format').value || 'qasm3',
    target: $('target').value || 'none',
    form: $('form').value || 'dynamic',
  };
}

async function fetchProgram() {
  const options = compileOptions();
  const query = new URLSearchParams(options);
  const program = await api('GET', gamePath(`/compile?${query}`));
  return { ...program, options };
}

async function refreshProgram() {
  if ($('qasm-panel').hidden) return;
  const state = page.state;
  const newest = await newestAnswer('program', fetchProgram);
  if (!newest || !current(newest.answer, state.ply) || page.state !== state) return;
  const program = newest.answer;
  $('qasm').textContent = program.text;
  const s = program.summary;
  $('summary').textContent = `${s.qubits} qubit(s), ${s.clbits} bit(s), ${s.total_gates} gate(s) `
    + `(${s.multi_qubit_gates} on two or more qubits), two-qubit depth ${s.two_qubit_depth}, `
    + `${s.measurements} measurement(s)`;
}

// ---------------------------------------------------------------- the hardware round trip

async function downloadProgram() {
  const program = await fetchProgram();
  page.program = program;
  downloadText(program.text, 'game.qasm');
  say(`Downloaded the program after ${program.moves} move(s): run it, then upload its counts.`);
}

async function uploadCounts(input) {
  const file = input.files && input.files[0];
  input.value = '';
  if (!file) return;
  const counts = await file.text();
  const program = (page.program && page.program.id === page.id) ? page.program : await fetchProgram();
  const mitigate = [
    $('mitigate-postselect').checked ? 'postselect' : null,
    $('mitigate-symmetry').checked ? 'symmetry' : null,
  ].filter(Boolean).join(',') || 'none';
  try {
    const answer = await api('POST', gamePath('/counts'), {
      counts,
      counts_format: $('counts-format').value,
      mitigate,
      moves: program.moves,
      compile: program.options,
    });
    if (!current(answer)) return;
    showCounts(file.name, answer);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      say(`Cannot read ${file.name}: ${wordsFor(error)}`, 'error');
    } else {
      throw error;
    }
  }
}

function showCounts(name, answer) {
  const e = answer.estimate;
  const discarded = Object.entries(e.discarded).map(([why, n]) => `${why}: ${n}`).join(', ') || 'none';
  let facts = `${name}: ${e.shots} shot(s), ${e.kept} kept, discarded ${discarded}.`;
  if (e.no_board) {
    // The counts say nothing about where pieces stand (a Niel's Chess program): no board.
    $('counts-facts').textContent = `${e.no_board}. ${facts}`;
    $('counts-boards').replaceChildren();
    say(`Read ${name}: it gives no board (see why below).`);
    return;
  }
  if (e.tvd !== undefined && e.tvd !== null) {
    facts += ` Total variation distance to the exact board: ${e.tvd.toFixed(4)}.`;
  }
  $('counts-facts').textContent = facts;
  const boards = $('counts-boards');
  boards.replaceChildren();
  const figure = (caption, svg, id) => {
    const f = document.createElement('figure');
    f.id = id;
    const c = document.createElement('figcaption');
    c.textContent = caption;
    const d = document.createElement('div');
    d.innerHTML = svg;
    f.append(c, d);
    boards.append(f);
  };
  figure('From the counts (mitigated)', answer.measured_svg, 'counts-measured');
  if (answer.exact_svg) figure('Exact', answer.exact_svg, 'counts-exact');
  say(`Read ${name}: the board it gives is beside the exact one below.`);
}

whileBusy(start).catch((error) => {
  fail(error);
  $('headline').textContent = 'Cannot reach the qchess server.';
});
