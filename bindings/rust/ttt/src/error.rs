//! error.rs - Error: one ErrorKind per TTT_E_* status code, its message from ttt_strerror, and the byte offset of a parse failure.
use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_int;

use crate::sys;

/// The result of every fallible call.
pub type Result<T> = std::result::Result<T, Error>;

/// Which `TTT_E_*` status code an [`Error`] carries: one kind per code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `TTT_E_INVALID`: a bad argument (e.g. the random bot without a seed).
    Invalid,
    /// `TTT_E_NOMEM`: an allocation failed, or a table cap was reached.
    NoMem,
    /// `TTT_E_SIZE`: board size or win length out of range.
    Size,
    /// `TTT_E_MARK`: a mark that is neither X nor O (not reachable through
    /// [`Mark`](crate::Mark), kept for codes from raw calls).
    Mark,
    /// `TTT_E_OFF_BOARD`: row or column outside the board.
    OffBoard,
    /// `TTT_E_OCCUPIED`: the cell already holds a mark.
    Occupied,
    /// `TTT_E_WRONG_TURN`: it is the other player's turn.
    WrongTurn,
    /// `TTT_E_GAME_OVER`: the game has ended; undo to reopen it.
    GameOver,
    /// `TTT_E_NO_UNDO`: no move to undo.
    NoUndo,
    /// `TTT_E_NO_REDO`: no undone move to redo.
    NoRedo,
    /// `TTT_E_RULE`: unknown rule or value (not reachable through
    /// [`Rule`](crate::Rule)).
    Rule,
    /// `TTT_E_RULES_LOCKED`: rules change only before the first move.
    RulesLocked,
    /// `TTT_E_PARSE`: a record or cell name is malformed.
    Parse,
    /// `TTT_E_BUFFER`: a buffer was too small (this crate sizes its own).
    Buffer,
    /// `TTT_E_NO_LINE`: the game has no completed line.
    NoLine,
    /// `TTT_E_RANGE`: an index such as a ply is out of range.
    Range,
    /// `TTT_E_STALE`: a [`Game::play_at`](crate::Game::play_at) for another ply.
    Stale,
    /// `TTT_E_BUDGET`: a search ran out of its node budget.
    Budget,
    /// `TTT_E_OVERFLOW`: a count does not fit in 64 bits.
    Overflow,
    /// `TTT_E_IN_LISTENER`: a listener tried to change its own game.
    InListener,
    /// `TTT_E_NAME`: a player name too long or with control characters.
    Name,
    /// `TTT_E_FLOATING`: under gravity, the cell is not the lowest empty
    /// one of its column (since 1.3).
    Floating,
    /// `TTT_E_COLUMN_FULL`: [`Game::drop`](crate::Game::drop) into a full
    /// column (since 1.3).
    ColumnFull,
    /// A code this crate does not know (from a newer library).
    Unknown,
}

impl ErrorKind {
    /// The kind of a status code (`Unknown` for codes not in ttt.h 1.3).
    pub fn from_code(code: i32) -> ErrorKind {
        use ErrorKind::*;
        match code {
            sys::TTT_E_INVALID => Invalid,
            sys::TTT_E_NOMEM => NoMem,
            sys::TTT_E_SIZE => Size,
            sys::TTT_E_MARK => Mark,
            sys::TTT_E_OFF_BOARD => OffBoard,
            sys::TTT_E_OCCUPIED => Occupied,
            sys::TTT_E_WRONG_TURN => WrongTurn,
            sys::TTT_E_GAME_OVER => GameOver,
            sys::TTT_E_NO_UNDO => NoUndo,
            sys::TTT_E_NO_REDO => NoRedo,
            sys::TTT_E_RULE => Rule,
            sys::TTT_E_RULES_LOCKED => RulesLocked,
            sys::TTT_E_PARSE => Parse,
            sys::TTT_E_BUFFER => Buffer,
            sys::TTT_E_NO_LINE => NoLine,
            sys::TTT_E_RANGE => Range,
            sys::TTT_E_STALE => Stale,
            sys::TTT_E_BUDGET => Budget,
            sys::TTT_E_OVERFLOW => Overflow,
            sys::TTT_E_IN_LISTENER => InListener,
            sys::TTT_E_NAME => Name,
            sys::TTT_E_FLOATING => Floating,
            sys::TTT_E_COLUMN_FULL => ColumnFull,
            _ => Unknown,
        }
    }
}

/// A failed call: the library's status code, its kind, its `ttt_strerror`
/// message and, for records and cell names, where parsing stopped.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    code: c_int,
    offset: Option<usize>,
    expected: Option<&'static str>,
}

impl Error {
    /// The error for a negative `TTT_E_*` status code.
    pub fn from_code(code: i32) -> Error {
        Error {
            code,
            offset: None,
            expected: None,
        }
    }

    pub(crate) fn with_offset(code: c_int, offset: usize) -> Error {
        Error {
            code,
            offset: Some(offset),
            expected: None,
        }
    }

    /// A record's error: where, and what the record needed there.
    pub(crate) fn with_expected(code: c_int, offset: usize, expected: &'static str) -> Error {
        Error {
            code,
            offset: Some(offset),
            expected: Some(expected).filter(|e| !e.is_empty()),
        }
    }

    /// The negative `TTT_E_*` code.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// Which code this is.
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::from_code(self.code)
    }

    /// The library's static English message for the code (`ttt_strerror`).
    pub fn message(&self) -> &'static str {
        // SAFETY: ttt_strerror returns a static NUL-terminated string for any int.
        unsafe { CStr::from_ptr(sys::ttt_strerror(self.code)) }
            .to_str()
            .unwrap_or("unknown error")
    }

    /// For [`Game::load`](crate::Game::load) and
    /// [`parse_cell`](crate::parse_cell): the byte offset of the first problem.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// For [`Game::load`](crate::Game::load): what the record needed at
    /// the offset (`ttt_game_load_expected`), such as `" k="` or a cell name.
    pub fn expected(&self) -> Option<&'static str> {
        self.expected
    }
}

/// The `ttt_strerror` message, then the offset and what was expected there,
/// if there are.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.offset, self.expected) {
            (Some(offset), Some(expected)) => {
                write!(f, "{} (at byte {offset}; expected {expected})", self.message())
            }
            (Some(offset), None) => write!(f, "{} (at byte {offset})", self.message()),
            _ => f.write_str(self.message()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Error");
        s.field("kind", &self.kind())
            .field("code", &self.code)
            .field("message", &self.message());
        if let Some(offset) = self.offset {
            s.field("offset", &offset);
        }
        s.finish()
    }
}

impl std::error::Error for Error {}

/// A status as a Result: negative codes are errors.
#[inline]
pub(crate) fn check(status: c_int) -> Result<c_int> {
    if status < 0 {
        Err(Error::from_code(status))
    } else {
        Ok(status)
    }
}
