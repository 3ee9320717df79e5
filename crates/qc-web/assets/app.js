// The qchess page: talks to the JSON API under /api/ (docs/web.md) and shows what it answers.
// The board and the circuit are drawn by the server (qc-render's SVG); this script only places
// them, hooks clicks onto the board's squares (`[data-square]`) and knows no game rules: the
// legal moves come with the squares a player clicks to make each (`clicks`).

const $ = (id) => document.getElementById(id);

const page = {
  info: null,
  id: null,
  state: null,
  legal: [],
  selection: [],
  // The program last downloaded, for the counts that come back from a device.
  program: null,
};

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
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
    if (type.includes('application/json')) {
      const json = await response.json();
      if (json && json.error) reason = json.error;
    }
    throw new ApiError(response.status, reason);
  }
  if (response.status === 204) return null;
  return type.includes('application/json') ? response.json() : response.text();
}

const gamePath = (rest = '') => `/api/games/${encodeURIComponent(page.id)}${rest}`;

// ---------------------------------------------------------------- messages

function say(text, kind = 'info') {
  const box = $('message');
  box.textContent = text;
  box.className = `message ${kind}`;
}

function fail(error) {
  say(error.message || String(error), 'error');
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
  $('seed').value = info.initial.seed;
  fillSelect($('format'), info.formats.filter((f) => f.name === 'qasm3' || f.name === 'qasm2'));
  fillSelect($('target'), [{ name: 'none', title: 'none (all gates)' },
    ...info.targets.map((name) => ({ name }))]);
  fillSelect($('form'), info.forms, 'dynamic');
  fillSelect($('counts-format'), [{ name: 'auto', title: 'detect' }, ...info.counts_formats]);
  $('engine-time').min = info.engine.min_movetime_ms;
  $('engine-time').max = info.engine.max_movetime_ms;
  wire();
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
  await newGame(info.initial);
}

function wire() {
  $('rules').addEventListener('change', showVariantOptions);
  $('new-game').addEventListener('submit', (event) => {
    event.preventDefault();
    newGame({
      rules: $('rules').value,
      variant: chosenVariant(),
      seed: Number($('seed').value) || 0,
    }).catch(fail);
  });
  $('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('move').value.trim();
    if (!text) {
      say('Type a move first, e.g. b1^a3c3.', 'error');
      return;
    }
    play(text, { fromField: true }).catch(fail);
  });
  $('undo').addEventListener('click', () => undo().catch(fail));
  $('engine-move').addEventListener('click', () => engineMove().catch(fail));
  $('engine-side').addEventListener('change', () => engineTurn().catch(fail));
  $('save').addEventListener('click', () => save().catch(fail));
  $('load').addEventListener('change', (event) => load(event.target).catch(fail));
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
  });
}

// ---------------------------------------------------------------- games

async function newGame(spec) {
  const body = {};
  for (const key of ['rules', 'variant', 'fen', 'moves', 'game', 'seed']) {
    if (spec[key] !== undefined && spec[key] !== null) body[key] = spec[key];
  }
  const state = await api('POST', '/api/games', body);
  const old = page.id;
  page.id = state.id;
  page.program = null;
  history.replaceState(null, '', `#game=${state.id}`);
  await show(state);
  say(`New game: ${titleOf(state)}.`);
  if (old && old !== state.id) api('DELETE', `/api/games/${encodeURIComponent(old)}`).catch(() => {});
  await engineTurn();
}

function titleOf(state) {
  const rules = page.info.rules.find((r) => r.name === state.rules);
  const title = rules ? rules.title : state.rules;
  return state.variant ? `${title}, ${state.variant}` : title;
}

async function play(text, { fromField = false } = {}) {
  try {
    const after = await api('POST', gamePath('/play'), { move: text });
    if (fromField) $('move').value = '';
    await show(after);
    say(`Played ${after.done}: ${after.detail}`);
  } catch (error) {
    // Nothing changed on the server: the board stays as it is.
    clearSelection();
    if (error instanceof ApiError && error.status === 422) {
      say(`Illegal move ${text}: ${error.message}`, 'error');
      return;
    }
    throw error;
  }
  await engineTurn();
}

// The engine's side: after a move of the other side (or when the side is chosen), the engine
// answers if it is its turn and the game goes on.
async function engineTurn() {
  const side = $('engine-side').value;
  if (side && page.state && page.state.status === 'ongoing' && page.state.side_to_move === side) {
    await engineMove();
  }
}

async function engineMove() {
  const asked = Number($('engine-time').value);
  const { min_movetime_ms: least, max_movetime_ms: most } = page.info.engine;
  const movetime = Math.min(most, Math.max(least, Number.isFinite(asked) ? Math.round(asked) : 1000));
  const button = $('engine-move');
  button.disabled = true;
  say(`The engine is thinking (${movetime} ms)…`);
  try {
    const after = await api('POST', gamePath('/engine'), { movetime_ms: movetime });
    await show(after);
    const s = after.search;
    say(`The engine played ${after.done}: ${after.detail} (depth ${s.depth}, score ${s.score.toFixed(2)}, ${s.nodes} positions in ${s.time_ms} ms)`);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      say(`The engine cannot move: ${error.message}`, 'error');
    } else {
      throw error;
    }
  } finally {
    button.disabled = false;
  }
}

async function undo() {
  try {
    const after = await api('POST', gamePath('/undo'));
    await show(after);
    say(`Took back ${after.done}.`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) {
      say(`Cannot undo: ${error.message}`, 'error');
    } else {
      throw error;
    }
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
  try {
    await newGame({ rules, game: text, seed: Number($('seed').value) || 0 });
    say(`Loaded ${file.name}: ${page.state.moves.length} move(s).`);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      say(`Cannot load ${file.name}: ${error.message}`, 'error');
    } else {
      throw error;
    }
  }
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

// The page is busy (aria-busy="true" on <body>) from the moment it starts showing a new state
// until the legal moves and the circuit for it have arrived: assistive technology then waits
// for the whole update, and so can a test, instead of guessing when the network is quiet.
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
  page.selection = [];
  hideChooser();
  $('headline').textContent = state.headline;
  $('board').innerHTML = state.board_svg;
  hookSquares();
  showHistory(state);
  const facts = [`${titleOf(state)}`, `state: ${state.state_size} basis state(s)`, `FEN ${state.fen}`];
  if (state.most_likely_board && state.most_likely_board.fen !== state.fen) {
    const p = (100 * state.most_likely_board.probability).toFixed(1);
    facts.push(`most likely board (${p}%): ${state.most_likely_board.fen}`);
  }
  if (state.endings_note) facts.push(state.endings_note);
  $('facts').textContent = facts.join(' · ');
  $('undo').disabled = state.moves.length === 0;
  // Both settle before the page stops being busy, also when one of them fails (Promise.all
  // would end the busy time at the first failure, with the other panel still the old state's).
  const settled = await Promise.allSettled([refreshLegal(), refreshCircuit()]);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

function showHistory(state) {
  const list = $('history');
  list.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement('li');
    item.dataset.move = move.number;
    const text = document.createElement('strong');
    text.textContent = move.text;
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.textContent = ` (${move.side}, ${move.kind.replaceAll('_', ' ')}) ${move.detail}`;
    item.append(text, detail);
    list.append(item);
  }
  if (state.moves.length === 0) {
    const item = document.createElement('li');
    item.className = 'empty';
    item.textContent = 'No move played yet.';
    list.append(item);
  }
}

async function refreshLegal() {
  const newest = await newestAnswer('legal', () => api('GET', gamePath('/moves')));
  if (!newest) return;
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
  button.addEventListener('click', () => play(move.text).catch(fail));
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
      play(complete[0].text).catch(fail);
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
    const query = $('all-wires').checked ? '?all_wires=true' : '';
    const newest = await newestAnswer('drawing', () => api('GET', gamePath(`/circuit.svg${query}`)));
    if (!newest) return;
    const svg = newest.answer;
    const box = $('circuit-drawing');
    box.innerHTML = svg;
    const labels = box.querySelectorAll('text.section');
    const last = page.state.moves.length;
    for (const label of labels) {
      const current = last > 0 && label.textContent.startsWith(`${last}. `);
      label.classList.toggle('current', current);
      if (current) label.setAttribute('aria-current', 'step');
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
  const newest = await newestAnswer('program', fetchProgram);
  if (!newest) return;
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
  const extension = program.options.format === 'qasm2' ? 'qasm' : 'qasm';
  downloadText(program.text, `game.${extension}`);
  say(`Downloaded the program after ${program.moves} move(s): run it, then upload its counts.`);
}

async function uploadCounts(input) {
  const file = input.files && input.files[0];
  input.value = '';
  if (!file) return;
  const counts = await file.text();
  const program = page.program || await fetchProgram();
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
    showCounts(file.name, answer);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      say(`Cannot read ${file.name}: ${error.message}`, 'error');
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
