//! bench.rs - the safe layer's cost: play+undo pairs through ttt::Game against the same C calls made directly through ttt-sys, in one run.
//!
//! cargo run --offline --release -p ttt --example bench [-- --quick]
//!
//! Both sides play for the side to move (ttt_play_next) at the same cells of
//! one 15x15 game with five in a row, then undo. Each round times both sides
//! back to back; the overhead is the median of the rounds' ratios.
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
    let (pairs, rounds) = if quick { (200_000, 10) } else { (1_000_000, 40) };

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
    let mut ratios = Vec::with_capacity(rounds);
    for round in 0..rounds {
        // Each side goes first in half of the rounds; a round's two figures
        // are taken back to back, so their ratio sees the same machine even
        // when other programs slow it down between rounds.
        let (safe, raw) = if round % 2 == 0 {
            let raw = raw_round(game.as_ptr(), &raw_cells, pairs);
            (safe_round(&game, &safe_cells, pairs), raw)
        } else {
            let safe = safe_round(&game, &safe_cells, pairs);
            (safe, raw_round(game.as_ptr(), &raw_cells, pairs))
        };
        safe_best = safe_best.min(safe);
        raw_best = raw_best.min(raw);
        ratios.push(safe / raw);
    }
    assert_eq!(game.ply(), 1);
    ratios.sort_by(|a, b| a.partial_cmp(b).expect("finite timings"));
    let median = ratios[ratios.len() / 2];
    println!("play+undo pairs on {SIZE}x{SIZE}, k=5: {rounds} rounds of {pairs} pairs per side");
    println!("  ttt-sys (raw) : {raw_best:6.1} ns/pair (best round)");
    println!("  ttt (safe)    : {safe_best:6.1} ns/pair (best round)");
    println!(
        "  safe overhead : {:+5.1}% (median of the rounds' safe/raw ratios; goal: at most +10%)",
        (median - 1.0) * 100.0
    );
    Ok(())
}
