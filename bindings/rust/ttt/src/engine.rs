//! engine.rs - the engine's safe layer: random moves and playouts, perft, position counts, the exact solver and the bots.
use std::os::raw::c_int;
use std::ptr;

use crate::error::{check, Result};
use crate::{from_c, sys, to_c, Game, State};

/// A position's value for the player to move, under perfect play by both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The player to move loses.
    Loss,
    /// Nobody can force a win.
    Draw,
    /// The player to move wins.
    Win,
}

impl Value {
    /// `TTT_VALUE_LOSS`, `TTT_VALUE_DRAW` or `TTT_VALUE_WIN`; else `None`.
    pub fn from_raw(raw: i32) -> Option<Value> {
        match raw {
            sys::TTT_VALUE_LOSS => Some(Value::Loss),
            sys::TTT_VALUE_DRAW => Some(Value::Draw),
            sys::TTT_VALUE_WIN => Some(Value::Win),
            _ => None,
        }
    }

    fn from_library(raw: i32) -> Value {
        Value::from_raw(raw).unwrap_or_else(|| panic!("libttt returned the unknown value {raw}"))
    }
}

/// How the solver proved a value (since 1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The search (or the rules, for a finished game).
    Search,
    /// A pairing strategy for each side: a draw, with no search.
    Pairing,
    /// A VCF (a line of fours, each reply forced): a win, with no game-tree search.
    Threats,
}

impl Method {
    fn from_library(raw: i32) -> Method {
        match raw {
            sys::TTT_METHOD_SEARCH => Method::Search,
            sys::TTT_METHOD_PAIRING => Method::Pairing,
            sys::TTT_METHOD_THREATS => Method::Threats,
            _ => panic!("libttt returned the unknown method {raw}"),
        }
    }
}

/// How [`Game::solve_with`] searches. The default is [`Game::solve`]'s:
/// no node cap, the library's default table size, both passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// The most positions to search; 0 means no cap.
    pub node_budget: u64,
    /// The transposition table's cap in bytes; 0 means the default (64 MiB).
    pub table_bytes: usize,
    /// Find the value only: skips the second pass, so `plies` is `None`
    /// and `best` holds one move that achieves the value.
    pub value_only: bool,
}

/// What the exact solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value for the player to move; the proven lower bound if the
    /// search is not `complete`.
    pub value: Value,
    /// Proven lower bound of the value.
    pub value_min: Value,
    /// Proven upper bound of the value (equal to `value_min` once known).
    pub value_max: Value,
    /// Plies to the end under optimal play (the fastest win, the slowest
    /// loss); `None` if the second pass did not run.
    pub plies: Option<usize>,
    /// Every optimal move as (row, col), in row-major order: for a win those
    /// that win fastest, for a loss those that lose slowest, for a draw those
    /// that keep it. At most one if not `complete` or `value_only`.
    pub best: Vec<(usize, usize)>,
    /// Positions searched.
    pub nodes: u64,
    /// How the value was proven.
    pub method: Method,
    /// False if the node budget ran out: then only the bounds are proven.
    pub complete: bool,
}

/// Games or positions by the state they are in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Still open (after the depth limit).
    pub in_progress: u64,
    /// Won by X.
    pub x_won: u64,
    /// Won by O.
    pub o_won: u64,
    /// Drawn.
    pub draw: u64,
}

impl Counts {
    fn from_raw(raw: [u64; 4]) -> Counts {
        Counts {
            in_progress: raw[sys::TTT_IN_PROGRESS as usize],
            x_won: raw[sys::TTT_X_WON as usize],
            o_won: raw[sys::TTT_O_WON as usize],
            draw: raw[sys::TTT_DRAW as usize],
        }
    }

    /// The count for one state.
    pub fn get(&self, state: State) -> u64 {
        match state {
            State::InProgress => self.in_progress,
            State::XWon => self.x_won,
            State::OWon => self.o_won,
            State::Draw => self.draw,
        }
    }

    /// All four added up.
    pub fn total(&self) -> u64 {
        self.in_progress + self.x_won + self.o_won + self.draw
    }
}

/// What [`Game::perft`] counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Perft {
    /// Games by the state they are in at their end or at the depth limit.
    pub counts: Counts,
    /// `by_length[i]`: games that end after exactly i plies, plus, at
    /// i = depth, those still open.
    pub by_length: Vec<u64>,
}

/// How [`Game::best_move`] chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotLevel {
    /// A uniformly random empty cell; needs a seed.
    Random,
    /// Heuristic search within the node budget, for any board; always takes
    /// a win in one and blocks one.
    Strong,
    /// One of the solver's optimal moves; practical up to about 4x4.
    Perfect,
}

impl BotLevel {
    /// The C value, `TTT_BOT_RANDOM` .. `TTT_BOT_PERFECT`.
    pub fn raw(self) -> c_int {
        match self {
            BotLevel::Random => sys::TTT_BOT_RANDOM,
            BotLevel::Strong => sys::TTT_BOT_STRONG,
            BotLevel::Perfect => sys::TTT_BOT_PERFECT,
        }
    }
}

/// The engine: these read the game and never change it, except
/// [`Game::random_playout`]. Seeds are caller-owned `u64`s of any value that
/// advance on success; the same seed gives the same answer on every platform.
impl Game {
    /// A uniformly random empty cell (not played); `seed` advances.
    /// `GameOver` if the game has ended.
    pub fn random_move(&self, seed: &mut u64) -> Result<(usize, usize)> {
        let (mut row, mut col) = (0, 0);
        // SAFETY: valid out-pointers.
        check(unsafe { sys::ttt_random_move(self.as_ptr(), seed, &mut row, &mut col) })?;
        Ok((from_c(row), from_c(col)))
    }

    /// Plays random moves to the end of the game (the listener hears each)
    /// and returns the final state. `GameOver` if the game had ended.
    pub fn random_playout(&self, seed: &mut u64) -> Result<State> {
        let mut state = 0;
        // SAFETY: valid out-pointers.
        let status = unsafe { sys::ttt_random_playout(self.as_ptr(), seed, &mut state) };
        self.finish_change(status)?;
        Ok(State::from_library(state))
    }

    /// Plays `games` random games from here, each the one
    /// [`Game::random_playout`] would play on a copy (`seed` carries from one
    /// to the next), and counts how they ended. The game is unchanged and its
    /// listener is not called; on an error `seed` is unchanged. The time is
    /// proportional to `games`: the count is the caller's budget.
    pub fn random_playouts(&self, seed: &mut u64, games: u64) -> Result<Counts> {
        let mut counts = [0u64; 4];
        // SAFETY: counts holds the 4 results the library writes.
        check(unsafe {
            sys::ttt_random_playouts(self.as_ptr(), seed, games, counts.as_mut_ptr())
        })?;
        Ok(Counts::from_raw(counts))
    }

    /// Counts every game from here, played to its end or to `depth` plies,
    /// by the state it is in then and by its length. `table_bytes` caps the
    /// position maps (0: 1 GiB), beyond which `NoMem`; `Overflow` if a
    /// count passes 2^64 - 1.
    pub fn perft(&self, depth: usize, table_bytes: usize) -> Result<Perft> {
        let mut counts = [0u64; 4];
        let cells = self.width() * self.height();
        // min(depth, empty cells) + 1 entries; the cell count bounds the
        // empty cells whatever other threads play meanwhile.
        let mut by_length = vec![0u64; depth.min(cells) + 1];
        let mut len = 0usize;
        // SAFETY: counts holds 4 values and by_length its length.
        check(unsafe {
            sys::ttt_perft(
                self.as_ptr(),
                to_c(depth),
                table_bytes,
                counts.as_mut_ptr(),
                by_length.as_mut_ptr(),
                by_length.len(),
                &mut len,
            )
        })?;
        by_length.truncate(len);
        Ok(Perft {
            counts: Counts::from_raw(counts),
            by_length,
        })
    }

    /// Counts the distinct positions reachable in at most `depth` plies,
    /// this one included, by state. Memory and errors as [`Game::perft`].
    pub fn count_positions(&self, depth: usize, table_bytes: usize) -> Result<Counts> {
        let mut counts = [0u64; 4];
        // SAFETY: counts holds 4 values.
        check(unsafe {
            sys::ttt_count_positions(self.as_ptr(), to_c(depth), table_bytes, counts.as_mut_ptr())
        })?;
        Ok(Counts::from_raw(counts))
    }

    /// Solves the position exactly with no node cap: its value, the plies
    /// to the end and every optimal move. Practical up to about 4x4.
    pub fn solve(&self) -> Result<Solution> {
        self.solve_with(&SolveOptions::default())
    }

    /// Solves within `options`. If the node budget runs out the result is
    /// `Ok` with `complete == false` and proven bounds only.
    pub fn solve_with(&self, options: &SolveOptions) -> Result<Solution> {
        let mut out = sys::ttt_solution {
            size: std::mem::size_of::<sys::ttt_solution>(),
            ..Default::default()
        };
        let width = self.width();
        // A capacity of width * height always suffices.
        let mut best = vec![0i32; width * self.height()];
        let mut len = 0usize;
        let flags = if options.value_only {
            sys::TTT_SOLVE_VALUE_ONLY
        } else {
            0
        };
        // SAFETY: out has its size set; best holds best.len() cells.
        let status = unsafe {
            sys::ttt_solve(
                self.as_ptr(),
                options.node_budget,
                options.table_bytes,
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
        let cell = |c: i32| {
            let c = usize::try_from(c).expect("a cell index");
            (c / width, c % width)
        };
        Ok(Solution {
            value: Value::from_library(out.value),
            value_min: Value::from_library(out.value_min),
            value_max: Value::from_library(out.value_max),
            plies: usize::try_from(out.plies).ok(),
            best: best[..len].iter().copied().map(cell).collect(),
            nodes: out.nodes,
            method: Method::from_library(out.method),
            complete: status == sys::TTT_OK,
        })
    }

    /// The bot's move for the player to move (not played). `node_budget` 0
    /// is the level's default (none for `Perfect`, whose budget running out
    /// is `Budget`). The seed breaks ties and advances on success;
    /// `Random` needs one (else `Invalid`). `GameOver` if the game ended.
    pub fn best_move(
        &self,
        level: BotLevel,
        node_budget: u64,
        seed: Option<&mut u64>,
    ) -> Result<(usize, usize)> {
        let seed = seed.map_or(ptr::null_mut(), |s| s as *mut u64);
        let (mut row, mut col) = (0, 0);
        // SAFETY: seed is NULL or valid; valid out-pointers.
        check(unsafe {
            sys::ttt_best_move(self.as_ptr(), level.raw(), node_budget, seed, &mut row, &mut col)
        })?;
        Ok((from_c(row), from_c(col)))
    }
}
