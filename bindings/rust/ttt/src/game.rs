//! game.rs - Game: owns one ttt_game (Drop, Clone, Send, Sync), plays, reads, saves and loads it, and runs a listener closure.
use std::any::Any;
use std::cell::RefCell;
use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_int, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};

use crate::error::{check, Error, Result};
use crate::{cell_name, from_c, parse_cell, sys, to_c, Mark, Rule, State};

/// One move of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Who played it.
    pub mark: Mark,
    /// Its row, from 0 at the top.
    pub row: usize,
    /// Its column, from 0 at the left.
    pub col: usize,
}

/// What a listener hears: one applied change. Rejected calls are silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move was played; `ply` counts the moves now on the board.
    Play {
        /// The mark placed.
        mark: Mark,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// Moves on the board after it.
        ply: usize,
        /// The state after it.
        state: State,
    },
    /// The last move was taken back.
    Undo {
        /// The mark removed.
        mark: Mark,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// Moves on the board after it.
        ply: usize,
    },
    /// An undone move was replayed.
    Redo {
        /// The mark placed again.
        mark: Mark,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// Moves on the board after it.
        ply: usize,
        /// The state after it.
        state: State,
    },
    /// The board and history were emptied.
    Reset,
    /// A side resigned; the other side won.
    Resign {
        /// The side that resigned.
        mark: Mark,
        /// Moves on the board.
        ply: usize,
        /// The state after it.
        state: State,
    },
    /// Both sides agreed to a draw.
    DrawAgreed {
        /// Moves on the board.
        ply: usize,
    },
    /// A resignation or agreed draw was taken back; the game is open again.
    UndoEnding {
        /// Who had resigned, or `None` for an agreed draw.
        resigned: Option<Mark>,
        /// Moves on the board.
        ply: usize,
    },
    /// An undone resignation or agreed draw was applied again.
    RedoEnding {
        /// Who resigned, or `None` for an agreed draw.
        resigned: Option<Mark>,
        /// Moves on the board.
        ply: usize,
        /// The state after it.
        state: State,
    },
}

/// How a finished game ended ([`Game::ending`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A completed line (in misère, the loser's).
    Line,
    /// Every cell filled without a line.
    FullBoard,
    /// Early draw: no line can be completed any more.
    NoLine,
    /// A side resigned: [`Game::state`] names the winner.
    Resign,
    /// A draw by agreement.
    Agreed,
    /// Drawn at the ply limit.
    PlyLimit,
}

impl Event {
    fn from_raw(e: &sys::ttt_event) -> Option<Event> {
        let mark = Mark::from_raw(e.mark);
        let (row, col) = (usize::try_from(e.row).ok(), usize::try_from(e.col).ok());
        let ply = usize::try_from(e.ply).ok()?;
        let state = State::from_raw(e.state)?;
        Some(match e.kind {
            sys::TTT_EVENT_PLAY => Event::Play {
                mark: mark?,
                row: row?,
                col: col?,
                ply,
                state,
            },
            sys::TTT_EVENT_UNDO => Event::Undo {
                mark: mark?,
                row: row?,
                col: col?,
                ply,
            },
            sys::TTT_EVENT_REDO => Event::Redo {
                mark: mark?,
                row: row?,
                col: col?,
                ply,
                state,
            },
            sys::TTT_EVENT_RESET => Event::Reset,
            sys::TTT_EVENT_RESIGN => Event::Resign { mark: mark?, ply, state },
            sys::TTT_EVENT_DRAW_AGREED => Event::DrawAgreed { ply },
            sys::TTT_EVENT_UNDO_ENDING => Event::UndoEnding { resigned: mark, ply },
            sys::TTT_EVENT_REDO_ENDING => Event::RedoEnding { resigned: mark, ply, state },
            // A kind from a newer library: not something this crate can name.
            _ => return None,
        })
    }
}

/// The closure the C listener's `user` pointer points at (boxed once more
/// so that pointer is thin).
struct Listener {
    callback: Box<dyn Fn(&Event) + Send + Sync>,
}

thread_local! {
    /// A panic caught in a listener, resumed by the safe call that caused
    /// the event once the C call has returned (unwinding through C is not
    /// allowed). The library calls the listener on the thread that made the
    /// change, so a thread-local slot hands it to exactly that call.
    static LISTENER_PANIC: RefCell<Option<Box<dyn Any + Send>>> = const { RefCell::new(None) };
}

extern "C" fn listener_trampoline(user: *mut c_void, event: *const sys::ttt_event) {
    // SAFETY: user is the Listener that set_listener installed; the Game
    // owns it and drops it only after the C side has forgotten it (listener
    // removal and Drop take &mut Game, so no call is running). event is
    // valid during this call.
    let listener = unsafe { &*(user as *const Listener) };
    let event = match Event::from_raw(unsafe { &*event }) {
        Some(event) => event,
        None => return,
    };
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| (listener.callback)(&event))) {
        LISTENER_PANIC.with(|slot| {
            slot.borrow_mut().get_or_insert(payload);
        });
    }
}

/// One game of N x N tic-tac-toe with K in a row, or (since 1.3) of a
/// W x H m,n,k game, with or without gravity.
///
/// Every method that fails returns an [`Error`] and leaves the game
/// unchanged. Methods that change the game take `&self`: the C library
/// applies each change whole under the game's own lock, so a `Game` shared
/// between threads (through an [`Arc`](std::sync::Arc)) stays a legal game.
/// Only installing or removing the listener and dropping need `&mut self`.
pub struct Game {
    raw: NonNull<sys::ttt_game>,
    /// Dropped after the C game (field order does not matter: Drop frees the
    /// game first, then the fields go).
    listener: Option<Box<Listener>>,
}

// SAFETY: libttt gives every game its own lock (TTT_THREADS, which ttt-sys
// always defines; the `system` feature needs a library built with the meson
// option threads=true, its default): "every function may be called on the
// same game from any number of threads at once", each change is applied
// whole, and readers never see half of one. The one call that must not race,
// ttt_game_free, is made only by Drop, which has &mut self. The game has no
// thread affinity. The listener closure is Send + Sync because the library
// calls it on whichever thread made the change, possibly on several at once.
unsafe impl Send for Game {}
// SAFETY: see Send: shared access is what the per-game lock is for.
unsafe impl Sync for Game {}

impl Game {
    /// A size x size game where win_length in a row wins (0 means size),
    /// under classic rules: X moves first. `Size` if out of range
    /// (3 <= win_length <= size <= 1024).
    pub fn new(size: usize, win_length: usize) -> Result<Game> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a valid out-pointer.
        check(unsafe { sys::ttt_game_new(to_c(size), to_c(win_length), &mut raw) })?;
        Ok(Game::from_raw(raw))
    }

    /// A game `width` columns wide and `height` rows high where
    /// `win_length` in a row wins (0 means the shorter side); a line shorter
    /// than `win_length` never wins. `Size` if out of range (3 <= width,
    /// height <= 1024, 3 <= win_length <= the longer side). A square made
    /// here is the same game as [`Game::new`]'s.
    pub fn new_rect(width: usize, height: usize, win_length: usize) -> Result<Game> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a valid out-pointer.
        check(unsafe {
            sys::ttt_game_new_rect(to_c(width), to_c(height), to_c(win_length), &mut raw)
        })?;
        Ok(Game::from_raw(raw))
    }

    fn from_raw(raw: *mut sys::ttt_game) -> Game {
        Game {
            raw: NonNull::new(raw).expect("libttt returned TTT_OK and a NULL game"),
            listener: None,
        }
    }

    /// The C game, for calls into [`sys`](crate::sys). It stays valid while
    /// this `Game` lives; do not free it or install a listener through it.
    pub fn as_ptr(&self) -> *mut sys::ttt_game {
        self.raw.as_ptr()
    }

    /// After a call that may have run the listener: resumes its panic here.
    #[inline]
    fn after_change(&self, status: c_int) -> Result<c_int> {
        if self.listener.is_some() {
            if let Some(payload) = LISTENER_PANIC.with(|slot| slot.borrow_mut().take()) {
                panic::resume_unwind(payload);
            }
        }
        check(status)
    }

    /// A game from a saved record (`ttt/1 n=3 k=3 rules=classic moves=b2,a1`).
    /// A failure carries the byte offset of the first problem in
    /// [`Error::offset`], and what the record needed there in
    /// [`Error::expected`]: `Parse` for malformed text, `Size`, or the move's
    /// own error (`Occupied`, `OffBoard`, `GameOver`). A record with no
    /// final newline, with CR LF line ends or blank lines after it loads.
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
        if status < 0 {
            // SAFETY: as above; the phrase is a static NUL-terminated string.
            let expected = unsafe {
                CStr::from_ptr(sys::ttt_game_load_expected(record.as_ptr().cast(), record.len()))
            };
            return Err(Error::with_expected(status, offset, expected.to_str().unwrap_or("")));
        }
        Ok(Game::from_raw(raw))
    }

    /// The game's canonical one-line record, ending in a newline; undone
    /// moves are not saved. [`Game::load`] gives the game back.
    pub fn save(&self) -> Result<String> {
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let mut len = 0usize;
            // SAFETY: buf holds buf.len() bytes (a NULL-free empty Vec has a
            // dangling pointer, which is fine with capacity 0).
            let status = unsafe {
                sys::ttt_game_save(
                    self.as_ptr(),
                    buf.as_mut_ptr().cast(),
                    buf.len(),
                    &mut len,
                )
            };
            if status == sys::TTT_E_BUFFER {
                // Another thread may add moves between the two calls: retry
                // with the size the library asked for.
                buf.resize(len + 1, 0);
                continue;
            }
            check(status)?;
            buf.truncate(len);
            return Ok(String::from_utf8(buf).expect("records are ASCII"));
        }
    }

    /// An independent copy: board, rules, history and redo stack, but not
    /// the listener. `NoMem` if the allocation fails ([`Clone`] panics then).
    pub fn try_clone(&self) -> Result<Game> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a valid out-pointer.
        check(unsafe { sys::ttt_game_clone(self.as_ptr(), &mut raw) })?;
        Ok(Game::from_raw(raw))
    }

    /// Turns a rule on or off; only before the first move (a new or reset
    /// game), else `RulesLocked`.
    pub fn set_rule(&self, rule: Rule, on: bool) -> Result<()> {
        // SAFETY: a valid game.
        check(unsafe { sys::ttt_game_set_rule(self.as_ptr(), rule.raw(), c_int::from(on)) })?;
        Ok(())
    }

    /// Turns gravity on or off (Connect Four's rule): a mark may only go
    /// to the lowest empty cell of its column, row `height - 1` being the
    /// bottom. Only before the first move, else `RulesLocked`.
    pub fn set_gravity(&self, on: bool) -> Result<()> {
        // SAFETY: a valid game.
        check(unsafe {
            sys::ttt_game_set_rule(self.as_ptr(), sys::TTT_RULE_GRAVITY, c_int::from(on))
        })?;
        Ok(())
    }

    /// Whether gravity is on.
    pub fn gravity(&self) -> bool {
        let mut value = 0;
        // SAFETY: value is a valid out-pointer.
        let status =
            unsafe { sys::ttt_game_get_rule(self.as_ptr(), sys::TTT_RULE_GRAVITY, &mut value) };
        assert_eq!(status, sys::TTT_OK, "libttt knows gravity");
        value != 0
    }

    /// Whether a rule is on.
    pub fn rule(&self, rule: Rule) -> bool {
        let mut value = 0;
        // SAFETY: value is a valid out-pointer.
        let status = unsafe { sys::ttt_game_get_rule(self.as_ptr(), rule.raw(), &mut value) };
        assert_eq!(status, sys::TTT_OK, "libttt knows every Rule");
        value != 0
    }

    /// Plays for the side to move at (row, col) and returns the new state
    /// (one C call, `ttt_play_next`). `GameOver`, `OffBoard` or `Occupied`;
    /// under gravity `Floating` for a cell above its column's lowest empty
    /// one.
    #[inline]
    pub fn play(&self, row: usize, col: usize) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status = unsafe { sys::ttt_play_next(self.as_ptr(), to_c(row), to_c(col), &mut state) };
        self.after_change(status)?;
        Ok(State::from_library(state))
    }

    /// Drops a mark for the side to move into column `col`, with gravity or
    /// without: it lands on the lowest empty cell of that column. Returns
    /// the row it landed in and the new state. `GameOver`, `OffBoard` for a
    /// column outside the board, `ColumnFull` for a full one.
    pub fn drop(&self, col: usize) -> Result<(usize, State)> {
        let (mut row, mut state) = (0, 0);
        // SAFETY: a valid game; row and state are valid out-pointers.
        let status = unsafe { sys::ttt_drop(self.as_ptr(), to_c(col), &mut row, &mut state) };
        self.after_change(status)?;
        Ok((from_c(row), State::from_library(state)))
    }

    /// Plays `mark` at (row, col): `WrongTurn` unless it is mark's move,
    /// then the errors of [`Game::play`].
    #[inline]
    pub fn play_as(&self, mark: Mark, row: usize, col: usize) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status =
            unsafe { sys::ttt_play(self.as_ptr(), mark.raw(), to_c(row), to_c(col), &mut state) };
        self.after_change(status)?;
        Ok(State::from_library(state))
    }

    /// Plays `mark` at (row, col) if the game is at `ply` (the number of
    /// moves the caller believes were played): for clients that may retry.
    /// If exactly this move was already played at that ply it returns the
    /// current state and changes nothing; any other ply or move is `Stale`.
    pub fn play_at(&self, ply: usize, mark: Mark, row: usize, col: usize) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status = unsafe {
            sys::ttt_play_at(self.as_ptr(), to_c(ply), mark.raw(), to_c(row), to_c(col), &mut state)
        };
        self.after_change(status)?;
        Ok(State::from_library(state))
    }

    /// Plays for the side to move at a cell name such as "b2".
    pub fn play_name(&self, name: &str) -> Result<State> {
        let (row, col) = parse_cell(name)?;
        self.play(row, col)
    }

    /// Takes back the last move, also after a win or a draw (which reopens
    /// the game); it goes on the redo stack. `NoUndo` on an empty history.
    #[inline]
    pub fn undo(&self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_undo(self.as_ptr()) };
        self.after_change(status).map(drop)
    }

    /// Replays the most recently undone move. `NoRedo` if there is none (a
    /// new move empties the redo stack).
    pub fn redo(&self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_redo(self.as_ptr()) };
        self.after_change(status).map(drop)
    }

    /// Empties the board, history and redo stack; size, win length, rules
    /// and listener stay.
    pub fn reset(&self) -> Result<()> {
        // SAFETY: a valid game.
        let status = unsafe { sys::ttt_game_reset(self.as_ptr()) };
        self.after_change(status).map(drop)
    }

    /// The ply limit: the game is drawn after this many moves without a
    /// result; 0 for none. Only before the first move, else `RulesLocked`;
    /// `Rule` beyond size * size (which is the same as none).
    pub fn set_ply_limit(&self, plies: usize) -> Result<()> {
        // SAFETY: a valid game.
        check(unsafe {
            sys::ttt_game_set_rule(self.as_ptr(), sys::TTT_RULE_PLY_LIMIT, to_c(plies))
        })?;
        Ok(())
    }

    /// The ply limit, 0 for none.
    pub fn ply_limit(&self) -> usize {
        let mut value = 0;
        // SAFETY: value is a valid out-pointer.
        let status =
            unsafe { sys::ttt_game_get_rule(self.as_ptr(), sys::TTT_RULE_PLY_LIMIT, &mut value) };
        assert_eq!(status, sys::TTT_OK, "libttt knows the ply limit");
        from_c(value)
    }

    /// Names side `mark` (at most 64 bytes of UTF-8, no control
    /// characters, else `Name`); an empty name removes it. Names are kept
    /// by clones, resets and saved records.
    pub fn set_name(&self, mark: Mark, name: &str) -> Result<()> {
        // SAFETY: name is name.len() readable bytes.
        check(unsafe {
            sys::ttt_game_set_name(self.as_ptr(), mark.raw(), name.as_ptr().cast(), name.len())
        })?;
        Ok(())
    }

    /// The name of side `mark`, empty if it has none.
    pub fn name(&self, mark: Mark) -> String {
        let mut buf = [0u8; sys::TTT_NAME_MAX as usize + 1];
        let mut len = 0usize;
        // SAFETY: buf holds buf.len() bytes; len is a valid out-pointer.
        let status = unsafe {
            sys::ttt_game_get_name(
                self.as_ptr(),
                mark.raw(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut len,
            )
        };
        assert_eq!(status, sys::TTT_OK, "a name always fits TTT_NAME_MAX + 1 bytes");
        String::from_utf8(buf[..len].to_vec()).expect("libttt keeps only UTF-8 names")
    }

    /// Side `mark` resigns, whoever is to move: the other side wins.
    /// `GameOver` if the game has ended. Not a move: [`Game::undo`] takes
    /// the resignation back alone.
    pub fn resign(&self, mark: Mark) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status = unsafe { sys::ttt_resign(self.as_ptr(), mark.raw(), &mut state) };
        self.after_change(status)?;
        Ok(State::from_library(state))
    }

    /// Both sides agree to a draw. `GameOver` if the game has ended.
    pub fn agree_draw(&self) -> Result<State> {
        let mut state = 0;
        // SAFETY: a valid game; state is a valid out-pointer.
        let status = unsafe { sys::ttt_agree_draw(self.as_ptr(), &mut state) };
        self.after_change(status)?;
        Ok(State::from_library(state))
    }

    /// The cells where the side to move may play, as (row, col) in
    /// row-major order (under gravity, the landing cell of each column that
    /// is not full); empty once the game is over. One moment's list, even
    /// while other threads play.
    pub fn legal_moves(&self) -> Vec<(usize, usize)> {
        let n = self.width();
        let mut cells = vec![0i32; n * self.height()];
        let mut len = 0usize;
        // SAFETY: cells holds cells.len() ints, which always suffices.
        let status = unsafe {
            sys::ttt_legal_moves(self.as_ptr(), cells.as_mut_ptr(), cells.len(), &mut len)
        };
        assert_eq!(status, sys::TTT_OK, "width * height cells always suffice");
        cells[..len]
            .iter()
            .map(|&cell| (from_c(cell) / n, from_c(cell) % n))
            .collect()
    }

    /// How the game ended, or `None` while it is in progress.
    pub fn ending(&self) -> Option<Ending> {
        // SAFETY: a valid game.
        match unsafe { sys::ttt_ending(self.as_ptr()) } {
            sys::TTT_END_LINE => Some(Ending::Line),
            sys::TTT_END_FULL_BOARD => Some(Ending::FullBoard),
            sys::TTT_END_NO_LINE => Some(Ending::NoLine),
            sys::TTT_END_RESIGN => Some(Ending::Resign),
            sys::TTT_END_AGREED => Some(Ending::Agreed),
            sys::TTT_END_PLY_LIMIT => Some(Ending::PlyLimit),
            _ => None,
        }
    }

    /// Where the game stands.
    pub fn state(&self) -> State {
        // SAFETY: a valid game.
        State::from_library(unsafe { sys::ttt_state(self.as_ptr()) })
    }

    /// Whose move it is; `None` once the game is over.
    pub fn to_move(&self) -> Option<Mark> {
        // SAFETY: a valid game.
        Mark::from_raw(unsafe { sys::ttt_to_move(self.as_ptr()) })
    }

    /// The board side N of a square board.
    ///
    /// # Panics
    ///
    /// On a rectangle, which has no single side: read [`Game::width`] and
    /// [`Game::height`] (they serve squares too).
    pub fn size(&self) -> usize {
        // SAFETY: a valid game.
        let size = unsafe { sys::ttt_size(self.as_ptr()) };
        assert!(size >= 0, "ttt::Game::size on a {}x{} rectangle", self.width(), self.height());
        from_c(size)
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_width(self.as_ptr()) })
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_height(self.as_ptr()) })
    }

    /// The number in a row that wins, K.
    pub fn win_length(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_win_length(self.as_ptr()) })
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_ply(self.as_ptr()) })
    }

    /// Undone moves that [`Game::redo`] can replay.
    pub fn redo_count(&self) -> usize {
        // SAFETY: a valid game.
        from_c(unsafe { sys::ttt_redo_count(self.as_ptr()) })
    }

    /// The mark at (row, col), `None` if empty; `OffBoard` off the board.
    pub fn cell(&self, row: usize, col: usize) -> Result<Option<Mark>> {
        let mut mark = 0;
        // SAFETY: mark is a valid out-pointer.
        check(unsafe { sys::ttt_cell(self.as_ptr(), to_c(row), to_c(col), &mut mark) })?;
        Ok(Mark::from_raw(mark))
    }

    /// The whole board, row-major (`width * height` cells), read in one
    /// call (so it is one position even while other threads play).
    pub fn board(&self) -> Vec<Option<Mark>> {
        let mut cells = vec![0i8; self.width() * self.height()];
        let mut len = 0usize;
        // SAFETY: cells holds width * height marks, the board's size.
        let status =
            unsafe { sys::ttt_board(self.as_ptr(), cells.as_mut_ptr(), cells.len(), &mut len) };
        assert_eq!(status, sys::TTT_OK, "ttt_board into a board-sized buffer");
        cells.iter().map(|&m| Mark::from_raw(c_int::from(m))).collect()
    }

    /// The move played at `ply` (0 is the first); `Range` unless
    /// `ply < self.ply()`.
    pub fn move_at(&self, ply: usize) -> Result<Move> {
        let (mut mark, mut row, mut col) = (0, 0, 0);
        // SAFETY: valid out-pointers.
        check(unsafe {
            sys::ttt_move_at(self.as_ptr(), to_c(ply), &mut mark, &mut row, &mut col)
        })?;
        Ok(Move {
            mark: Mark::from_raw(mark).expect("a played mark"),
            row: from_c(row),
            col: from_c(col),
        })
    }

    /// The moves played, first first. Read from one copy of the game, so
    /// it is one history even while other threads play.
    pub fn moves(&self) -> Result<Vec<Move>> {
        let snapshot = self.try_clone()?;
        (0..snapshot.ply()).map(|ply| snapshot.move_at(ply)).collect()
    }

    /// The end cells of the line that decided the game (in misère, the
    /// losing line), or `None` if it was not won.
    pub fn winning_line(&self) -> Option<((usize, usize), (usize, usize))> {
        let (mut r0, mut c0, mut r1, mut c1) = (0, 0, 0, 0);
        // SAFETY: out-pointers are valid.
        let status =
            unsafe { sys::ttt_winning_line(self.as_ptr(), &mut r0, &mut c0, &mut r1, &mut c1) };
        (status == sys::TTT_OK).then(|| ((from_c(r0), from_c(c0)), (from_c(r1), from_c(c1))))
    }

    /// Calls `listener` after every applied play, undo, redo and reset (never
    /// for a rejected call), on the thread that made the change; it replaces
    /// any listener installed before. The game owns the closure: it is
    /// dropped when it is replaced, removed or the game is dropped, and it is
    /// never called after that. A panic in it is resumed by the call that
    /// caused the event, after the change. It may read the game but must not
    /// change it.
    pub fn set_listener<F>(&mut self, listener: F) -> Result<()>
    where
        F: Fn(&Event) + Send + Sync + 'static,
    {
        let boxed = Box::new(Listener {
            callback: Box::new(listener),
        });
        let user = &*boxed as *const Listener as *mut c_void;
        // SAFETY: the box's address is stable and it is kept in self until
        // the C side is told to forget it. &mut self: no other call on this
        // game is running, so the old listener is not running either and
        // can be dropped once ttt_set_listener returns.
        check(unsafe { sys::ttt_set_listener(self.as_ptr(), Some(listener_trampoline), user) })?;
        self.listener = Some(boxed);
        Ok(())
    }

    /// Removes the listener and drops it; it is never called again.
    pub fn clear_listener(&mut self) -> Result<()> {
        // SAFETY: a valid game; removing the listener needs no user pointer.
        check(unsafe { sys::ttt_set_listener(self.as_ptr(), None, ptr::null_mut()) })?;
        self.listener = None;
        Ok(())
    }

    /// True while a listener is installed.
    pub fn has_listener(&self) -> bool {
        self.listener.is_some()
    }

    /// Runs the engine call `status`, resuming a listener panic it caused.
    pub(crate) fn finish_change(&self, status: c_int) -> Result<c_int> {
        self.after_change(status)
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // SAFETY: the game is ours, &mut self means no call is running on
        // it, and it is used no more. The listener box is dropped after this.
        unsafe { sys::ttt_game_free(self.raw.as_ptr()) }
    }
}

/// A copy through `ttt_game_clone` (not the listener); panics if the
/// allocation fails, which [`Game::try_clone`] reports instead.
impl Clone for Game {
    fn clone(&self) -> Game {
        self.try_clone()
            .unwrap_or_else(|e| panic!("ttt::Game::clone: {e}"))
    }
}

/// The board with column letters and row numbers, as in cell names.
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        let n = self.width();
        let letters: Vec<String> = (0..n)
            .map(|c| {
                cell_name(0, c)
                    .map(|s| s.trim_end_matches('1').to_string())
                    .unwrap_or_default()
            })
            .collect();
        let width = letters.iter().map(String::len).max().unwrap_or(1);
        let label = self.height().to_string().len();
        write!(f, "{:label$} ", "")?;
        for letter in &letters {
            write!(f, " {letter:>width$}")?;
        }
        for (i, cell) in board.iter().enumerate() {
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
            .field("width", &self.width())
            .field("height", &self.height())
            .field("win_length", &self.win_length())
            .field("ply", &self.ply())
            .field("state", &self.state())
            .field("listener", &self.has_listener())
            .finish()
    }
}
