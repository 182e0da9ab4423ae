//! batch.rs - [`Batch`]: many games of one shape stepped by one call, for learning (libttt's `ttt_batch`, since 1.4).
use std::os::raw::c_int;
use std::ptr::{self, NonNull};

use crate::error::{check, Result};
use crate::{sys, to_c, BotLevel, Mark};

/// A batch's shape and rules; see `ttt_batch_config` in ttt.h. The default
/// is 3 x 3, three in a row, classic rules, self-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchConfig {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Marks in a row that win; 0 means min(width, height).
    pub win_length: usize,
    /// Completing a line loses.
    pub misere: bool,
    /// Drawn once no line can be completed.
    pub early_draw: bool,
    /// Marks drop to the lowest empty cell of their column; actions are columns.
    pub gravity: bool,
    /// Drawn after this many moves (0: no limit); reported as truncated.
    pub ply_limit: usize,
    /// The bot answering inside each step, or `None` for self-play.
    pub opponent: Option<BotLevel>,
    /// The side the caller plays against an opponent; `None` alternates
    /// (X in each game's first episode).
    pub agent: Option<Mark>,
    /// An illegal action loses its game (else it changes nothing).
    pub illegal_loses: bool,
    /// The opponent's node budget (`ttt_best_move`'s).
    pub opponent_budget: u64,
}

impl Default for BatchConfig {
    fn default() -> BatchConfig {
        BatchConfig {
            width: 3,
            height: 3,
            win_length: 3,
            misere: false,
            early_draw: false,
            gravity: false,
            ply_limit: 0,
            opponent: None,
            agent: Some(Mark::X),
            illegal_loses: false,
            opponent_budget: 0,
        }
    }
}

impl BatchConfig {
    /// Connect Four: 7 x 6, four in a row, gravity.
    pub fn connect_four() -> BatchConfig {
        BatchConfig { width: 7, height: 6, win_length: 4, gravity: true, ..BatchConfig::default() }
    }

    /// The C struct.
    pub fn raw(&self) -> sys::ttt_batch_config {
        sys::ttt_batch_config {
            size: std::mem::size_of::<sys::ttt_batch_config>(),
            width: to_c(self.width),
            height: to_c(self.height),
            win_length: to_c(self.win_length),
            misere: i32::from(self.misere),
            early_draw: i32::from(self.early_draw),
            gravity: i32::from(self.gravity),
            ply_limit: to_c(self.ply_limit),
            opponent: self.opponent.map_or(sys::TTT_BATCH_SELF_PLAY, BotLevel::raw),
            agent: self.agent.map_or(0, Mark::raw),
            illegal: if self.illegal_loses {
                sys::TTT_BATCH_ILLEGAL_LOSE
            } else {
                sys::TTT_BATCH_ILLEGAL_REJECT
            },
            opponent_budget: self.opponent_budget,
        }
    }
}

/// What one step wrote, one entry per game (see `ttt_batch_step`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOutputs {
    /// +1, -1 or 0 for the side that acted.
    pub rewards: Vec<f32>,
    /// 1 if the game ended by its rules.
    pub terminated: Vec<u8>,
    /// 1 if it was drawn by the ply limit alone.
    pub truncated: Vec<u8>,
    /// 0, or the illegal action's `TTT_E_*` code.
    pub status: Vec<i32>,
    /// The state the game ended in (`TTT_X_WON`, `TTT_O_WON`, `TTT_DRAW`), or 0.
    pub outcome: Vec<i32>,
}

impl StepOutputs {
    /// Buffers for `count` games.
    pub fn new(count: usize) -> StepOutputs {
        StepOutputs {
            rewards: vec![0.0; count],
            terminated: vec![0; count],
            truncated: vec![0; count],
            status: vec![0; count],
            outcome: vec![0; count],
        }
    }
}

/// `count` games of one shape and rules in one C allocation, stepped
/// together; finished games reset at once.
///
/// Every call that writes to the C batch takes `&mut self`, reading a
/// game's board included (the C call behind it rebuilds the game from the
/// batch's compact form). `&Batch` methods only read, so a shared batch is
/// safe to read from many threads, and a board read from two threads at
/// once does not compile:
///
/// ```compile_fail,E0596
/// use ttt::{Batch, BatchConfig};
/// let batch = Batch::new(&BatchConfig::default(), 2).unwrap();
/// let shared = &batch;
/// std::thread::scope(|s| {
///     s.spawn(|| shared.board(0));
///     s.spawn(|| shared.board(0));
/// });
/// ```
///
/// while the reads that stay reads do:
///
/// ```
/// use ttt::{Batch, BatchConfig};
/// let mut batch = Batch::new(&BatchConfig::default(), 2).unwrap();
/// let shared = &batch;
/// std::thread::scope(|s| {
///     s.spawn(|| shared.legal_mask(&mut [0u8; 18]).unwrap());
///     s.spawn(|| shared.legal_mask(&mut [0u8; 18]).unwrap());
/// });
/// assert!(batch.board(0).unwrap().iter().all(|m| m.is_none()));
/// ```
pub struct Batch {
    raw: NonNull<sys::ttt_batch>,
    count: usize,
    actions: usize,
    cells: usize,
}

// SAFETY: the batch shares nothing with other batches and holds no
// thread-bound state; changes take &mut self, so one thread at a time.
unsafe impl Send for Batch {}
// SAFETY: &self calls only read the batch (observations, masks, sizes);
// ttt_batch_game writes the game it returns, so board() takes &mut self.
unsafe impl Sync for Batch {}

impl Batch {
    /// A batch of `count` games (at least 1), every one empty.
    pub fn new(config: &BatchConfig, count: usize) -> Result<Batch> {
        let raw_config = config.raw();
        let mut raw = ptr::null_mut();
        // SAFETY: valid config and out-pointer; NULL alloc means malloc.
        check(unsafe { sys::ttt_batch_new(&raw_config, count, ptr::null(), &mut raw) })?;
        let raw = NonNull::new(raw).expect("libttt returned TTT_OK and a NULL batch");
        // SAFETY: a valid batch.
        let actions = unsafe { sys::ttt_batch_action_count(raw.as_ptr()) } as usize;
        // SAFETY: a valid batch.
        let count = unsafe { sys::ttt_batch_count(raw.as_ptr()) };
        Ok(Batch { raw, count, actions, cells: config.width * config.height })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Always false: a batch holds at least one game.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Actions per game: the width under gravity, else width * height.
    pub fn action_count(&self) -> usize {
        self.actions
    }

    /// Values [`observe_u8`](Batch::observe_u8) writes: count * 2 * height * width.
    pub fn observation_len(&self) -> usize {
        self.count * 2 * self.cells
    }

    /// Seeds the opponents: game i from `seed + i * 0x9E3779B97F4A7C15`.
    pub fn seed(&mut self, seed: u64) {
        // SAFETY: a valid batch.
        check(unsafe { sys::ttt_batch_seed(self.raw.as_ptr(), seed) }).expect("ttt_batch_seed");
    }

    /// Starts every game anew.
    pub fn reset(&mut self) {
        // SAFETY: a valid batch.
        check(unsafe { sys::ttt_batch_reset(self.raw.as_ptr()) }).expect("ttt_batch_reset");
    }

    /// Sets game `index` to the position after `moves` (actions from the
    /// empty board, X first); on an error nothing changes.
    pub fn set_moves(&mut self, index: usize, moves: &[i32]) -> Result<()> {
        // SAFETY: moves holds moves.len() actions.
        check(unsafe {
            sys::ttt_batch_set_moves(self.raw.as_ptr(), index, moves.as_ptr(), moves.len())
        })?;
        Ok(())
    }

    /// Plays `actions` (one per game) and the opponent's answers, writing
    /// `out` (made by [`StepOutputs::new`] for this batch's size).
    /// Panics if a slice's length is not the batch's.
    pub fn step(&mut self, actions: &[i32], out: &mut StepOutputs) {
        let outputs = self.raw_outputs(actions, out);
        // SAFETY: every array holds count entries, as raw_outputs checked.
        let status = unsafe { sys::ttt_batch_step(self.raw.as_ptr(), actions.as_ptr(), &outputs) };
        assert_eq!(status, sys::TTT_OK, "ttt_batch_step with valid arguments");
    }

    /// As [`Batch::step`], and for each game that ends in this step writes
    /// the planes of its last position, before it resets, into its
    /// 2 x height x width slice of `last` (laid out as [`Batch::observe_u8`]'s;
    /// the slices of other games are left as they were). A game whose
    /// `skip` flag is not 0 is left as it is and its action ignored.
    /// `Error` with `ErrorKind::Buffer`, and nothing changes, if `last` is
    /// shorter than [`Batch::observation_len`]. Panics if
    /// `actions`, `skip` or `out` is not sized for this batch.
    pub fn step_final(
        &mut self,
        actions: &[i32],
        skip: Option<&[u8]>,
        out: &mut StepOutputs,
        last: &mut [u8],
    ) -> Result<()> {
        let outputs = self.raw_outputs(actions, out);
        if let Some(flags) = skip {
            assert_eq!(flags.len(), self.count, "one skip flag per game");
        }
        let skip = skip.map_or(std::ptr::null(), |flags| flags.as_ptr());
        // SAFETY: actions, skip and the outputs hold count entries (checked
        // above); last holds last.len() bytes, which the call checks.
        check(unsafe {
            sys::ttt_batch_step_final(
                self.raw.as_ptr(),
                actions.as_ptr(),
                skip,
                &outputs,
                last.as_mut_ptr(),
                last.len(),
            )
        })?;
        Ok(())
    }

    /// The C view of `out`, after checking that it and `actions` hold one
    /// entry per game.
    fn raw_outputs(&self, actions: &[i32], out: &mut StepOutputs) -> sys::ttt_batch_outputs {
        let n = self.count;
        assert_eq!(actions.len(), n, "one action per game");
        assert!(
            out.rewards.len() == n
                && out.terminated.len() == n
                && out.truncated.len() == n
                && out.status.len() == n
                && out.outcome.len() == n,
            "StepOutputs sized for another batch"
        );
        sys::ttt_batch_outputs {
            size: std::mem::size_of::<sys::ttt_batch_outputs>(),
            rewards: out.rewards.as_mut_ptr(),
            terminated: out.terminated.as_mut_ptr(),
            truncated: out.truncated.as_mut_ptr(),
            status: out.status.as_mut_ptr(),
            outcome: out.outcome.as_mut_ptr(),
        }
    }

    /// Writes the observation planes (count x 2 x height x width) as 0/1
    /// bytes; `Error` with `ErrorKind::Buffer` if `planes` is too short.
    pub fn observe_u8(&self, planes: &mut [u8]) -> Result<()> {
        // SAFETY: planes holds planes.len() bytes.
        check(unsafe {
            sys::ttt_batch_observe_u8(self.raw.as_ptr(), planes.as_mut_ptr(), planes.len())
        })?;
        Ok(())
    }

    /// The same planes as floats.
    pub fn observe_f32(&self, planes: &mut [f32]) -> Result<()> {
        // SAFETY: planes holds planes.len() floats.
        check(unsafe {
            sys::ttt_batch_observe_f32(self.raw.as_ptr(), planes.as_mut_ptr(), planes.len())
        })?;
        Ok(())
    }

    /// Writes the legal-action masks (count x actions), 1 where legal.
    pub fn legal_mask(&self, mask: &mut [u8]) -> Result<()> {
        // SAFETY: mask holds mask.len() bytes.
        check(unsafe {
            sys::ttt_batch_legal_mask(self.raw.as_ptr(), mask.as_mut_ptr(), mask.len())
        })?;
        Ok(())
    }

    /// Game `index`'s board, row-major; `Error` (`ErrorKind::Range`) past the end.
    /// Takes `&mut self`: the C call rebuilds the game it reads.
    pub fn board(&mut self, index: usize) -> Result<Vec<Option<Mark>>> {
        let mut game = ptr::null();
        // SAFETY: a valid batch and out-pointer.
        check(unsafe { sys::ttt_batch_game(self.raw.as_ptr(), index, &mut game) })?;
        let mut cells = vec![0i8; self.cells];
        let mut len = 0usize;
        // SAFETY: game is the batch's, valid while self is borrowed; cells
        // holds the board's size.
        check(unsafe { sys::ttt_board(game, cells.as_mut_ptr(), cells.len(), &mut len) })?;
        Ok(cells.iter().map(|&m| Mark::from_raw(c_int::from(m))).collect())
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        // SAFETY: the batch is ours and freed once.
        unsafe { sys::ttt_batch_free(self.raw.as_ptr()) }
    }
}
