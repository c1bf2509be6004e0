// The page: a board, the engine's output and switches, and the search tree, all driven through
// UCI lines sent to the engine's worker (worker.js). What is legal comes from the engine's
// `moves` command and the position from its `d`: the page knows no chess rules of its own.

const $ = (id) => document.getElementById(id);

// ---- The worker, as a queue of UCI lines: `send` resolves with a line's whole output. ----

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const pending = new Map();
let nextId = 0;
let onReady;
const ready = new Promise((resolve) => (onReady = resolve));

worker.onmessage = (event) => {
  const m = event.data;
  if (m.type === 'ready') {
    $('simd').textContent = m.simd;
    onReady(m);
  } else if (m.type === 'failed') {
    fail(m.error);
  } else if (m.type === 'output') {
    pending.get(m.id)?.onPiece(m.text);
  } else if (m.type === 'done') {
    const job = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) fail(m.error);
    job?.resolve(m.output);
  }
};
worker.onerror = (event) =>
  fail(`the engine's worker could not run (${event.message ?? 'no message'}): is it built? (scripts/web-build)`);

/** Sends one UCI line; `onPiece`, if given, sees its output as it comes (a search's info lines). */
function send(line, onPiece) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, { resolve, onPiece: onPiece ?? (() => {}) });
    worker.postMessage({ id, line, stream: Boolean(onPiece) });
  });
}

function fail(error) {
  setStatus('failed', error);
  for (const button of document.querySelectorAll('button')) button.disabled = true;
}

// ---- The game: a start position and the moves played from it. ----

const game = {
  startFen: null, // null: the standard start position
  moves: [],
  player: 'w', // the side the reader plays
  fen: '',
  legal: [],
  inCheck: false,
  selected: null,
  busy: false,
};

function positionCommand() {
  const start = game.startFen ? `fen ${game.startFen}` : 'startpos';
  const moves = game.moves.length ? ` moves ${game.moves.join(' ')}` : '';
  return `position ${start}${moves}`;
}

/** Sends the game to the engine and reads back its FEN, whether in check, and its legal moves. */
async function syncPosition() {
  const answer = await send(positionCommand());
  if (answer.includes('error')) return answer;
  const shown = await send('d');
  game.fen = lineAfter(shown, 'Fen: ') ?? game.fen;
  game.inCheck = (lineAfter(shown, 'Checkers:') ?? '').trim() !== '';
  const moves = await send('moves');
  game.legal = (lineAfter(moves, 'moves') ?? '').split(' ').filter(Boolean);
  game.selected = null;
  return '';
}

function lineAfter(text, prefix) {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? null : line.slice(prefix.length);
}

const sideToMove = () => game.fen.split(' ')[1] ?? 'w';

// ---- Drawing the board from the FEN. ----

const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const FILES = 'abcdefgh';

function pieceAt() {
  const placement = game.fen.split(' ')[0] ?? '';
  const squares = {};
  placement.split('/').forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) {
        file += Number(c);
      } else {
        squares[FILES[file] + (8 - i)] = c;
        file += 1;
      }
    }
  });
  return squares;
}

function drawBoard() {
  const board = $('board');
  board.replaceChildren();
  board.dataset.fen = game.fen;
  const pieces = pieceAt();
  const fromSquares = new Set(game.legal.map((m) => m.slice(0, 2)));
  const targets = new Set(
    game.selected ? game.legal.filter((m) => m.startsWith(game.selected)).map((m) => m.slice(2, 4)) : [],
  );
  const playersTurn = !game.busy && sideToMove() === game.player;
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const rank = game.player === 'w' ? 8 - r : r + 1;
      const file = game.player === 'w' ? f : 7 - f;
      const square = FILES[file] + rank;
      const cell = document.createElement('button');
      cell.className = (file + rank) % 2 === 0 ? 'sq dark' : 'sq light';
      cell.dataset.square = square;
      const piece = pieces[square];
      if (piece) {
        cell.textContent = GLYPHS[piece.toLowerCase()] + '\uFE0E';
        cell.classList.add(piece === piece.toUpperCase() ? 'white' : 'black');
      }
      if (playersTurn && fromSquares.has(square)) cell.classList.add('movable');
      if (square === game.selected) cell.classList.add('selected');
      if (targets.has(square)) cell.classList.add('target');
      cell.setAttribute('aria-label', square + (piece ? ` ${piece}` : ''));
      cell.addEventListener('click', () => clickSquare(square));
      board.append(cell);
    }
  }
  $('game-moves').textContent = game.moves.length ? game.moves.join(' ') : '(no moves yet)';
}

async function clickSquare(square) {
  if (game.busy || sideToMove() !== game.player) return;
  if (game.selected) {
    const chosen = game.legal.filter((m) => m.startsWith(game.selected + square));
    if (chosen.length) {
      // A promotion is listed once per piece: take the one the reader chose.
      const promotion = $('promotion').value;
      const move = chosen.find((m) => m.length === 4 || m[4] === promotion) ?? chosen[0];
      await play(move);
      return;
    }
  }
  game.selected = game.legal.some((m) => m.startsWith(square)) ? square : null;
  drawBoard();
}

async function play(move) {
  game.moves.push(move);
  await afterMove();
}

/** After any change to the game: the new position, then cb2026's reply if it is its turn. */
async function afterMove() {
  await busy(async () => {
    const error = await syncPosition();
    if (error) {
      log(error.trim());
      game.moves.pop();
      await syncPosition();
    }
    drawBoard();
    if (game.legal.length === 0 || sideToMove() === game.player || !$('auto').checked) return;
    const best = await search(false);
    if (best && best !== '0000') {
      game.moves.push(best);
      await syncPosition();
    }
  });
  settle();
}

/** Back to the reader's previous turn: one half-move, or two if cb2026 had replied. */
async function takeBack() {
  if (game.busy || game.moves.length === 0) return;
  game.moves.pop();
  await busy(syncPosition);
  if (sideToMove() !== game.player && game.moves.length > 0) game.moves.pop();
  await afterMove();
}

/** The board and the status line once the engine is idle. */
function settle() {
  drawBoard();
  gameOver();
}

function gameOver() {
  if (game.legal.length > 0) {
    setStatus('ready', sideToMove() === game.player ? 'Your move.' : 'cb2026 to move.');
    return false;
  }
  const side = sideToMove() === 'w' ? 'White' : 'Black';
  setStatus('ready', game.inCheck ? `Checkmate: ${side} is mated.` : `Stalemate: ${side} has no move.`);
  return true;
}

/** Runs `work` with the board locked and the status 'thinking'; the caller settles after. */
async function busy(work) {
  game.busy = true;
  setStatus('thinking', 'cb2026 is thinking…');
  drawBoard();
  try {
    await work();
  } finally {
    game.busy = false;
  }
}

function setStatus(state, text) {
  const status = $('status');
  if (status.dataset.state === 'failed') return;
  status.dataset.state = state;
  status.textContent = text;
}

// ---- Searching: the limit, the info lines, the summary and `stats`. ----

function goCommand() {
  const kind = $('limit-kind').value;
  const value = Math.max(1, Math.floor(Number($('limit-value').value) || 1));
  return `go ${kind} ${value}`;
}

/** Searches the game's position; returns the best move. `fresh`: empty hash and histories first. */
async function search(fresh) {
  if (fresh) await send('ucinewgame');
  await send(positionCommand());
  $('log').textContent = '';
  let bestmove = null;
  await send(goCommand(), (text) => {
    for (const line of text.split('\n').filter(Boolean)) {
      log(line);
      if (line.startsWith('info depth')) showInfo(line);
      if (line.startsWith('bestmove')) bestmove = line.split(' ')[1];
    }
  });
  $('stats').textContent = await send('stats');
  return bestmove;
}

function log(line) {
  const out = $('log');
  out.textContent += line + '\n';
  out.scrollTop = out.scrollHeight;
}

function showInfo(line) {
  const words = line.split(' ');
  const after = (key) => words[words.indexOf(key) + 1];
  $('depth').textContent = `${after('depth')}/${after('seldepth')}`;
  // UCI scores are the side to move's; shown here from White's side.
  const sign = sideToMove() === 'w' ? 1 : -1;
  const kind = after('score');
  const value = Number(words[words.indexOf('score') + 2]) * sign;
  $('score').textContent = kind === 'mate' ? `mate ${value}` : `${value >= 0 ? '+' : ''}${(value / 100).toFixed(2)}`;
  $('nodes').textContent = after('nodes');
  $('nps').textContent = after('nps');
  const pv = words.indexOf('pv');
  $('pv').textContent = pv >= 0 ? words.slice(pv + 1).join(' ') : '';
}

// ---- The techniques' switches. ----

function drawTechniques(list) {
  const box = $('techniques');
  for (const row of list.split('\n').filter(Boolean)) {
    const [name, on, chapter, doc] = row.split('\t');
    const label = document.createElement('label');
    label.title = `${doc} (chapter ${chapter})`;
    const check = document.createElement('input');
    check.type = 'checkbox';
    check.checked = on === 'true';
    check.dataset.technique = name;
    check.addEventListener('change', async () => {
      const answer = await send(`set ${name} ${check.checked ? 'on' : 'off'}`);
      log(answer.trim());
    });
    label.append(check, ` ${name}`);
    box.append(label);
  }
}

// ---- The book's stages: a preset of every switch (`set stage N`). ----

function drawStages(list) {
  const select = $('stage');
  const switchedOn = new Map();
  for (const row of list.split('\n').filter(Boolean)) {
    const [value, title, on] = row.split('\t');
    switchedOn.set(value, new Set(on.split(',').filter(Boolean)));
    const option = document.createElement('option');
    option.value = value;
    option.textContent = value === 'full' ? `the full engine (${title})` : `stage ${value}: ${title}`;
    select.append(option);
  }
  select.addEventListener('change', async () => {
    const answer = await send(`set stage ${select.value}`);
    log(answer.trim());
    if (answer.startsWith('info string error')) return;
    // The engine took the stage's switches: the check boxes show them.
    const on = switchedOn.get(select.value);
    for (const check of document.querySelectorAll('#techniques input[data-technique]')) {
      check.checked = on.has(check.dataset.technique);
    }
  });
}

// ---- The search tree of the current position. ----

async function tree(format) {
  if (game.busy) return null;
  const depth = Math.min(6, Math.max(1, Math.floor(Number($('tree-depth').value) || 3)));
  let drawing = '';
  await busy(async () => {
    drawing = await send(`tree depth ${depth} print ${format}`);
    $('stats').textContent = await send('stats');
  });
  settle();
  if (drawing.startsWith('info string error')) {
    log(drawing.trim());
    return null;
  }
  return drawing;
}

// ---- Wiring. ----

async function newGame(player, startFen) {
  if (game.busy) return;
  game.player = player;
  game.startFen = startFen;
  game.moves = [];
  await send('ucinewgame');
  await afterMove();
}

function wire() {
  $('new-white').addEventListener('click', () => newGame('w', null));
  $('new-black').addEventListener('click', () => newGame('b', null));
  $('undo').addEventListener('click', takeBack);
  $('setup').addEventListener('click', async () => {
    if (game.busy) return;
    const fen = $('fen').value.trim();
    const answer = await send(`position fen ${fen}`);
    if (!fen || answer.includes('error')) {
      log(answer.trim() || 'info string error: no FEN given');
      await syncPosition();
      return;
    }
    const side = fen.split(/\s+/)[1] === 'b' ? 'b' : 'w';
    await newGame(side, fen);
  });
  $('analyse').addEventListener('click', async () => {
    if (game.busy) return;
    await busy(() => search(true));
    settle();
  });
  $('limit-kind').addEventListener('change', () => {
    $('limit-value').value = { movetime: 1000, depth: 8, nodes: 100000 }[$('limit-kind').value];
  });
  $('draw-tree').addEventListener('click', async () => {
    const svg = await tree('svg');
    if (svg) $('tree').innerHTML = svg; // the engine's own drawing
  });
  $('open-tree').addEventListener('click', async () => {
    // Opened at once (before the wait) so that the browser doesn't take it for a pop-up.
    const tab = window.open('', '_blank');
    const html = await tree('html');
    if (html && tab) tab.location = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
    else tab?.close();
  });
}

wire();
ready.then(async ({ techniques, stages }) => {
  drawTechniques(techniques);
  drawStages(stages);
  await newGame('w', null);
});
