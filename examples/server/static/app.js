// app.js - the browser client: accounts, the lobby and quick pairing, games played through the API and followed by their event stream, the leaderboard.
'use strict';

const $ = (id) => document.getElementById(id);
let current = null; // {id, seat, token, state, source, refreshing, again}
let me = null;      // the logged-in account's name (the session is an HttpOnly cookie)
let lobbySource = null, accountSource = null;
const seeks = new Map();
const VIEWS = ['account', 'online', 'lobby', 'game', 'leaders', 'player'];
const KIND_TITLES = {tictactoe: 'Tic-tac-toe', connect4: 'Connect Four', gomoku: 'Gomoku', other: 'Other boards'};

// Shows the named sections, hides the others.
function showView(...names) {
  for (const v of VIEWS) $(v).hidden = !names.includes(v);
}
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
  const winner = s.state === 'x_won' ? 'x' : 'o';
  if (s.ending === 'time') {
    return s.state === 'draw' ? 'Drawn: time ran out for a side that no line can beat'
      : name(winner) + ' (' + winner.toUpperCase() + ') won on time';
  }
  if (s.state === 'draw') return 'Drawn by ' + how;
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

// In a game between accounts the session plays: the seat named by this
// account is its own.
function accountSeat(s) {
  if (!me || !s.rated || current.token) return null;
  return s.names.x === me ? 'x' : s.names.o === me ? 'o' : null;
}

function render(s) {
  current.state = s;
  current.stateAt = Date.now();
  if (s.state !== 'in_progress') forgetSecrets(s.id);
  const own = accountSeat(s);
  if (own) { current.seat = own; current.account = true; }
  showView('game');
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
  const seated = !!(current.token || current.account);
  const myTurn = s.state === 'in_progress' && current.seat === s.to_move && seated;
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
  $('controls').hidden = !seated || s.state !== 'in_progress';
  const moves = $('moves');
  moves.replaceChildren(...s.moves.map((m) => {
    const li = document.createElement('li');
    li.textContent = m;
    return li;
  }));
  showClocks();
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

function clockText(ms) {
  const secs = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
}

// Both clocks from the last state's clock_ms, the running side's counted
// down here between states (the server's clock decides).
function showClocks() {
  const s = current && current.state;
  const has = !!(s && s.clock_ms);
  $('clocks').hidden = !has;
  if (!has) return;
  // clock_running: the side whose time runs (null before the first move).
  const running = s.state === 'in_progress' ? s.clock_running : null;
  for (const m of ['x', 'o']) {
    const left = s.clock_ms[m] - (m === running ? Date.now() - current.stateAt : 0);
    $('clock-' + m).textContent = clockText(left);
    $('clock-' + m).classList.toggle('running', m === running);
  }
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

function leaveGame() {
  if (current && current.source) current.source.close();
  current = null;
  $('home').textContent = HOME_TITLE;
  document.title = 'ttt-server';
}

function showLobby() {
  leaveGame();
  showView(me ? 'online' : 'account', 'lobby');
  if (me) followLobby(); else stopLobby();
}

function route() {
  const {id, seat, token} = hashParams();
  const p = new URLSearchParams(location.hash.slice(1));
  if (id) { stopLobby(); openGame(id, seat === 'x' || seat === 'o' ? seat : null, token); return; }
  if (p.get('top')) { leaveGame(); stopLobby(); showLeaders(p.get('top')); return; }
  if (p.get('p')) { leaveGame(); stopLobby(); showPlayer(p.get('p')); return; }
  showLobby();
}

// ---- accounts ----

function showWho() {
  $('who').textContent = me ? 'Logged in as ' + me : '';
  $('logout').hidden = !me;
  if (me && !accountSource) followAccount();
  if (!me && accountSource) { accountSource.close(); accountSource = null; }
}

async function login(signUp) {
  const body = {name: $('account-name').value, password: $('password').value};
  if (signUp) {
    const r = await api('POST', '/api/accounts', body);
    if (r.status !== 201) { showError('account', failure(r)); return; }
  }
  const r = await api('POST', '/api/sessions', body);
  if (r.status !== 201) { showError('account', failure(r)); return; }
  showError('account', '');
  $('password').value = '';
  me = r.data.name;
  showWho();
  route();
}

async function logout() {
  const r = await api('DELETE', '/api/sessions/current');
  if (r.status !== 200 && r.status !== 401) { showError('online', failure(r), logout); return; }
  me = null;
  $('pairing-status').textContent = '';
  $('pairing-cancel').hidden = true;
  showWho();
  route();
}

// The account's events: a game started (an accepted seek, a pairing) opens it.
function followAccount() {
  accountSource = new EventSource('/api/account/events');
  accountSource.addEventListener('game_started', (e) => {
    const g = JSON.parse(e.data);
    $('pairing-status').textContent = '';
    $('pairing-cancel').hidden = true;
    const p = {g: g.game, seat: g.seat};
    if (g.token) p.t = g.token;
    location.hash = new URLSearchParams(p).toString();
  });
  for (const kind of ['pairing_expired', 'pairing_failed']) {
    accountSource.addEventListener(kind, () => {
      $('pairing-status').textContent = 'No game was found; try again.';
      $('pairing-cancel').hidden = true;
    });
  }
}

// ---- the lobby ----

function seekText(s) {
  const time = s.clock ? ', ' + s.clock.initial_s / 60 + '+' + (s.clock.increment_s || 0)
    : s.days_per_move ? ', ' + s.days_per_move + ' d a move' : '';
  return s.owner + ' (' + s.rating + '): ' + (KIND_TITLES[s.kind] || s.kind) +
    (s.kind === 'other' ? ' ' + s.width + 'x' + (s.height || s.width) : '') + (s.rated ? ', rated' : ', casual') + time;
}

function showSeeks() {
  const list = $('seeks');
  const items = [...seeks.values()].map((s) => {
    const li = document.createElement('li');
    li.append(seekText(s) + ' ');
    const b = document.createElement('button');
    b.type = 'button';
    const own = s.owner === me;
    b.textContent = own ? 'Cancel' : 'Accept';
    b.dataset.seek = s.id;
    b.addEventListener('click', () => seekAction(s.id, own));
    li.append(b);
    return li;
  });
  if (!items.length) {
    const li = document.createElement('li');
    li.textContent = 'No open seeks yet.';
    items.push(li);
  }
  list.replaceChildren(...items);
}

function followLobby() {
  if (lobbySource) return;
  lobbySource = new EventSource('/api/lobby/events');
  lobbySource.addEventListener('seeks', (e) => {
    seeks.clear();
    for (const s of JSON.parse(e.data).seeks) seeks.set(s.id, s);
    showSeeks();
  });
  lobbySource.addEventListener('seek_added', (e) => {
    const s = JSON.parse(e.data);
    seeks.set(s.id, s);
    showSeeks();
  });
  lobbySource.addEventListener('seek_removed', (e) => {
    seeks.delete(JSON.parse(e.data).id);
    showSeeks();
  });
}

function stopLobby() {
  if (lobbySource) lobbySource.close();
  lobbySource = null;
}

async function seekAction(id, own) {
  const r = own ? await api('DELETE', '/api/seeks/' + id) : await api('POST', '/api/seeks/' + id + '/accept');
  if (r.status !== 200 && r.status !== 201) { showError('online', failure(r)); return; }
  showError('online', '');
  if (!own) {
    const p = {g: r.data.game, seat: r.data.seat};
    if (r.data.token) p.t = r.data.token;
    location.hash = new URLSearchParams(p).toString();
  }
}

// The chosen time control as POST /api/games takes it: "initial+increment"
// in seconds, or a day a move.
function withTimeControl(body) {
  const v = $('time-control').value;
  if (v === 'day') body.days_per_move = 1;
  else if (v) body.clock = {initial_s: Number(v.split('+')[0]), increment_s: Number(v.split('+')[1])};
  return body;
}

async function postSeek(event) {
  event.preventDefault();
  const r = await api('POST', '/api/seeks',
    withTimeControl({game: $('seek-preset').value, rated: $('seek-rated').checked}));
  if (r.status !== 201) { showError('online', failure(r)); return; }
  showError('online', '');
}

async function pair(game) {
  const r = await api('POST', '/api/pairing', withTimeControl({game}));
  if (r.status !== 201) { showError('online', failure(r)); return; }
  showError('online', '');
  $('pairing-status').textContent = 'Looking for an opponent at ' + (KIND_TITLES[game] || game) +
    ' (your rating ' + r.data.rating + ')...';
  $('pairing-cancel').hidden = false;
}

async function stopPairing() {
  const r = await api('DELETE', '/api/pairing');
  $('pairing-status').textContent = r.status === 200 || r.status === 404 ? '' : failure(r);
  $('pairing-cancel').hidden = true;
}

// ---- the leaderboard and players ----

function playerLink(name) {
  const a = document.createElement('a');
  a.href = '#' + new URLSearchParams({p: name}).toString();
  a.textContent = name;
  return a;
}

function row(cells) {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    td.append(c);
    tr.append(td);
  }
  return tr;
}

async function showLeaders(kind) {
  showView('leaders');
  document.title = 'Leaderboard - ttt-server';
  const r = await api('GET', '/api/players?game=' + encodeURIComponent(kind));
  const body = $('leaders-table').tBodies[0];
  if (r.status !== 200) { body.replaceChildren(); showError('leaders', failure(r), () => showLeaders(kind)); return; }
  showError('leaders', '');
  $('leaders').querySelector('h2').textContent = 'Leaderboard: ' + (KIND_TITLES[kind] || kind);
  body.replaceChildren(...r.data.players.map((p, i) =>
    row([String(i + 1), playerLink(p.name), p.rating + (p.provisional ? '?' : ''), String(p.games)])));
}

async function showPlayer(name) {
  showView('player');
  $('player-name').textContent = name;
  document.title = name + ' - ttt-server';
  const r = await api('GET', '/api/players/' + encodeURIComponent(name));
  const body = $('player-ratings').tBodies[0];
  if (r.status !== 200) { body.replaceChildren(); showError('player', failure(r), () => showPlayer(name)); return; }
  showError('player', '');
  body.replaceChildren(...Object.entries(r.data.ratings).map(([kind, g]) =>
    row([KIND_TITLES[kind] || kind, g.rating + (g.provisional ? '?' : ''), String(g.games),
         g.wins + '/' + g.losses + '/' + g.draws])));
  $('player-games').replaceChildren(...r.data.recent_games.map((g) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '#' + new URLSearchParams({g: g.game}).toString();
    a.textContent = (KIND_TITLES[g.kind] || g.kind) + ': ' + g.result;
    li.append(a, ' against ', playerLink(g.opponent), ' (' + g.rating_before + ' to ' + g.rating_after + ')');
    return li;
  }));
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

document.addEventListener('DOMContentLoaded', async () => {
  $('login').addEventListener('submit', (e) => { e.preventDefault(); login(false); });
  $('signup-button').addEventListener('click', () => {
    if ($('login').reportValidity()) login(true);
  });
  $('logout').addEventListener('click', logout);
  $('seek-form').addEventListener('submit', postSeek);
  for (const b of $('pairing-buttons').querySelectorAll('button')) {
    b.addEventListener('click', () => pair(b.dataset.game));
  }
  $('pairing-cancel').addEventListener('click', stopPairing);
  setInterval(showClocks, 250);
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
  const r = await api('GET', '/api/sessions/current');
  me = r.status === 200 ? r.data.name : null;
  showWho();
  route();
});
