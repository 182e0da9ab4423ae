//! ttt - the safe Rust API of libttt, an embeddable tic-tac-toe (m,n,k) engine written in C.
//!
//! A [`Game`] owns one C game and frees it when dropped; every call that
//! fails returns an [`Error`] and changes nothing. The C library is compiled
//! from source by the `ttt-sys` crate's build script (enable this crate's
//! `system` feature to link an installed libttt through pkg-config instead).
//!
//! ```
//! use ttt::{BotLevel, Game, Mark, State, Value};
//!
//! let game = Game::new(3, 0)?; // 3 x 3, three in a row (0 means the board size)
//! for (row, col) in [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1), (1, 0), (1, 2)] {
//!     game.play(row, col)?;
//! }
//! assert_eq!(game.play(2, 0)?, State::Draw);
//! assert_eq!(game.play(2, 0).unwrap_err().kind(), ttt::ErrorKind::GameOver);
//! game.undo()?;
//! assert_eq!(game.to_move(), Some(Mark::X));
//!
//! // The exact solver and the bots read the game and never change it.
//! let solution = Game::new(3, 0)?.solve()?;
//! assert_eq!((solution.value, solution.plies, solution.best.len()), (Value::Draw, Some(9), 9));
//! assert_eq!(game.best_move(BotLevel::Perfect, 0, None)?, (2, 0));
//! println!("{game}\n{}", game.save()?);
//! # Ok::<(), ttt::Error>(())
//! ```
//!
//! Rows and columns are 0-based from the top-left corner; cells are named as
//! in the C library ("a1" is the top-left cell, "b3" row 2, column 1).
//!
//! Boards may be rectangles, and marks may fall (Connect Four):
//!
//! ```
//! use ttt::{Game, State};
//!
//! let game = Game::new_rect(7, 6, 4)?; // 7 columns, 6 rows, four in a row
//! game.set_gravity(true)?;
//! assert_eq!(game.drop(3)?, (5, State::InProgress)); // column d, bottom row
//! assert_eq!(game.play(0, 0).unwrap_err().kind(), ttt::ErrorKind::Floating);
//! # Ok::<(), ttt::Error>(())
//! ```
//!
//! A `Game` is `Send` and `Sync`: libttt gives every game its own lock, so
//! several threads may play on one game shared through an
//! [`Arc`](std::sync::Arc). The raw declarations are re-exported as [`sys`].
#![warn(missing_docs)]

mod batch;
mod engine;
mod error;
mod game;

pub use batch::{Batch, BatchConfig, StepOutputs};
pub use engine::{BotLevel, Counts, Method, Perft, Solution, SolveOptions, Value};
pub use error::{Error, ErrorKind, Result};
pub use game::{Ending, Event, Game, Move};
/// The raw `extern "C"` declarations (the `ttt-sys` crate).
pub use ttt_sys as sys;

use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_char, c_int};

/// A player's mark. An empty cell is `None` wherever a cell is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The first player (`TTT_X`).
    X,
    /// The second player (`TTT_O`).
    O,
}

impl Mark {
    /// `TTT_X` or `TTT_O`; anything else (`TTT_EMPTY`) is `None`.
    pub fn from_raw(raw: c_int) -> Option<Mark> {
        match raw {
            sys::TTT_X => Some(Mark::X),
            sys::TTT_O => Some(Mark::O),
            _ => None,
        }
    }

    /// The C value: `TTT_X` or `TTT_O`.
    #[inline]
    pub fn raw(self) -> c_int {
        match self {
            Mark::X => sys::TTT_X,
            Mark::O => sys::TTT_O,
        }
    }

    /// The opponent's mark.
    pub fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::X => "X",
            Mark::O => "O",
        })
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// The game goes on.
    InProgress,
    /// X won (in misère: O completed a line).
    XWon,
    /// O won (in misère: X completed a line).
    OWon,
    /// Nobody can win any more.
    Draw,
}

impl State {
    /// `TTT_IN_PROGRESS` .. `TTT_DRAW`; anything else is `None`.
    pub fn from_raw(raw: c_int) -> Option<State> {
        match raw {
            sys::TTT_IN_PROGRESS => Some(State::InProgress),
            sys::TTT_X_WON => Some(State::XWon),
            sys::TTT_O_WON => Some(State::OWon),
            sys::TTT_DRAW => Some(State::Draw),
            _ => None,
        }
    }

    /// The C value, `TTT_IN_PROGRESS` .. `TTT_DRAW`.
    pub fn raw(self) -> c_int {
        match self {
            State::InProgress => sys::TTT_IN_PROGRESS,
            State::XWon => sys::TTT_X_WON,
            State::OWon => sys::TTT_O_WON,
            State::Draw => sys::TTT_DRAW,
        }
    }

    /// The winner's mark, if the game was won.
    pub fn winner(self) -> Option<Mark> {
        match self {
            State::XWon => Some(Mark::X),
            State::OWon => Some(Mark::O),
            _ => None,
        }
    }

    /// True once the game was won or drawn.
    pub fn is_over(self) -> bool {
        self != State::InProgress
    }

    /// The state from an int the library returned: always one of the four.
    #[inline]
    fn from_library(raw: c_int) -> State {
        State::from_raw(raw).unwrap_or_else(|| panic!("libttt returned the unknown state {raw}"))
    }
}

/// An optional rule, set before the first move with [`Game::set_rule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Misère: completing a line loses.
    Misere,
    /// Early draw: drawn as soon as no line can be completed by anyone.
    EarlyDraw,
}

impl Rule {
    /// The C value, `TTT_RULE_MISERE` or `TTT_RULE_EARLY_DRAW`.
    pub fn raw(self) -> c_int {
        match self {
            Rule::Misere => sys::TTT_RULE_MISERE,
            Rule::EarlyDraw => sys::TTT_RULE_EARLY_DRAW,
        }
    }
}

/// An index as a C int; values too large for one stay out of range there
/// (the library then answers `OffBoard` or `Range`).
#[inline]
pub(crate) fn to_c(value: usize) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MAX)
}

/// A C int the library promises is not negative (a row, a count) as usize.
#[inline]
pub(crate) fn from_c(value: c_int) -> usize {
    usize::try_from(value).unwrap_or_else(|_| panic!("libttt returned {value} for a count"))
}

/// The version of the linked C library, e.g. "1.5.0".
pub fn version() -> &'static str {
    // SAFETY: ttt_version_string returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sys::ttt_version_string()) }
        .to_str()
        .unwrap_or("")
}

/// The version of the linked C library as a number, `MAJOR * 10000 +
/// MINOR * 100 + PATCH` (10500 for 1.5.0); compare with
/// [`sys::TTT_VERSION_NUMBER`] to catch a header/library mismatch.
pub fn version_number() -> i32 {
    // SAFETY: no arguments, no state.
    unsafe { sys::ttt_version() }
}

/// The name of a cell: (1, 1) is "b2", (0, 26) is "aa1". `OffBoard` past
/// the largest board.
pub fn cell_name(row: usize, col: usize) -> Result<String> {
    // Two letters and four digits cover TTT_MAX_SIZE; 16 leaves room.
    let mut buf = [0 as c_char; 16];
    let mut len = 0usize;
    // SAFETY: buf holds buf.len() bytes; len is a valid out-pointer.
    error::check(unsafe {
        sys::ttt_cell_name(to_c(row), to_c(col), buf.as_mut_ptr(), buf.len(), &mut len)
    })?;
    Ok(buf[..len].iter().map(|&c| c as u8 as char).collect())
}

/// Parses a whole cell name, either case: "b2" is (1, 1). `Parse` (with
/// the offset of the first byte not read) if anything else is in `name`.
pub fn parse_cell(name: &str) -> Result<(usize, usize)> {
    let (mut row, mut col, mut used) = (0, 0, 0usize);
    // SAFETY: the text is name.len() readable bytes; out-pointers are valid.
    let status = unsafe {
        sys::ttt_parse_cell(name.as_ptr().cast(), name.len(), &mut row, &mut col, &mut used)
    };
    error::check(status)?;
    if used != name.len() {
        return Err(Error::with_offset(sys::TTT_E_PARSE, used));
    }
    Ok((from_c(row), from_c(col)))
}
