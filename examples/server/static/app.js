// app.js - the browser client: creates games, plays them through the API and follows their event stream.
'use strict';

const $ = (id) => document.getElementById(id);
let current = null; // {id, seat, token, state, source, refreshing, again}
const HOME_TITLE = 'Tic-tac-toe, Connect Four, Gomoku';

// A request's answer; a request that got none (the server down, the network
// gone) answers status 0 with a message, so every caller can show it.
async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let r;
  try {
    r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    return {status: 0, data: {error: 'The server did not answer (' + e.message + ').'}};
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return {status: r.status, data};
}

// Shows what failed in the lobby's or the game's alert, with a Retry button
// that runs retry (and clears the message); showError(where, '') clears it.
function showError(where, message, retry) {
  const box = $(where + '-error');
  box.replaceChildren();
  if (!message) return;
  box.append(message);
  if (retry) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'retry';
    b.textContent = 'Retry';
    b.addEventListener('click', () => { showError(where, ''); retry(); });
    box.append(b);
  }
}

function failure(r) {
  return (r.data && r.data.error) || 'The server answered ' + r.status + '.';
}

// The game's name, for the heading: the three presets by name, else its shape.
function gameTitle(s) {
  if (s.width === 3 && s.height === 3 && s.k === 3 && !s.gravity) return 'Tic-tac-toe';
  if (s.width === 7 && s.height === 6 && s.k === 4 && s.gravity) return 'Connect Four';
  if (s.width === 15 && s.height === 15 && s.k === 5 && !s.gravity) return 'Gomoku';
  return s.width + 'x' + s.height + ', ' + s.k + ' in a row' + (s.gravity ? ', gravity' : '');
}

// Once a game is over its tokens move nothing: the invite link (the
// opponent's token) leaves the screen and localStorage, and the own token
// leaves the address.
function forgetSecrets(id) {
  localStorage.removeItem('ttt-game-' + id);
  current.invite = null;
  current.token = null;
  $('invite').value = '';
  if (hashParams().token) history.replaceState(null, '', '#' + new URLSearchParams({g: id}).toString());
}

// Cell names as the server writes them: column letters, then the 1-based row.
function cellName(row, col) {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) {
    letters = String.fromCharCode(97 + (c - 1) % 26) + letters;
  }
  return letters + (row + 1);
}

function parseCell(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name || '');
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 96);
  return {row: Number(m[2]) - 1, col: col - 1};
}

function columnName(col) { return cellName(0, col).replace(/\d+$/, ''); }

function hashParams() {
  const p = new URLSearchParams(location.hash.slice(1));
  return {id: p.get('g'), seat: p.get('seat'), token: p.get('t')};
}

function seatLink(id, seat, token) {
  const p = new URLSearchParams({g: id});
  if (seat && token) { p.set('seat', seat); p.set('t', token); }
  return location.origin + '/#' + p.toString();
}

function stateText(s) {
  const name = (m) => s.names[m] || m.toUpperCase();
  if (s.state === 'in_progress') {
    let t = name(s.to_move) + ' (' + s.to_move.toUpperCase() + ') to move';
    if (current.seat === s.to_move) t += ': your move';
    if (s.draw_offer) t += '. ' + name(s.draw_offer) + ' offers a draw';
    return t;
  }
  const how = {line: 'a line', full_board: 'a full board', no_line: 'no line left', resign: 'resignation',
               agreed: 'agreement', ply_limit: 'the move limit'}[s.ending] || s.ending;
  if (s.state === 'draw') return 'Drawn by ' + how;
  const winner = s.state === 'x_won' ? 'x' : 'o';
  return name(winner) + ' (' + winner.toUpperCase() + ') won by ' + how;
}

function winningCells(s) {
  const cells = new Set();
  if (!s.winning_line) return cells;
  const a = parseCell(s.winning_line[0]), b = parseCell(s.winning_line[1]);
  const dr = Math.sign(b.row - a.row), dc = Math.sign(b.col - a.col);
  for (let r = a.row, c = a.col, n = 0; n <= Math.max(s.width, s.height); r += dr, c += dc, n++) {
    cells.add(cellName(r, c));
    if (r === b.row && c === b.col) break;
  }
  return cells;
}

function render(s) {
  current.state = s;
  if (s.state !== 'in_progress') forgetSecrets(s.id);
  $('lobby').hidden = true;
  $('game').hidden = false;
  $('home').textContent = gameTitle(s);
  document.title = gameTitle(s) + ' - ttt-server';
  // Names are text, never markup.
  $('name-x').textContent = s.names.x;
  $('name-o').textContent = s.names.o;
  $('status').textContent = stateText(s);
  $('status').dataset.state = s.state;
  const board = $('board');
  const focused = document.activeElement && document.activeElement.dataset.cell;
  board.style.setProperty('--cols', String(s.width));
  board.style.setProperty('--rows', String(s.height));
  board.style.setProperty('--max-cell', s.width > 9 || s.height > 9 ? '1.9rem' : s.width <= 4 ? '4.5rem' : '3rem');
  board.classList.toggle('gravity', s.gravity);
  const legal = new Set(s.legal);
  const legalColumns = new Set([...legal].map((n) => parseCell(n).col));
  const myTurn = s.state === 'in_progress' && current.seat === s.to_move && !!current.token;
  const wins = winningCells(s);
  board.replaceChildren();
  for (let r = 0; r < s.height; r++) {
    for (let c = 0; c < s.width; c++) {
      const name = cellName(r, c), mark = s.board[r][c];
      const b = document.createElement('button');
      b.type = 'button';
      b.id = 'cell-' + name;
      b.dataset.cell = name;
      b.dataset.row = String(r);
      b.dataset.col = String(c);
      if (s.gravity) {
        // A disc (or a hole) in the frame: the mark is in the label.
        const disc = document.createElement('span');
        disc.className = mark === '.' ? 'disc' : 'disc ' + mark;
        b.appendChild(disc);
      } else {
        b.textContent = mark === '.' ? '' : mark.toUpperCase();
      }
      b.className = mark === '.' ? 'empty' : mark;
      if (name === s.last_move) b.classList.add('last');
      if (wins.has(name)) b.classList.add('win');
      b.setAttribute('aria-label', name + (mark === '.' ? ' empty' : ' ' + mark));
      const playable = myTurn && (s.gravity ? legalColumns.has(c) : legal.has(name));
      b.setAttribute('aria-disabled', String(!playable));
      b.tabIndex = -1;
      board.appendChild(b);
    }
  }
  const target = (focused && $('cell-' + focused)) || board.querySelector('button[aria-disabled=false]') ||
                 board.firstChild;
  if (target) target.tabIndex = 0;
  if (focused && target) target.focus();
  const seated = !!current.token && s.state === 'in_progress';
  $('controls').hidden = !seated;
  $('draw').textContent = s.draw_offer && s.draw_offer !== current.seat ? 'Accept the draw' : 'Offer a draw';
  const invite = current.invite;
  $('invite-box').hidden = !invite;
  if (invite) $('invite').value = invite;
  $('watch-link').value = seatLink(s.id);
}

async function refresh() {
  if (!current) return;
  if (current.refreshing) { current.again = true; return; }
  current.refreshing = true;
  const game = current;
  try {
    do {
      game.again = false;
      const r = await api('GET', '/api/games/' + encodeURIComponent(game.id));
      if (game !== current) return;
      if (r.status !== 200) { showError('game', failure(r), refresh); return; }
      render(r.data);
      if (r.data.state !== 'in_progress' && game.source) { game.source.close(); game.source = null; }
    } while (game.again);
  } finally {
    game.refreshing = false;
  }
}

// The event stream: the browser reconnects by itself with Last-Event-ID, and
// the server replays what was missed, so a dropped connection resumes.
// A stream the browser gave up on (the server refused it, or is gone for
// good) says so, with a retry that reopens it.
function follow(game, ply) {
  const source = new EventSource('/api/games/' + encodeURIComponent(game.id) + '/events?last_event_id=' + ply);
  for (const kind of ['move', 'end', 'offer']) source.addEventListener(kind, refresh);
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED || game !== current || game.source !== source) return;
    game.source = null;
    showError('game', 'Live updates stopped.', () => {
      if (game !== current) return;
      follow(game, game.state ? game.state.ply : 0);
      refresh();
    });
  });
  game.source = source;
}

async function openGame(id, seat, token) {
  if (current && current.source) current.source.close();
  const saved = JSON.parse(localStorage.getItem('ttt-game-' + id) || 'null');
  current = {id, seat: seat || null, token: token || null, invite: saved && saved.invite, state: null};
  showError('game', '');
  const r = await api('GET', '/api/games/' + encodeURIComponent(id));
  if (r.status !== 200) {
    showLobby();
    showError('lobby', failure(r), () => openGame(id, seat, token));
    return;
  }
  render(r.data);
  if (r.data.state === 'in_progress') follow(current, r.data.ply);
}

async function play(cell) {
  const s = current.state;
  const p = parseCell(cell);
  const body = s.gravity ? {ply: s.ply, column: columnName(p.col)} : {ply: s.ply, cell};
  const game = current;
  const r = await api('POST', '/api/games/' + encodeURIComponent(game.id) + '/moves', body, game.token);
  if (game !== current) return;
  if (r.status === 200) { showError('game', ''); render(r.data); return; }
  // 409: the game moved on (the other side, or this move already stored).
  if (r.status === 409) { showError('game', ''); refresh(); return; }
  showError('game', failure(r), () => play(cell));
}

// Resigning or offering (accepting) a draw, checked like a move.
async function act(action) {
  const game = current;
  const r = await api('POST', '/api/games/' + encodeURIComponent(game.id) + '/' + action, undefined, game.token);
  if (game !== current) return;
  if (r.status === 200) { showError('game', ''); render(r.data); return; }
  showError('game', failure(r), () => act(action));
  if (r.status === 409) refresh(); // the game ended meanwhile
}

function showLobby() {
  if (current && current.source) current.source.close();
  current = null;
  $('lobby').hidden = false;
  $('game').hidden = true;
  $('home').textContent = HOME_TITLE;
  document.title = 'ttt-server';
}

function route() {
  const {id, seat, token} = hashParams();
  if (id) openGame(id, seat === 'x' || seat === 'o' ? seat : null, token); else showLobby();
}

async function create(event) {
  event.preventDefault();
  const preset = $('preset').value, seat = $('seat').value, opponent = $('opponent').value;
  const other = seat === 'x' ? 'o' : 'x';
  const body = {rated: $('rated').checked};
  if (preset === 'custom') {
    body.width = Number($('width').value); body.height = Number($('height').value);
    body.k = Number($('k').value); body.gravity = $('gravity').checked;
  } else {
    body.game = preset;
  }
  body[seat] = {kind: 'human'};
  if ($('name').value) body[seat].name = $('name').value;
  body[other] = {kind: opponent};
  const r = await api('POST', '/api/games', body);
  if (r.status !== 201) { showError('lobby', failure(r), () => create(event)); return; }
  showError('lobby', '');
  const invite = r.data.tokens[other] ? seatLink(r.data.id, other, r.data.tokens[other]) : null;
  localStorage.setItem('ttt-game-' + r.data.id, JSON.stringify({invite}));
  location.hash = new URLSearchParams({g: r.data.id, seat, t: r.data.tokens[seat]}).toString();
}

// Arrow keys move between cells; Enter or Space (a button's click) plays one.
function onBoardKey(event) {
  const b = event.target;
  if (!b.dataset || b.dataset.row === undefined) return;
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  const step = moves[event.key];
  if (!step) return; // Enter and Space click the button, which plays it
  event.preventDefault();
  const s = current.state;
  const r = Math.min(s.height - 1, Math.max(0, Number(b.dataset.row) + step[0]));
  const c = Math.min(s.width - 1, Math.max(0, Number(b.dataset.col) + step[1]));
  const next = $('cell-' + cellName(r, c));
  b.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

document.addEventListener('DOMContentLoaded', () => {
  $('create').addEventListener('submit', create);
  $('watch').addEventListener('submit', (e) => {
    e.preventDefault();
    location.hash = new URLSearchParams({g: $('watch-id').value.trim()}).toString();
  });
  $('preset').addEventListener('change', () => { $('custom-shape').hidden = $('preset').value !== 'custom'; });
  $('board').addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b && b.getAttribute('aria-disabled') === 'false') play(b.dataset.cell);
  });
  $('board').addEventListener('keydown', onBoardKey);
  $('resign').addEventListener('click', () => act('resign'));
  $('draw').addEventListener('click', () => act('draw'));
  window.addEventListener('hashchange', route);
  route();
});
