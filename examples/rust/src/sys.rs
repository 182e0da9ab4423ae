//! sys.rs - hand-written `extern "C"` declarations of include/ttt.h (the header documents each function).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// The opaque game (`struct ttt_game`): only ever behind a pointer.
pub enum ttt_game {}

#[repr(C)]
pub struct ttt_allocator {
    pub alloc: Option<unsafe extern "C" fn(user: *mut c_void, size: usize) -> *mut c_void>,
    pub dealloc: Option<unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void)>,
    pub user: *mut c_void,
}

/// Written only by the library; new fields are only ever added at the end.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ttt_event {
    pub kind: i32,
    pub mark: i32,
    pub row: i32,
    pub col: i32,
    pub ply: i32,
    pub state: i32,
}

/// The result of ttt_solve: set size to `size_of::<ttt_solution>()` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ttt_solution {
    pub size: usize,
    pub value: i32,
    pub plies: i32,
    pub nodes: u64,
    pub value_min: i32,
    pub value_max: i32,
}

pub type ttt_listener = Option<unsafe extern "C" fn(user: *mut c_void, event: *const ttt_event)>;

pub const TTT_VERSION_MAJOR: c_int = 1;
pub const TTT_VERSION_MINOR: c_int = 1;
pub const TTT_VERSION_PATCH: c_int = 0;

pub const TTT_EMPTY: c_int = 0;
pub const TTT_X: c_int = 1;
pub const TTT_O: c_int = -1;

pub const TTT_IN_PROGRESS: c_int = 0;
pub const TTT_X_WON: c_int = 1;
pub const TTT_O_WON: c_int = 2;
pub const TTT_DRAW: c_int = 3;

pub const TTT_OK: c_int = 0;
pub const TTT_E_INVALID: c_int = -1;
pub const TTT_E_NOMEM: c_int = -2;
pub const TTT_E_SIZE: c_int = -3;
pub const TTT_E_MARK: c_int = -4;
pub const TTT_E_OFF_BOARD: c_int = -5;
pub const TTT_E_OCCUPIED: c_int = -6;
pub const TTT_E_WRONG_TURN: c_int = -7;
pub const TTT_E_GAME_OVER: c_int = -8;
pub const TTT_E_NO_UNDO: c_int = -9;
pub const TTT_E_NO_REDO: c_int = -10;
pub const TTT_E_RULE: c_int = -11;
pub const TTT_E_RULES_LOCKED: c_int = -12;
pub const TTT_E_PARSE: c_int = -13;
pub const TTT_E_BUFFER: c_int = -14;
pub const TTT_E_NO_LINE: c_int = -15;
pub const TTT_E_RANGE: c_int = -16;
pub const TTT_E_STALE: c_int = -17;
pub const TTT_E_BUDGET: c_int = -18;
pub const TTT_E_OVERFLOW: c_int = -19;

pub const TTT_MIN_SIZE: c_int = 3;
pub const TTT_MAX_SIZE: c_int = 1024;

pub const TTT_RULE_MISERE: c_int = 1;
pub const TTT_RULE_EARLY_DRAW: c_int = 2;

pub const TTT_VALUE_LOSS: i32 = -1;
pub const TTT_VALUE_DRAW: i32 = 0;
pub const TTT_VALUE_WIN: i32 = 1;

pub const TTT_SOLVE_VALUE_ONLY: c_int = 1;

pub const TTT_BOT_RANDOM: c_int = 0;
pub const TTT_BOT_STRONG: c_int = 1;
pub const TTT_BOT_PERFECT: c_int = 2;

pub const TTT_EVENT_PLAY: i32 = 1;
pub const TTT_EVENT_UNDO: i32 = 2;
pub const TTT_EVENT_REDO: i32 = 3;
pub const TTT_EVENT_RESET: i32 = 4;

extern "C" {
    pub fn ttt_version() -> c_int;
    pub fn ttt_version_string() -> *const c_char;
    pub fn ttt_strerror(status: c_int) -> *const c_char;

    pub fn ttt_game_new(size: c_int, win_length: c_int, out: *mut *mut ttt_game) -> c_int;
    pub fn ttt_game_new_with(
        size: c_int,
        win_length: c_int,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_game,
    ) -> c_int;
    pub fn ttt_game_footprint(size: c_int, win_length: c_int) -> usize;
    pub fn ttt_game_init(
        mem: *mut c_void,
        mem_size: usize,
        size: c_int,
        win_length: c_int,
        out: *mut *mut ttt_game,
    ) -> c_int;
    pub fn ttt_game_free(game: *mut ttt_game);
    pub fn ttt_game_clone(game: *const ttt_game, out: *mut *mut ttt_game) -> c_int;
    pub fn ttt_game_reset(game: *mut ttt_game) -> c_int;

    pub fn ttt_game_set_rule(game: *mut ttt_game, rule: c_int, value: c_int) -> c_int;
    pub fn ttt_game_get_rule(game: *const ttt_game, rule: c_int, value: *mut c_int) -> c_int;

    pub fn ttt_play(
        game: *mut ttt_game,
        mark: c_int,
        row: c_int,
        col: c_int,
        state: *mut c_int,
    ) -> c_int;
    pub fn ttt_play_at(
        game: *mut ttt_game,
        ply: c_int,
        mark: c_int,
        row: c_int,
        col: c_int,
        state: *mut c_int,
    ) -> c_int;
    pub fn ttt_undo(game: *mut ttt_game) -> c_int;
    pub fn ttt_redo(game: *mut ttt_game) -> c_int;

    pub fn ttt_state(game: *const ttt_game) -> c_int;
    pub fn ttt_size(game: *const ttt_game) -> c_int;
    pub fn ttt_win_length(game: *const ttt_game) -> c_int;
    pub fn ttt_ply(game: *const ttt_game) -> c_int;
    pub fn ttt_redo_count(game: *const ttt_game) -> c_int;
    pub fn ttt_to_move(game: *const ttt_game) -> c_int;
    pub fn ttt_cell(game: *const ttt_game, row: c_int, col: c_int, mark: *mut c_int) -> c_int;
    pub fn ttt_move_at(
        game: *const ttt_game,
        ply: c_int,
        mark: *mut c_int,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;
    pub fn ttt_winning_line(
        game: *const ttt_game,
        row0: *mut c_int,
        col0: *mut c_int,
        row1: *mut c_int,
        col1: *mut c_int,
    ) -> c_int;
    pub fn ttt_board(
        game: *const ttt_game,
        cells: *mut i8,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;

    pub fn ttt_set_listener(
        game: *mut ttt_game,
        listener: ttt_listener,
        user: *mut c_void,
    ) -> c_int;

    pub fn ttt_cell_name(
        row: c_int,
        col: c_int,
        buf: *mut c_char,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;
    pub fn ttt_parse_cell(
        text: *const c_char,
        len: usize,
        row: *mut c_int,
        col: *mut c_int,
        used: *mut usize,
    ) -> c_int;
    pub fn ttt_game_save(
        game: *const ttt_game,
        buf: *mut c_char,
        capacity: usize,
        len: *mut usize,
    ) -> c_int;
    pub fn ttt_game_load(
        text: *const c_char,
        len: usize,
        alloc: *const ttt_allocator,
        out: *mut *mut ttt_game,
        error_offset: *mut usize,
    ) -> c_int;

    pub fn ttt_random_move(
        game: *const ttt_game,
        seed: *mut u64,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;
    pub fn ttt_random_playout(game: *mut ttt_game, seed: *mut u64, state: *mut c_int) -> c_int;
    pub fn ttt_random_playouts(
        game: *const ttt_game,
        seed: *mut u64,
        games: u64,
        results: *mut u64,
    ) -> c_int;
    pub fn ttt_perft(
        game: *const ttt_game,
        depth: c_int,
        table_bytes: usize,
        counts: *mut u64,
        by_length: *mut u64,
        by_length_capacity: usize,
        by_length_len: *mut usize,
    ) -> c_int;
    pub fn ttt_count_positions(
        game: *const ttt_game,
        depth: c_int,
        table_bytes: usize,
        counts: *mut u64,
    ) -> c_int;
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
    pub fn ttt_best_move(
        game: *const ttt_game,
        level: c_int,
        node_budget: u64,
        seed: *mut u64,
        row: *mut c_int,
        col: *mut c_int,
    ) -> c_int;
}
