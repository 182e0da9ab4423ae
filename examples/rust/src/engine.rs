//! engine.rs - the engine's safe layer: random moves and playouts, perft, the exact solver and the bots.
use std::os::raw::c_int;
use std::ptr;

use crate::{check, from_c, sys, to_c, Game, Result, State};

/// A position's value for the player to move, under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    pub fn from_raw(raw: i32) -> Option<Value> {
        match raw {
            sys::TTT_VALUE_LOSS => Some(Value::Loss),
            sys::TTT_VALUE_DRAW => Some(Value::Draw),
            sys::TTT_VALUE_WIN => Some(Value::Win),
            _ => None,
        }
    }
}

/// What [`Game::solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value, or the lower bound if the search is not complete.
    pub value: Value,
    /// Proven bounds; equal to `value` once it is known.
    pub value_min: Value,
    pub value_max: Value,
    /// Plies to the end under optimal play; `None` if not computed.
    pub plies: Option<usize>,
    /// Every optimal move as (row, col); at most one if not complete.
    pub best: Vec<(usize, usize)>,
    /// Positions searched.
    pub nodes: u64,
    /// False if the node budget ran out: then only the bounds are proven.
    pub complete: bool,
}

/// Games or positions by the state they end in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub in_progress: u64,
    pub x_won: u64,
    pub o_won: u64,
    pub draw: u64,
}

impl Counts {
    fn from_raw(raw: [u64; 4]) -> Counts {
        // Indexed by TTT_IN_PROGRESS, TTT_X_WON, TTT_O_WON, TTT_DRAW.
        Counts {
            in_progress: raw[0],
            x_won: raw[1],
            o_won: raw[2],
            draw: raw[3],
        }
    }

    pub fn total(&self) -> u64 {
        self.in_progress + self.x_won + self.o_won + self.draw
    }
}

/// How [`Game::best_move`] chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// A uniformly random empty cell; needs a seed.
    Random,
    /// Heuristic search within the node budget, for any board.
    Strong,
    /// One of the solver's optimal moves.
    Perfect,
}

impl Bot {
    fn raw(self) -> c_int {
        match self {
            Bot::Random => sys::TTT_BOT_RANDOM,
            Bot::Strong => sys::TTT_BOT_STRONG,
            Bot::Perfect => sys::TTT_BOT_PERFECT,
        }
    }
}

impl Game {
    /// A uniformly random empty cell; `seed` advances. Changes nothing else.
    pub fn random_move(&self, seed: &mut u64) -> Result<(usize, usize)> {
        let (mut row, mut col) = (0, 0);
        // SAFETY: valid out-pointers.
        check(unsafe { sys::ttt_random_move(self.ptr(), seed, &mut row, &mut col) })?;
        Ok((from_c(row), from_c(col)))
    }

    /// Plays random moves to the end of the game and returns its state.
    pub fn random_playout(&mut self, seed: &mut u64) -> Result<State> {
        let mut state = 0;
        // SAFETY: valid out-pointers.
        let status = unsafe { sys::ttt_random_playout(self.mut_ptr(), seed, &mut state) };
        self.resume_listener_panic();
        check(status)?;
        Ok(State::from_raw(state).expect("a known state"))
    }

    /// Plays `games` random games from here, each the one
    /// [`Game::random_playout`] would play on a copy (`seed` carries through),
    /// and counts how they ended. The game is unchanged and its listener is
    /// not called; on an error `seed` is unchanged.
    pub fn random_playouts(&self, seed: &mut u64, games: u64) -> Result<Counts> {
        let mut counts = [0u64; 4];
        // SAFETY: counts holds 4 values.
        check(unsafe { sys::ttt_random_playouts(self.ptr(), seed, games, counts.as_mut_ptr()) })?;
        Ok(Counts::from_raw(counts))
    }

    /// Counts every game from here to its end or `depth` plies, by final
    /// state, and by length (`by_length[i]`: games of i plies).
    /// `table_bytes` caps the memory (0: the library's default).
    pub fn perft(&self, depth: usize, table_bytes: usize) -> Result<(Counts, Vec<u64>)> {
        let mut counts = [0u64; 4];
        let mut by_length = vec![0u64; depth.min(self.size() * self.size()) + 1];
        let mut len = 0usize;
        // SAFETY: counts holds 4 values and by_length its length.
        check(unsafe {
            sys::ttt_perft(
                self.ptr(),
                to_c(depth),
                table_bytes,
                counts.as_mut_ptr(),
                by_length.as_mut_ptr(),
                by_length.len(),
                &mut len,
            )
        })?;
        by_length.truncate(len);
        Ok((Counts::from_raw(counts), by_length))
    }

    /// Counts the distinct positions within `depth` plies, by state.
    pub fn count_positions(&self, depth: usize, table_bytes: usize) -> Result<Counts> {
        let mut counts = [0u64; 4];
        // SAFETY: counts holds 4 values.
        check(unsafe {
            sys::ttt_count_positions(self.ptr(), to_c(depth), table_bytes, counts.as_mut_ptr())
        })?;
        Ok(Counts::from_raw(counts))
    }

    /// Solves the position exactly (`node_budget` 0: no cap). If the budget
    /// runs out the result has `complete == false` and proven bounds only.
    /// `value_only` skips the second pass (no plies; one best move).
    pub fn solve(
        &self,
        node_budget: u64,
        table_bytes: usize,
        value_only: bool,
    ) -> Result<Solution> {
        let mut out = sys::ttt_solution {
            size: std::mem::size_of::<sys::ttt_solution>(),
            ..Default::default()
        };
        let n = self.size();
        let mut best = vec![0i32; n * n];
        let mut len = 0usize;
        let flags = if value_only {
            sys::TTT_SOLVE_VALUE_ONLY
        } else {
            0
        };
        // SAFETY: out has its size set; best holds n * n cells.
        let status = unsafe {
            sys::ttt_solve(
                self.ptr(),
                node_budget,
                table_bytes,
                flags,
                &mut out,
                best.as_mut_ptr(),
                best.len(),
                &mut len,
            )
        };
        if status != sys::TTT_E_BUDGET {
            check(status)?;
        }
        let value = |raw| Value::from_raw(raw).expect("a known value");
        Ok(Solution {
            value: value(out.value),
            value_min: value(out.value_min),
            value_max: value(out.value_max),
            plies: usize::try_from(out.plies).ok(),
            best: best[..len]
                .iter()
                .map(|&cell| (cell as usize / n, cell as usize % n))
                .collect(),
            nodes: out.nodes,
            complete: status == sys::TTT_OK,
        })
    }

    /// The bot's move for the player to move (not played). The seed breaks
    /// ties; `Bot::Random` requires one.
    pub fn best_move(
        &self,
        bot: Bot,
        node_budget: u64,
        seed: Option<&mut u64>,
    ) -> Result<(usize, usize)> {
        let seed = seed.map_or(ptr::null_mut(), |s| s as *mut u64);
        let (mut row, mut col) = (0, 0);
        // SAFETY: seed is NULL or valid; valid out-pointers.
        check(unsafe {
            sys::ttt_best_move(self.ptr(), bot.raw(), node_budget, seed, &mut row, &mut col)
        })?;
        Ok((from_c(row), from_c(col)))
    }
}
