//! bench.rs - the safe layer's cost: play+undo pairs through ttt::Game against the same C calls made directly through ttt-sys, in one run.
//!
//! cargo run --offline --release -p ttt --example bench [-- --quick]
//!
//! Both sides play for the side to move (ttt_play_next) at the same cells of
//! one 15x15 game with five in a row, then undo; the rounds alternate so both
//! see the same machine, and the best round of each is reported.
use std::os::raw::c_int;
use std::time::Instant;

use ttt::{sys, Game};

const SIZE: usize = 15;

/// Keeps the optimiser from folding a value away (std::hint::black_box
/// needs Rust 1.66; Debian 12 ships 1.63).
fn black_box<T: Copy>(value: T) -> T {
    // SAFETY: reads a valid, initialised local.
    unsafe { std::ptr::read_volatile(&value) }
}

fn cells() -> Vec<(usize, usize)> {
    // A fixed scatter of cells so the branch predictor sees no single cell.
    (0..SIZE * SIZE).map(|i| (i * 7 % SIZE, i * 11 % SIZE)).collect()
}

fn safe_round(game: &Game, cells: &[(usize, usize)], pairs: usize) -> f64 {
    let start = Instant::now();
    for i in 0..pairs {
        let (row, col) = cells[i % cells.len()];
        black_box(game.play(black_box(row), black_box(col)).unwrap());
        game.undo().unwrap();
    }
    start.elapsed().as_nanos() as f64 / pairs as f64
}

fn raw_round(game: *mut sys::ttt_game, cells: &[(c_int, c_int)], pairs: usize) -> f64 {
    let start = Instant::now();
    for i in 0..pairs {
        let (row, col) = cells[i % cells.len()];
        let mut state = 0;
        // SAFETY: a valid game owned by main; state is a valid out-pointer.
        let played = unsafe { sys::ttt_play_next(game, black_box(row), black_box(col), &mut state) };
        assert_eq!(played, sys::TTT_OK);
        black_box(state);
        // SAFETY: as above.
        assert_eq!(unsafe { sys::ttt_undo(game) }, sys::TTT_OK);
    }
    start.elapsed().as_nanos() as f64 / pairs as f64
}

fn main() -> Result<(), ttt::Error> {
    let quick = std::env::args().any(|a| a == "--quick");
    let (pairs, rounds) = if quick { (500_000, 6) } else { (5_000_000, 10) };

    // One game for both sides, so both touch the same memory.
    let game = Game::new(SIZE, 5)?;
    let safe_cells = cells();
    let raw_cells: Vec<(c_int, c_int)> =
        safe_cells.iter().map(|&(r, c)| (r as c_int, c as c_int)).collect();
    // A move on the board first, so both sides play O's and X's turns alike.
    game.play(7, 7)?;
    let (safe_cells, raw_cells): (Vec<_>, Vec<_>) = (
        safe_cells.into_iter().filter(|&c| c != (7, 7)).collect(),
        raw_cells.into_iter().filter(|&c| c != (7, 7)).collect(),
    );

    let (mut safe_best, mut raw_best) = (f64::INFINITY, f64::INFINITY);
    for round in 0..rounds {
        // Each side goes first in half of the rounds.
        if round % 2 == 0 {
            raw_best = raw_best.min(raw_round(game.as_ptr(), &raw_cells, pairs));
            safe_best = safe_best.min(safe_round(&game, &safe_cells, pairs));
        } else {
            safe_best = safe_best.min(safe_round(&game, &safe_cells, pairs));
            raw_best = raw_best.min(raw_round(game.as_ptr(), &raw_cells, pairs));
        }
    }
    assert_eq!(game.ply(), 1);
    let overhead = (safe_best / raw_best - 1.0) * 100.0;
    println!("play+undo pairs on {SIZE}x{SIZE}, k=5: {pairs} per round, best of {rounds} rounds");
    println!("  ttt-sys (raw) : {raw_best:7.1} ns/pair");
    println!("  ttt (safe)    : {safe_best:7.1} ns/pair");
    println!("  safe overhead : {overhead:+6.1}% (goal: at most +10%)");
    Ok(())
}
