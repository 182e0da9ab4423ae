//! ttt-sys - raw `extern "C"` declarations of libttt's public header, `ttt.h` (which documents every function).
//!
//! The build script compiles the bundled C sources into a static library
//! and links it; with the `system` feature (or `TTT_SYS_USE_PKG_CONFIG=1`)
//! it links an installed libttt found by pkg-config instead. Dependants that
//! compile C against the header find its directory in `DEP_TTT_INCLUDE`.
//!
//! Everything here is `unsafe` to call and follows the C conventions: an
//! `int` status (`TTT_OK` or a negative `TTT_E_*`), results through
//! out-pointers. The safe API is the `ttt` crate.
//!
//! ```
//! use std::ptr;
//! let mut game = ptr::null_mut();
//! // SAFETY: a valid out-pointer; the game is freed below and not used after.
//! unsafe {
//!     assert_eq!(ttt_sys::ttt_game_new(3, 0, &mut game), ttt_sys::TTT_OK);
//!     let mut state = -1;
//!     assert_eq!(ttt_sys::ttt_play_next(game, 1, 1, &mut state), ttt_sys::TTT_OK);
//!     assert_eq!(state, ttt_sys::TTT_IN_PROGRESS);
//!     assert_eq!(ttt_sys::ttt_to_move(game), ttt_sys::TTT_O);
//!     ttt_sys::ttt_game_free(game);
//! }
//! ```
#![allow(non_camel_case_types)]
#![warn(missing_docs)]

use std::os::raw::{c_char, c_int, c_void};

// ---------------------------------------------------------------- version

/// Major version of the header these declarations follow.
pub const TTT_VERSION_MAJOR: c_int = 1;
/// Minor version of the header these declarations follow.
pub const TTT_VERSION_MINOR: c_int = 5;
/// Patch version of the header these declarations follow.
pub const TTT_VERSION_PATCH: c_int = 0;
/// `MAJOR * 10000 + MINOR * 100 + PATCH`; compare with `ttt_version()`.
pub const TTT_VERSION_NUMBER: c_int =
    TTT_VERSION_MAJOR * 10000 + TTT_VERSION_MINOR * 100 + TTT_VERSION_PATCH;

// -------------------------------------------------------------- constants

/// An empty cell.
pub const TTT_EMPTY: c_int = 0;
/// The first player's mark.
pub const TTT_X: c_int = 1;
/// The second player's mark.
pub const TTT_O: c_int = -1;

/// The game goes on.
pub const TTT_IN_PROGRESS: c_int = 0;
/// X completed a line (in misère: O did).
pub const TTT_X_WON: c_int = 1;
/// O completed a line (in misère: X did).
pub const TTT_O_WON: c_int = 2;
/// Nobody can win any more.
pub const TTT_DRAW: c_int = 3;

/// Success.
pub const TTT_OK: c_int = 0;
/// NULL game or pointer, or a bad argument.
pub const TTT_E_INVALID: c_int = -1;
/// An allocation failed.
pub const TTT_E_NOMEM: c_int = -2;
/// Board size or win length out of range.
pub const TTT_E_SIZE: c_int = -3;
/// Mark is neither `TTT_X` nor `TTT_O`.
pub const TTT_E_MARK: c_int = -4;
/// Row or column outside the board.
pub const TTT_E_OFF_BOARD: c_int = -5;
/// The cell already holds a mark.
pub const TTT_E_OCCUPIED: c_int = -6;
/// It is the other player's turn.
pub const TTT_E_WRONG_TURN: c_int = -7;
/// The game has ended; undo to reopen it.
pub const TTT_E_GAME_OVER: c_int = -8;
/// No move to undo.
pub const TTT_E_NO_UNDO: c_int = -9;
/// No undone move to redo.
pub const TTT_E_NO_REDO: c_int = -10;
/// Unknown rule, or a value it does not take.
pub const TTT_E_RULE: c_int = -11;
/// Rules change only before the first move.
pub const TTT_E_RULES_LOCKED: c_int = -12;
/// A saved record or cell name is malformed.
pub const TTT_E_PARSE: c_int = -13;
/// The caller's buffer is too small.
pub const TTT_E_BUFFER: c_int = -14;
/// The game has no completed line.
pub const TTT_E_NO_LINE: c_int = -15;
/// An index (such as a ply) is out of range.
pub const TTT_E_RANGE: c_int = -16;
/// The request was made for another ply.
pub const TTT_E_STALE: c_int = -17;
/// A search ran out of its node budget.
pub const TTT_E_BUDGET: c_int = -18;
/// A count does not fit in 64 bits.
pub const TTT_E_OVERFLOW: c_int = -19;
/// A listener tried to change its own game (since 1.2).
pub const TTT_E_IN_LISTENER: c_int = -20;
/// A player name is too long, not UTF-8 or has control characters (since 1.2).
pub const TTT_E_NAME: c_int = -21;
/// Gravity: the cell is not the lowest empty one of its column (since 1.3).
pub const TTT_E_FLOATING: c_int = -22;
/// Gravity: the column has no empty cell (since 1.3).
pub const TTT_E_COLUMN_FULL: c_int = -23;

/// Smallest board side.
pub const TTT_MIN_SIZE: c_int = 3;
/// Largest board side.
pub const TTT_MAX_SIZE: c_int = 1024;

/// Rule: completing a line loses. Value 0 or 1.
pub const TTT_RULE_MISERE: c_int = 1;
/// Rule: drawn as soon as no line can be completed. Value 0 or 1.
pub const TTT_RULE_EARLY_DRAW: c_int = 2;
/// Rule: drawn after this many moves without a result; 0 for none (since 1.2).
pub const TTT_RULE_PLY_LIMIT: c_int = 3;
/// Rule: a mark drops to the lowest empty cell of its column. Value 0 or 1
/// (since 1.3).
pub const TTT_RULE_GRAVITY: c_int = 4;

/// The longest player name in bytes, without a NUL (since 1.2).
pub const TTT_NAME_MAX: c_int = 64;

/// `ttt_ending`: the game is in progress.
pub const TTT_END_NONE: c_int = 0;
/// `ttt_ending`: a completed line.
pub const TTT_END_LINE: c_int = 1;
/// `ttt_ending`: a full board without a line.
pub const TTT_END_FULL_BOARD: c_int = 2;
/// `ttt_ending`: early draw, no line can be completed.
pub const TTT_END_NO_LINE: c_int = 3;
/// `ttt_ending`: a side resigned.
pub const TTT_END_RESIGN: c_int = 4;
/// `ttt_ending`: a draw by agreement.
pub const TTT_END_AGREED: c_int = 5;
/// `ttt_ending`: drawn at the ply limit.
pub const TTT_END_PLY_LIMIT: c_int = 6;

/// Event kind: a move was played.
pub const TTT_EVENT_PLAY: i32 = 1;
/// Event kind: a move was undone.
pub const TTT_EVENT_UNDO: i32 = 2;
/// Event kind: an undone move was replayed.
pub const TTT_EVENT_REDO: i32 = 3;
/// Event kind: the game was reset.
pub const TTT_EVENT_RESET: i32 = 4;
/// Event kind: a side resigned; `mark` is that side (since 1.2).
pub const TTT_EVENT_RESIGN: i32 = 5;
/// Event kind: a draw was agreed (since 1.2).
pub const TTT_EVENT_DRAW_AGREED: i32 = 6;
/// Event kind: a resignation or agreement was undone (since 1.2).
pub const TTT_EVENT_UNDO_ENDING: i32 = 7;
/// Event kind: an undone resignation or agreement was redone (since 1.2).
pub const TTT_EVENT_REDO_ENDING: i32 = 8;

/// Game value for the player to move: a loss.
pub const TTT_VALUE_LOSS: i32 = -1;
/// Game value for the player to move: a draw.
pub const TTT_VALUE_DRAW: i32 = 0;
/// Game value for the player to move: a win.
pub const TTT_VALUE_WIN: i32 = 1;

/// `ttt_solution.method`: found by the search (since 1.3).
pub const TTT_METHOD_SEARCH: i32 = 0;
/// `ttt_solution.method`: a draw proven by a pairing strategy for each side (since 1.3).
pub const TTT_METHOD_PAIRING: i32 = 1;
/// `ttt_solution.method`: a win proven by a VCF, a line of fours (since 1.3).
pub const TTT_METHOD_THREATS: i32 = 2;

/// `ttt_solve` flag: find the value only (no plies, one best move).
pub const TTT_SOLVE_VALUE_ONLY: c_int = 1;

/// `ttt_best_move` level: a uniformly random empty cell.
pub const TTT_BOT_RANDOM: c_int = 0;
/// `ttt_best_move` level: heuristic search within a node budget.
pub const TTT_BOT_STRONG: c_int = 1;
/// `ttt_best_move` level: an optimal move of `ttt_solve`.
pub const TTT_BOT_PERFECT: c_int = 2;

/// `ttt_batch_config.opponent`: the caller plays both sides (since 1.4).
pub const TTT_BATCH_SELF_PLAY: i32 = -1;
/// `ttt_batch_config.illegal`: an illegal action changes nothing (since 1.4).
pub const TTT_BATCH_ILLEGAL_REJECT: i32 = 0;
/// `ttt_batch_config.illegal`: an illegal action loses the game (since 1.4).
pub const TTT_BATCH_ILLEGAL_LOSE: i32 = 1;

// ------------------------------------------------------------------ types

/// The opaque game (`struct ttt_game`): only ever behind a pointer.
pub enum ttt_game {}

/// The opaque batch of games (`struct ttt_batch`, since 1.4).
pub enum ttt_batch {}

/// A batch's shape and rules (`struct ttt_batch_config`, since 1.4): set
/// `size` to `size_of::<ttt_batch_config>()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ttt_batch_config {
    /// The struct's size in bytes, set by the caller.
    pub size: usize,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// K; 0 means min(width, height).
    pub win_length: i32,
    /// `TTT_RULE_MISERE`'s value.
    pub misere: i32,
    /// `TTT_RULE_EARLY_DRAW`'s value.
    pub early_draw: i32,
    /// `TTT_RULE_GRAVITY`'s value.
    pub gravity: i32,
    /// `TTT_RULE_PLY_LIMIT`'s value.
    pub ply_limit: i32,
    /// `TTT_BATCH_SELF_PLAY` or a `TTT_BOT_*` level.
    pub opponent: i32,
    /// With an opponent: `TTT_X`, `TTT_O` or 0 (alternate).
    pub agent: i32,
    /// `TTT_BATCH_ILLEGAL_*`.
    pub illegal: i32,
    /// The opponent's `ttt_best_move` node budget.
    pub opponent_budget: u64,
}

/// Where `ttt_batch_step` writes (`struct ttt_batch_outputs`, since 1.4):
/// arrays of the batch's count, any of them null.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ttt_batch_outputs {
    /// The struct's size in bytes, set by the caller.
    pub size: usize,
    /// +1, -1 or 0 for the side that acted.
    pub rewards: *mut f32,
    /// 1 if the game ended by its rules.
    pub terminated: *mut u8,
    /// 1 if it was drawn by the ply limit alone.
    pub truncated: *mut u8,
    /// `TTT_OK` or the illegal action's code.
    pub status: *mut i32,
    /// The state the game ended in, or `TTT_IN_PROGRESS`.
    pub outcome: *mut i32,
}

/// A caller-supplied allocator (`struct ttt_allocator`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ttt_allocator {
    /// Returns memory aligned for any object type, or NULL.
    pub alloc: Option<unsafe extern "C" fn(user: *mut c_void, size: usize) -> *mut c_void>,
    /// Releases what `alloc` returned.
    pub dealloc: Option<unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void)>,
    /// Passed to both unchanged.
    pub user: *mut c_void,
}

/// What changed (`struct ttt_event`); written only by the library, new
/// fields are only ever added at the end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ttt_event {
    /// `TTT_EVENT_*`.
    pub kind: i32,
    /// The mark placed (PLAY, REDO) or removed (UNDO); 0 for RESET.
    pub mark: i32,
    /// The cell's row, or -1 for RESET.
    pub row: i32,
    /// The cell's column, or -1 for RESET.
    pub col: i32,
    /// Moves on the board after the event.
    pub ply: i32,
    /// The game state after the event.
    pub state: i32,
}

/// The listener's type: called after each applied change.
pub type ttt_listener = Option<unsafe extern "C" fn(user: *mut c_void, event: *const ttt_event)>;

/// The result of `ttt_solve` (`struct ttt_solution`): set `size` to
/// `size_of::<ttt_solution>()` before the call.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ttt_solution {
    /// The struct's size in bytes, set by the caller.
    pub size: usize,
    /// `TTT_VALUE_*` for the player to move.
    pub value: i32,
    /// Plies to the end under optimal play, or -1.
    pub plies: i32,
    /// Positions searched.
    pub nodes: u64,
    /// Proven lower bound of the value.
    pub value_min: i32,
    /// Proven upper bound of the value.
    pub value_max: i32,
    /// How the value was proven: `TTT_METHOD_*` (since 1.3).
    pub method: i32,
    /// Always 0: names the bytes C would pad the struct with (since 1.4).
    pub reserved: i32,
}

// -------------------------------------------------------------- functions

extern "C" {
    /// The linked library's version as `TTT_VERSION_NUMBER` would compute it.
    pub fn ttt_version() -> c_int;
    /// The linked library's version as a static string, e.g. "1.5.0".
    pub fn ttt_version_string() -> *const c_char;
    /// A static English message for any status, never NULL.
    pub fn ttt_strerror(status: c_int) -> *const c_char;

    /// Creates a game (one malloc) into `*out`.
    pub fn ttt_game_new(size: c_int, win_length: c_int, out: *mut *mut ttt_game) -> c_int;
    /// As `ttt_game_new` with the caller's allocator (NULL: malloc).
    pub fn ttt_game_new_with(
        size: c_int,
        win_length: c_int,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_game,
    ) -> c_int;
    /// The bytes `ttt_game_init` needs, or 0 for an out-of-range size.
    pub fn ttt_game_footprint(size: c_int, win_length: c_int) -> usize;
    /// Builds a game inside caller memory (aligned like malloc's result).
    pub fn ttt_game_init(
        mem: *mut c_void,
        mem_size: usize,
        size: c_int,
        win_length: c_int,
        out: *mut *mut ttt_game,
    ) -> c_int;
    /// Creates a `width` x `height` game (one malloc) into `*out`; win_length
    /// 0 means the shorter side (since 1.3).
    pub fn ttt_game_new_rect(
        width: c_int,
        height: c_int,
        win_length: c_int,
        out: *mut *mut ttt_game,
    ) -> c_int;
    /// As `ttt_game_new_rect` with the caller's allocator (NULL: malloc).
    pub fn ttt_game_new_rect_with(
        width: c_int,
        height: c_int,
        win_length: c_int,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_game,
    ) -> c_int;
    /// The bytes `ttt_game_init_rect` needs, or 0 for a geometry out of range.
    pub fn ttt_game_footprint_rect(width: c_int, height: c_int, win_length: c_int) -> usize;
    /// Builds a `width` x `height` game inside caller memory.
    pub fn ttt_game_init_rect(
        mem: *mut c_void,
        mem_size: usize,
        width: c_int,
        height: c_int,
        win_length: c_int,
        out: *mut *mut ttt_game,
    ) -> c_int;
    /// Releases a game; NULL is a no-op. Must not race with other calls.
    pub fn ttt_game_free(game: *mut ttt_game);
    /// An independent copy (not the listener), allocated like the original.
    pub fn ttt_game_clone(game: *const ttt_game, out: *mut *mut ttt_game) -> c_int;
    /// Empties the board, history and redo stack.
    pub fn ttt_game_reset(game: *mut ttt_game) -> c_int;

    /// Sets a rule, only while the history is empty.
    pub fn ttt_game_set_rule(game: *mut ttt_game, rule: c_int, value: c_int) -> c_int;
    /// Reads a rule's value.
    pub fn ttt_game_get_rule(game: *const ttt_game, rule: c_int, value: *mut c_int) -> c_int;

    /// Places `mark` at (row, col); `*state` (may be NULL) gets the new state.
    pub fn ttt_play(
        game: *mut ttt_game,
        mark: c_int,
        row: c_int,
        col: c_int,
        state: *mut c_int,
    ) -> c_int;
    /// `ttt_play` for the side to move, in one call and one lock (since 1.2).
    pub fn ttt_play_next(game: *mut ttt_game, row: c_int, col: c_int, state: *mut c_int)
        -> c_int;
    /// `ttt_play` at the ply the caller believes current; retries succeed.
    pub fn ttt_play_at(
        game: *mut ttt_game,
        ply: c_int,
        mark: c_int,
        row: c_int,
        col: c_int,
        state: *mut c_int,
    ) -> c_int;
    /// Drops a mark for the side to move into column `col`: it lands on the
    /// lowest empty cell, `*row` (may be NULL) gets its row (since 1.3).
    pub fn ttt_drop(game: *mut ttt_game, col: c_int, row: *mut c_int, state: *mut c_int)
        -> c_int;
    /// Takes back the last move.
    pub fn ttt_undo(game: *mut ttt_game) -> c_int;
    /// Replays the most recently undone move (or ending).
    pub fn ttt_redo(game: *mut ttt_game) -> c_int;

    /// Names side `mark` with `len` bytes of UTF-8 (len 0 removes the name).
    pub fn ttt_game_set_name(
        game: *mut ttt_game,
        mark: c_int,
        name: *const c_char,
        len: usize,
    ) -> c_int;
    /// Copies the name of side `mark`, NUL-terminated, into `buf`.
    pub fn ttt_game_get_name(
        game: *const ttt_game,
        mark: c_int,
        buf: *mut c_char,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;
    /// Side `mark` resigns: the other side wins.
    pub fn ttt_resign(game: *mut ttt_game, mark: c_int, state: *mut c_int) -> c_int;
    /// Both sides agree to a draw.
    pub fn ttt_agree_draw(game: *mut ttt_game, state: *mut c_int) -> c_int;
    /// How the game ended: a `TTT_END_*` value.
    pub fn ttt_ending(game: *const ttt_game) -> c_int;

    /// `TTT_IN_PROGRESS` .. `TTT_DRAW`.
    pub fn ttt_state(game: *const ttt_game) -> c_int;
    /// The board side N; `TTT_E_SIZE` for a rectangle.
    pub fn ttt_size(game: *const ttt_game) -> c_int;
    /// The number of columns (since 1.3).
    pub fn ttt_width(game: *const ttt_game) -> c_int;
    /// The number of rows (since 1.3).
    pub fn ttt_height(game: *const ttt_game) -> c_int;
    /// The win length K.
    pub fn ttt_win_length(game: *const ttt_game) -> c_int;
    /// Moves played so far.
    pub fn ttt_ply(game: *const ttt_game) -> c_int;
    /// Moves `ttt_redo` can replay.
    pub fn ttt_redo_count(game: *const ttt_game) -> c_int;
    /// `TTT_X` or `TTT_O`; `TTT_EMPTY` once the game is over.
    pub fn ttt_to_move(game: *const ttt_game) -> c_int;
    /// The mark at (row, col).
    pub fn ttt_cell(game: *const ttt_game, row: c_int, col: c_int, mark: *mut c_int) -> c_int;
    /// The move played at `ply` (0 is the first); out-pointers may be NULL.
    pub fn ttt_move_at(
        game: *const ttt_game,
        ply: c_int,
        mark: *mut c_int,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;
    /// The end cells of the line that ended the game.
    pub fn ttt_winning_line(
        game: *const ttt_game,
        row0: *mut c_int,
        col0: *mut c_int,
        row1: *mut c_int,
        col1: *mut c_int,
    ) -> c_int;
    /// Copies the board, row-major, one `int8_t` mark per cell.
    pub fn ttt_board(
        game: *const ttt_game,
        cells: *mut i8,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;

    /// The cells (row * width + col) where the side to move may play (since 1.2).
    pub fn ttt_legal_moves(
        game: *const ttt_game,
        cells: *mut i32,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;

    /// Installs `listener` (None removes it); `user` is passed back unchanged.
    pub fn ttt_set_listener(
        game: *mut ttt_game,
        listener: ttt_listener,
        user: *mut c_void,
    ) -> c_int;

    /// Writes a cell's name ("b2") NUL-terminated into `buf`.
    pub fn ttt_cell_name(
        row: c_int,
        col: c_int,
        buf: *mut c_char,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;
    /// Parses a cell name at the start of `text`.
    pub fn ttt_parse_cell(
        text: *const c_char,
        len: usize,
        row: *mut c_int,
        col: *mut c_int,
        used: *mut usize,
    ) -> c_int;
    /// Writes the game's one-line record, NUL-terminated.
    pub fn ttt_game_save(
        game: *const ttt_game,
        buf: *mut c_char,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;
    /// Parses a record of exactly `len` bytes into a new game.
    pub fn ttt_game_load(
        text: *const c_char,
        len: usize,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_game,
        error_offset: *mut usize,
    ) -> c_int;
    /// What `ttt_game_load` wanted where it refused `text`: a static
    /// NUL-terminated phrase, empty when the text loads (since 1.5).
    pub fn ttt_game_load_expected(text: *const c_char, len: usize) -> *const c_char;

    /// A uniformly random empty cell; `*seed` advances.
    pub fn ttt_random_move(
        game: *const ttt_game,
        seed: *mut u64,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;
    /// Plays random moves until the game ends.
    pub fn ttt_random_playout(game: *mut ttt_game, seed: *mut u64, state: *mut c_int) -> c_int;
    /// Plays `games` random games on copies and counts their results.
    pub fn ttt_random_playouts(
        game: *const ttt_game,
        seed: *mut u64,
        games: u64,
        results: *mut u64,
    ) -> c_int;
    /// Counts every game to its end or `depth` plies.
    pub fn ttt_perft(
        game: *const ttt_game,
        depth: c_int,
        table_bytes: usize,
        counts: *mut u64,
        by_length: *mut u64,
        by_length_capacity: usize,
        by_length_len: *mut usize,
    ) -> c_int;
    /// Counts the distinct positions within `depth` plies.
    pub fn ttt_count_positions(
        game: *const ttt_game,
        depth: c_int,
        table_bytes: usize,
        counts: *mut u64,
    ) -> c_int;
    /// Solves the position exactly: value, plies and every optimal move.
    pub fn ttt_solve(
        game: *const ttt_game,
        node_budget: u64,
        table_bytes: usize,
        flags: c_int,
        out: *mut ttt_solution,
        best: *mut i32,
        best_capacity: usize,
        best_len: *mut usize,
    ) -> c_int;
    /// The bot's move for the player to move.
    pub fn ttt_best_move(
        game: *const ttt_game,
        level: c_int,
        node_budget: u64,
        seed: *mut u64,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;

    /// Bytes a batch of `count` games needs for `ttt_batch_init` (since 1.4).
    pub fn ttt_batch_footprint(config: *const ttt_batch_config, count: usize) -> usize;
    /// A batch of `count` games in one allocation (since 1.4).
    pub fn ttt_batch_new(
        config: *const ttt_batch_config,
        count: usize,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_batch,
    ) -> c_int;
    /// A batch in caller memory (since 1.4).
    pub fn ttt_batch_init(
        mem: *mut c_void,
        mem_size: usize,
        config: *const ttt_batch_config,
        count: usize,
        out: *mut *mut ttt_batch,
    ) -> c_int;
    /// Releases a batch; null is a no-op (since 1.4).
    pub fn ttt_batch_free(batch: *mut ttt_batch);
    /// The number of games (since 1.4).
    pub fn ttt_batch_count(batch: *const ttt_batch) -> usize;
    /// The number of actions (since 1.4).
    pub fn ttt_batch_action_count(batch: *const ttt_batch) -> c_int;
    /// Seeds every game's opponent (since 1.4).
    pub fn ttt_batch_seed(batch: *mut ttt_batch, seed: u64) -> c_int;
    /// Resets every game (since 1.4).
    pub fn ttt_batch_reset(batch: *mut ttt_batch) -> c_int;
    /// Sets one game to the position after a move list (since 1.4).
    pub fn ttt_batch_set_moves(
        batch: *mut ttt_batch,
        index: usize,
        moves: *const i32,
        len: usize,
    ) -> c_int;
    /// Plays one action in every game (since 1.4).
    pub fn ttt_batch_step(
        batch: *mut ttt_batch,
        actions: *const i32,
        outputs: *const ttt_batch_outputs,
    ) -> c_int;
    /// As `ttt_batch_step`, also writing each ending game's last position
    /// and skipping flagged games (since 1.5).
    pub fn ttt_batch_step_final(
        batch: *mut ttt_batch,
        actions: *const i32,
        skip: *const u8,
        outputs: *const ttt_batch_outputs,
        last: *mut u8,
        capacity: usize,
    ) -> c_int;
    /// Writes the observation planes as bytes (since 1.4).
    pub fn ttt_batch_observe_u8(batch: *const ttt_batch, planes: *mut u8, capacity: usize) -> c_int;
    /// Writes the observation planes as floats (since 1.4).
    pub fn ttt_batch_observe_f32(batch: *const ttt_batch, planes: *mut f32, capacity: usize) -> c_int;
    /// Writes the legal-action masks (since 1.4).
    pub fn ttt_batch_legal_mask(batch: *const ttt_batch, mask: *mut u8, capacity: usize) -> c_int;
    /// One game of the batch, for reading (since 1.4).
    pub fn ttt_batch_game(batch: *const ttt_batch, index: usize, out: *mut *const ttt_game) -> c_int;
}
