//! lib.rs - safe Rust bindings to libttt: a [`Game`] owns a `ttt_game`, frees it on drop, fails with [`Error`].
//!
//! ```
//! use ttt::{Game, Mark, State};
//!
//! let mut game = Game::new(3, 0)?; // 3 x 3, three in a row
//! for (row, col) in [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1), (1, 0), (1, 2)] {
//!     game.play(row, col)?;
//! }
//! assert_eq!(game.play(2, 0)?, State::Draw);
//! assert_eq!(game.play(2, 0).unwrap_err().kind(), ttt::ErrorKind::GameOver);
//! game.undo()?;
//! assert_eq!(game.to_move(), Some(Mark::X));
//! println!("{game}");
//! # Ok::<(), ttt::Error>(())
//! ```
//!
//! The raw declarations are in [`sys`]; `build.rs` links the static libttt.a
//! from the directory in the `LIBTTT_LIB_DIR` environment variable.

pub mod sys;

// The engine (random player, perft, solver, bots), where ttt.h declares it.
#[cfg(ttt_engine)]
mod engine;
#[cfg(ttt_engine)]
pub use engine::{Bot, Counts, Solution, Value};

use std::any::Any;
use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};

/// The result of every fallible call.
pub type Result<T> = std::result::Result<T, Error>;

/// A player's mark. An empty cell is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    X,
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

    pub fn raw(self) -> c_int {
        match self {
            Mark::X => sys::TTT_X,
            Mark::O => sys::TTT_O,
        }
    }

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
    InProgress,
    XWon,
    OWon,
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

    pub fn winner(self) -> Option<Mark> {
        match self {
            State::XWon => Some(Mark::X),
            State::OWon => Some(Mark::O),
            _ => None,
        }
    }

    pub fn is_over(self) -> bool {
        self != State::InProgress
    }
}

/// An optional rule, set before the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Completing a line loses.
    Misere,
    /// Drawn as soon as no line can be completed.
    EarlyDraw,
}

impl Rule {
    fn raw(self) -> c_int {
        match self {
            Rule::Misere => sys::TTT_RULE_MISERE,
            Rule::EarlyDraw => sys::TTT_RULE_EARLY_DRAW,
        }
    }
}

/// Which `TTT_E_*` code an [`Error`] carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    Invalid,
    NoMem,
    Size,
    Mark,
    OffBoard,
    Occupied,
    WrongTurn,
    GameOver,
    NoUndo,
    NoRedo,
    Rule,
    RulesLocked,
    Parse,
    Buffer,
    NoLine,
    Range,
    Stale,
    Budget,
    Overflow,
    /// A code this crate does not know (from a newer library).
    Other,
}

/// A failed call: the library's status code and its `ttt_strerror` message.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error {
    code: c_int,
    message: &'static str,
    offset: Option<usize>,
}

impl Error {
    /// The error for a `TTT_E_*` status code.
    pub fn from_code(code: c_int) -> Error {
        // SAFETY: ttt_strerror returns a static NUL-terminated string for any int.
        let message = unsafe { CStr::from_ptr(sys::ttt_strerror(code)) };
        Error {
            code,
            message: message.to_str().unwrap_or("unknown error"),
            offset: None,
        }
    }

    /// The negative `TTT_E_*` code.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The library's English message for the code.
    pub fn message(&self) -> &'static str {
        self.message
    }

    /// For [`Game::load`]: the byte offset of the first problem in the record.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    pub fn kind(&self) -> ErrorKind {
        use ErrorKind::*;
        const KINDS: [ErrorKind; 19] = [
            Invalid,
            NoMem,
            Size,
            Mark,
            OffBoard,
            Occupied,
            WrongTurn,
            GameOver,
            NoUndo,
            NoRedo,
            Rule,
            RulesLocked,
            Parse,
            Buffer,
            NoLine,
            Range,
            Stale,
            Budget,
            Overflow,
        ];
        match usize::try_from(-(self.code as i64)) {
            Ok(i) if (1..=KINDS.len()).contains(&i) => KINDS[i - 1],
            _ => Other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{} (at byte {})", self.message, offset),
            None => f.write_str(self.message),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({}, {:?})", self.code, self.message)
    }
}

impl std::error::Error for Error {}

fn check(status: c_int) -> Result<c_int> {
    if status < 0 {
        Err(Error::from_code(status))
    } else {
        Ok(status)
    }
}

/// An index as a C int; values too large for one stay out of range there.
fn to_c(value: usize) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MAX)
}

/// A non-negative C int (a row, a count) as usize.
fn from_c(value: c_int) -> usize {
    usize::try_from(value).unwrap_or(0)
}

/// The version of the linked library, e.g. "1.0.0".
pub fn version() -> &'static str {
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(sys::ttt_version_string()) }
        .to_str()
        .unwrap_or("")
}

/// The name of a cell: (1, 1) is "b2".
pub fn cell_name(row: usize, col: usize) -> Result<String> {
    let mut buf = [0 as c_char; 16];
    let mut len = 0usize;
    // SAFETY: buf holds buf.len() bytes; len is a valid out-pointer.
    check(unsafe {
        sys::ttt_cell_name(to_c(row), to_c(col), buf.as_mut_ptr(), buf.len(), &mut len)
    })?;
    Ok(buf[..len].iter().map(|&c| c as u8 as char).collect())
}

/// Parses a whole cell name: "b2" is (1, 1).
pub fn parse_cell(name: &str) -> Result<(usize, usize)> {
    let (mut row, mut col, mut used) = (0, 0, 0usize);
    // SAFETY: the text is name.len() readable bytes; out-pointers are valid.
    check(unsafe {
        sys::ttt_parse_cell(
            name.as_ptr().cast(),
            name.len(),
            &mut row,
            &mut col,
            &mut used,
        )
    })?;
    if used != name.len() {
        return Err(Error {
            offset: Some(used),
            ..Error::from_code(sys::TTT_E_PARSE)
        });
    }
    Ok((from_c(row), from_c(col)))
}

/// What a listener hears: a move was played, undone or redone, or the game was reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Play {
        mark: Mark,
        row: usize,
        col: usize,
        state: State,
    },
    Undo {
        mark: Mark,
        row: usize,
        col: usize,
    },
    Redo {
        mark: Mark,
        row: usize,
        col: usize,
        state: State,
    },
    Reset,
}

impl Event {
    fn from_raw(e: &sys::ttt_event) -> Option<Event> {
        let mark = Mark::from_raw(e.mark);
        let (row, col) = (from_c(e.row), from_c(e.col));
        let state = State::from_raw(e.state)?;
        Some(match e.kind {
            sys::TTT_EVENT_PLAY => Event::Play {
                mark: mark?,
                row,
                col,
                state,
            },
            sys::TTT_EVENT_UNDO => Event::Undo {
                mark: mark?,
                row,
                col,
            },
            sys::TTT_EVENT_REDO => Event::Redo {
                mark: mark?,
                row,
                col,
                state,
            },
            sys::TTT_EVENT_RESET => Event::Reset,
            _ => return None,
        })
    }
}

/// The boxed closure the C listener's `user` pointer points at.
struct Listener {
    callback: Box<dyn FnMut(Event) + Send>,
    /// A panic caught in the callback, resumed once the C call has returned
    /// (unwinding through C is not allowed).
    panic: Option<Box<dyn Any + Send>>,
}

unsafe extern "C" fn listener_trampoline(user: *mut c_void, event: *const sys::ttt_event) {
    // SAFETY: user is the Listener installed by set_listener, alive as long
    // as the game holds it; event is valid during this call.
    let listener = unsafe { &mut *(user as *mut Listener) };
    let event = match Event::from_raw(unsafe { &*event }) {
        Some(event) if listener.panic.is_none() => event,
        _ => return,
    };
    let callback = &mut listener.callback;
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| callback(event))) {
        listener.panic = Some(payload);
    }
}

/// One game of N x N tic-tac-toe with K in a row. Every method that fails
/// leaves the game unchanged.
pub struct Game {
    raw: NonNull<sys::ttt_game>,
    listener: Option<Box<Listener>>,
}

// SAFETY: a game has no thread affinity; &mut self serialises mutation.
unsafe impl Send for Game {}

impl Game {
    /// A size x size game where win_length in a row wins (0 means size).
    pub fn new(size: usize, win_length: usize) -> Result<Game> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a valid out-pointer.
        check(unsafe { sys::ttt_game_new(to_c(size), to_c(win_length), &mut raw) })?;
        Ok(Game::from_raw(raw))
    }

    fn from_raw(raw: *mut sys::ttt_game) -> Game {
        Game {
            raw: NonNull::new(raw).expect("libttt returned TTT_OK and NULL"),
            listener: None,
        }
    }

    fn ptr(&self) -> *const sys::ttt_game {
        self.raw.as_ptr()
    }

    fn mut_ptr(&mut self) -> *mut sys::ttt_game {
        self.raw.as_ptr()
    }

    /// A game from a saved record; a parse error carries the byte offset.
    pub fn load(record: &str) -> Result<Game> {
        let (mut raw, mut offset) = (ptr::null_mut(), 0usize);
        // SAFETY: record is record.len() readable bytes; out-pointers are valid.
        let status = unsafe {
            sys::ttt_game_load(
                record.as_ptr().cast(),
                record.len(),
                ptr::null(),
                &mut raw,
                &mut offset,
            )
        };
        check(status).map_err(|e| Error {
            offset: Some(offset),
            ..e
        })?;
        Ok(Game::from_raw(raw))
    }

    /// The game's one-line record, ending in a newline.
    pub fn save(&self) -> Result<String> {
        let mut len = 0usize;
        // SAFETY: a NULL buffer with capacity 0 only asks for the length.
        let status = unsafe { sys::ttt_game_save(self.ptr(), ptr::null_mut(), 0, &mut len) };
        if status != sys::TTT_E_BUFFER {
            check(status)?;
        }
        let mut buf = vec![0u8; len + 1];
        // SAFETY: buf holds len + 1 bytes; &self means no move lands in between.
        check(unsafe {
            sys::ttt_game_save(self.ptr(), buf.as_mut_ptr().cast(), buf.len(), &mut len)
        })?;
        buf.truncate(len);
        Ok(String::from_utf8(buf).expect("records are ASCII"))
    }

    /// An independent copy: board, rules, history, redo stack; not the listener.
    pub fn try_clone(&self) -> Result<Game> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a valid out-pointer.
        check(unsafe { sys::ttt_game_clone(self.ptr(), &mut raw) })?;
        Ok(Game::from_raw(raw))
    }

    pub fn set_rule(&mut self, rule: Rule, on: bool) -> Result<()> {
        // SAFETY: a valid game.
        check(unsafe { sys::ttt_game_set_rule(self.mut_ptr(), rule.raw(), c_int::from(on)) })?;
        Ok(())
    }

    pub fn rule(&self, rule: Rule) -> Result<bool> {
        let mut value = 0;
        // SAFETY: value is a valid out-pointer.
        check(unsafe { sys::ttt_game_get_rule(self.ptr(), rule.raw(), &mut value) })?;
        Ok(value != 0)
    }

    /// Plays the side to move at (row, col) and returns the new state.
    pub fn play(&mut self, row: usize, col: usize) -> Result<State> {
        match self.to_move() {
            Some(mark) => self.play_as(mark, row, col),
            None => Err(Error::from_code(sys::TTT_E_GAME_OVER)),
        }
    }

    /// Plays mark at (row, col): `WrongTurn` unless it is mark's move.
    pub fn play_as(&mut self, mark: Mark, row: usize, col: usize) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status =
            unsafe { sys::ttt_play(self.mut_ptr(), mark.raw(), to_c(row), to_c(col), &mut state) };
        self.resume_listener_panic();
        check(status)?;
        Ok(State::from_raw(state).expect("ttt_play returned a known state"))
    }

    /// Plays at a cell name such as "b2".
    pub fn play_name(&mut self, name: &str) -> Result<State> {
        let (row, col) = parse_cell(name)?;
        self.play(row, col)
    }

    pub fn undo(&mut self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_undo(self.mut_ptr()) };
        self.resume_listener_panic();
        check(status).map(drop)
    }

    pub fn redo(&mut self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_redo(self.mut_ptr()) };
        self.resume_listener_panic();
        check(status).map(drop)
    }

    /// Empties the board and history; size, rules and listener stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_game_reset(self.mut_ptr()) };
        self.resume_listener_panic();
        check(status).map(drop)
    }

    pub fn state(&self) -> State {
        // SAFETY: a valid game, so the value is a state.
        State::from_raw(unsafe { sys::ttt_state(self.ptr()) }).expect("a known state")
    }

    /// Whose move it is; `None` once the game is over.
    pub fn to_move(&self) -> Option<Mark> {
        // SAFETY: a valid game.
        Mark::from_raw(unsafe { sys::ttt_to_move(self.ptr()) })
    }

    pub fn size(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_size(self.ptr()) })
    }

    pub fn win_length(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_win_length(self.ptr()) })
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_ply(self.ptr()) })
    }

    /// Undone moves that redo can replay.
    pub fn redo_count(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_redo_count(self.ptr()) })
    }

    pub fn cell(&self, row: usize, col: usize) -> Result<Option<Mark>> {
        let mut mark = 0;
        // SAFETY: mark is a valid out-pointer.
        check(unsafe { sys::ttt_cell(self.ptr(), to_c(row), to_c(col), &mut mark) })?;
        Ok(Mark::from_raw(mark))
    }

    /// The whole board, row-major (`size * size` cells), read in one call.
    pub fn board(&self) -> Vec<Option<Mark>> {
        let n = self.size();
        let mut cells = vec![0i8; n * n];
        let mut len = 0usize;
        // SAFETY: cells holds n * n marks.
        let status =
            unsafe { sys::ttt_board(self.ptr(), cells.as_mut_ptr(), cells.len(), &mut len) };
        assert_eq!(status, sys::TTT_OK, "ttt_board into a board-sized buffer");
        cells
            .iter()
            .map(|&m| Mark::from_raw(c_int::from(m)))
            .collect()
    }

    /// The moves played, first first: (mark, row, col).
    pub fn moves(&self) -> Vec<(Mark, usize, usize)> {
        (0..self.ply())
            .map(|ply| {
                let (mut mark, mut row, mut col) = (0, 0, 0);
                // SAFETY: 0 <= ply < ttt_ply; out-pointers are valid.
                let status = unsafe {
                    sys::ttt_move_at(self.ptr(), to_c(ply), &mut mark, &mut row, &mut col)
                };
                assert_eq!(status, sys::TTT_OK, "ttt_move_at below ttt_ply");
                (
                    Mark::from_raw(mark).expect("a played mark"),
                    from_c(row),
                    from_c(col),
                )
            })
            .collect()
    }

    /// The end cells of the line that decided the game, or `None`.
    pub fn winning_line(&self) -> Option<((usize, usize), (usize, usize))> {
        let (mut r0, mut c0, mut r1, mut c1) = (0, 0, 0, 0);
        // SAFETY: out-pointers are valid.
        let status =
            unsafe { sys::ttt_winning_line(self.ptr(), &mut r0, &mut c0, &mut r1, &mut c1) };
        (status == sys::TTT_OK).then(|| ((from_c(r0), from_c(c0)), (from_c(r1), from_c(c1))))
    }

    /// Calls listener after every applied play, undo, redo and reset. A
    /// panic in it is resumed when the call that caused the event returns.
    pub fn set_listener<F: FnMut(Event) + Send + 'static>(&mut self, listener: F) -> Result<()> {
        let mut boxed = Box::new(Listener {
            callback: Box::new(listener),
            panic: None,
        });
        let user = &mut *boxed as *mut Listener as *mut c_void;
        // SAFETY: the box's address is stable and kept alive in self until
        // the listener is replaced or the game is freed.
        check(unsafe { sys::ttt_set_listener(self.mut_ptr(), Some(listener_trampoline), user) })?;
        self.listener = Some(boxed);
        Ok(())
    }

    pub fn clear_listener(&mut self) -> Result<()> {
        // SAFETY: a valid game; removing the listener needs no user pointer.
        check(unsafe { sys::ttt_set_listener(self.mut_ptr(), None, ptr::null_mut()) })?;
        self.listener = None;
        Ok(())
    }

    fn resume_listener_panic(&mut self) {
        if let Some(payload) = self.listener.as_mut().and_then(|l| l.panic.take()) {
            panic::resume_unwind(payload);
        }
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // SAFETY: the game is ours and used no more; the listener box is
        // dropped after the game that points at it.
        unsafe { sys::ttt_game_free(self.raw.as_ptr()) }
    }
}

/// The board with column letters and row numbers, as in cell names.
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        let letters: Vec<String> = (0..n)
            .map(|c| {
                cell_name(0, c)
                    .map(|s| s.trim_end_matches('1').to_string())
                    .unwrap_or_default()
            })
            .collect();
        let width = letters.iter().map(String::len).max().unwrap_or(1);
        let label = n.to_string().len();
        write!(f, "{:label$} ", "")?;
        for letter in &letters {
            write!(f, " {letter:>width$}")?;
        }
        for (i, cell) in self.board().iter().enumerate() {
            if i % n == 0 {
                write!(f, "\n{:>label$} ", i / n + 1)?;
            }
            let c = cell.map_or(".".to_string(), |m| m.to_string());
            write!(f, " {c:>width$}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("size", &self.size())
            .field("win_length", &self.win_length())
            .field("ply", &self.ply())
            .field("state", &self.state())
            .finish()
    }
}
