//! game.rs - tests of the safe game API: full games, every error kind, undo after a win, save/load, listeners, clone, drop.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use ttt::{Ending, Error, ErrorKind, Event, Game, Mark, Move, Rule, State};

fn play_all(game: &Game, names: &[&str]) -> State {
    let mut state = game.state();
    for name in names {
        state = game.play_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    state
}

#[test]
fn x_wins_a_row() {
    let game = Game::new(3, 0).unwrap();
    assert_eq!((game.size(), game.win_length()), (3, 3));
    assert_eq!(game.to_move(), Some(Mark::X));
    assert_eq!(play_all(&game, &["a1", "a2", "b1", "b2", "c1"]), State::XWon);
    assert_eq!(game.state().winner(), Some(Mark::X));
    assert_eq!(game.to_move(), None);
    assert_eq!(game.winning_line(), Some(((0, 0), (0, 2))));
}

#[test]
fn o_wins_with_k_in_a_row_on_a_big_board() {
    let game = Game::new(7, 4).unwrap();
    let state = play_all(&game, &["a1", "d4", "a3", "e4", "a5", "f4", "g7", "c4"]);
    assert_eq!(state, State::OWon);
    assert_eq!(game.winning_line(), Some(((3, 2), (3, 5))));
}

#[test]
fn draw_and_board() {
    let game = Game::new(3, 0).unwrap();
    let state = play_all(&game, &["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"]);
    assert_eq!(state, State::Draw);
    assert_eq!(game.winning_line(), None);
    let (x, o) = (Some(Mark::X), Some(Mark::O));
    assert_eq!(game.board(), vec![x, o, x, x, o, o, o, x, x]);
    assert_eq!(game.to_string(), "   a b c\n1  X O X\n2  X O O\n3  O X X");
}

#[test]
fn play_as_and_play_at_agree_with_play() {
    let a = Game::new(4, 3).unwrap();
    let b = Game::new(4, 3).unwrap();
    let c = Game::new(4, 3).unwrap();
    for (ply, (row, col)) in [(1, 1), (0, 0), (2, 1), (3, 3), (0, 1)].into_iter().enumerate() {
        let mark = a.to_move().unwrap();
        let state = a.play(row, col).unwrap();
        assert_eq!(b.play_as(mark, row, col).unwrap(), state);
        assert_eq!(c.play_at(ply, mark, row, col).unwrap(), state);
    }
    assert_eq!(a.save().unwrap(), b.save().unwrap());
    assert_eq!(a.save().unwrap(), c.save().unwrap());
    assert_eq!(a.state(), State::XWon);
    // A retried request succeeds and changes nothing; another move is stale.
    assert_eq!(c.play_at(4, Mark::X, 0, 1).unwrap(), State::XWon);
    assert_eq!(c.ply(), 5);
    assert_eq!(c.play_at(4, Mark::X, 2, 2).unwrap_err().kind(), ErrorKind::Stale);
}

/// Every status code has its own kind, its ttt_strerror message and a
/// Display; every code the safe API can produce is produced by a real call.
#[test]
fn every_error_kind() {
    let mut kinds = Vec::new();
    for code in -21..=-1 {
        let e = Error::from_code(code);
        assert_ne!(e.kind(), ErrorKind::Unknown, "code {code}");
        assert!(!kinds.contains(&e.kind()), "code {code} shares a kind");
        kinds.push(e.kind());
        assert_eq!(e.code(), code);
        assert_ne!(e.message(), "unknown error", "code {code}");
        assert_eq!(e.to_string(), e.message());
        let as_std: &dyn std::error::Error = &e;
        assert_eq!(as_std.to_string(), e.message());
    }
    assert_eq!(Error::from_code(-1000).kind(), ErrorKind::Unknown);
    assert_eq!(Error::from_code(-1000).message(), "unknown error");

    let game = Game::new(3, 0).unwrap();
    play_all(&game, &["b2", "a1"]);
    let record = game.save().unwrap();
    let won = Game::load("ttt/1 n=3 k=3 rules=classic moves=a1,a2,b1,b2,c1\n").unwrap();
    let budget_game = Game::new(4, 0).unwrap();
    let cases: Vec<(ErrorKind, Error)> = vec![
        (ErrorKind::Invalid, game.best_move(ttt::BotLevel::Random, 0, None).unwrap_err()),
        (ErrorKind::NoMem, Game::new(4, 0).unwrap().perft(16, 1).unwrap_err()),
        (ErrorKind::Size, Game::new(2, 0).unwrap_err()),
        (ErrorKind::Size, Game::new(3, 4).unwrap_err()),
        (ErrorKind::Size, Game::new(1025, 0).unwrap_err()),
        (ErrorKind::OffBoard, game.play(3, 0).unwrap_err()),
        (ErrorKind::OffBoard, game.play(usize::MAX, 0).unwrap_err()),
        (ErrorKind::OffBoard, game.cell(0, 3).unwrap_err()),
        (ErrorKind::Occupied, game.play(1, 1).unwrap_err()),
        (ErrorKind::WrongTurn, game.play_as(Mark::O, 2, 2).unwrap_err()),
        (ErrorKind::GameOver, won.play(2, 2).unwrap_err()),
        (ErrorKind::NoUndo, Game::new(3, 0).unwrap().undo().unwrap_err()),
        (ErrorKind::NoRedo, game.redo().unwrap_err()),
        (ErrorKind::RulesLocked, game.set_rule(Rule::Misere, true).unwrap_err()),
        (ErrorKind::Parse, Game::load("ttt/1 n=3 k=3 rules=classic moves=b2,zz\n").unwrap_err()),
        (ErrorKind::Parse, ttt::parse_cell("b2x").unwrap_err()),
        (ErrorKind::Range, game.move_at(2).unwrap_err()),
        (ErrorKind::Stale, game.play_at(0, Mark::X, 2, 2).unwrap_err()),
        (ErrorKind::Budget, budget_game.best_move(ttt::BotLevel::Perfect, 1, None).unwrap_err()),
    ];
    for (kind, e) in cases {
        assert_eq!(e.kind(), kind, "{e:?}");
    }
    // Rejected calls changed nothing.
    assert_eq!(game.save().unwrap(), record);
    // Not reachable through the safe types: Mark (a Mark is X or O), Rule (a
    // Rule is known), Buffer (the crate sizes its buffers), NoLine
    // (winning_line is an Option), Overflow (counts past 2^64 take days).
}

#[test]
fn undo_after_a_win_reopens_the_game() {
    let game = Game::new(3, 0).unwrap();
    play_all(&game, &["a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(game.play(2, 2).unwrap_err().kind(), ErrorKind::GameOver);
    assert_eq!(game.play_as(Mark::O, 2, 2).unwrap_err().kind(), ErrorKind::GameOver);
    game.undo().unwrap();
    assert_eq!(
        (game.state(), game.to_move(), game.cell(0, 2).unwrap(), game.winning_line()),
        (State::InProgress, Some(Mark::X), None, None)
    );
    assert_eq!(game.play(2, 2).unwrap(), State::InProgress);
    assert_eq!(game.redo().unwrap_err().kind(), ErrorKind::NoRedo);
}

#[test]
fn undo_and_redo() {
    let game = Game::new(4, 3).unwrap();
    assert_eq!(game.undo().unwrap_err().kind(), ErrorKind::NoUndo);
    play_all(&game, &["a1", "d4", "b2"]);
    game.undo().unwrap();
    game.undo().unwrap();
    assert_eq!((game.ply(), game.redo_count()), (1, 2));
    game.redo().unwrap();
    assert_eq!(
        game.moves().unwrap(),
        vec![Move { mark: Mark::X, row: 0, col: 0 }, Move { mark: Mark::O, row: 3, col: 3 }]
    );
    game.play_name("c3").unwrap();
    assert_eq!(game.redo_count(), 0);
    game.reset().unwrap();
    assert_eq!((game.ply(), game.redo_count(), game.state()), (0, 0, State::InProgress));
    assert!(game.board().iter().all(Option::is_none));
}

#[test]
fn save_load_round_trip() {
    let game = Game::new(5, 4).unwrap();
    game.set_rule(Rule::EarlyDraw, true).unwrap();
    play_all(&game, &["c3", "a1", "e5", "b4"]);
    let record = game.save().unwrap();
    assert_eq!(record, "ttt/1 n=5 k=4 rules=early-draw moves=c3,a1,e5,b4\n");
    let loaded = Game::load(&record).unwrap();
    assert_eq!(loaded.save().unwrap(), record);
    assert_eq!(loaded.board(), game.board());
    assert!(loaded.rule(Rule::EarlyDraw));
    assert!(!loaded.rule(Rule::Misere));
    // Undone moves are not saved.
    game.undo().unwrap();
    assert_eq!(game.save().unwrap(), "ttt/1 n=5 k=4 rules=early-draw moves=c3,a1,e5\n");
}

#[test]
fn load_errors_carry_the_offset() {
    let text = "ttt/1 n=3 k=3 rules=classic moves=b2,zz\n";
    let e = Game::load(text).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Parse);
    // "zz" has column letters but no row number: the problem is at the newline.
    assert_eq!(e.offset(), Some(text.find("zz").unwrap() + 2));
    assert!(e.to_string().contains(&format!("at byte {}", e.offset().unwrap())));
    // What was wanted there, in the error and its message.
    assert!(e.expected().unwrap().starts_with("a cell name"));
    assert!(e.to_string().contains("; expected a cell name"));
    // A record as an editor or a mail leaves it loads.
    for end in ["", "\r\n", "\n\n", "\r\n\r\n"] {
        let game = Game::load(&format!("ttt/1 n=3 k=3 rules=classic moves=b2,a1{end}")).unwrap();
        assert_eq!(game.save().unwrap(), "ttt/1 n=3 k=3 rules=classic moves=b2,a1\n");
    }
    let text = "ttt/1 n=3 k=3 rules=classic moves=b2,b2\n";
    let e = Game::load(text).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Occupied, Some(text.rfind("b2").unwrap())));
    let e = Game::load("ttt/1 n=2 k=2 rules=classic moves=-\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Size);
    assert!(e.offset().is_some());
}

#[test]
fn clone_is_independent_and_has_no_listener() {
    let mut game = Game::new(3, 0).unwrap();
    game.set_listener(|_| {}).unwrap();
    game.play_name("b2").unwrap();
    let copy = game.clone();
    assert!(!copy.has_listener());
    copy.play_name("a1").unwrap();
    assert_eq!(game.ply(), 1);
    drop(game);
    assert_eq!((copy.ply(), copy.cell(1, 1).unwrap()), (2, Some(Mark::X)));
}

#[test]
fn misere() {
    let game = Game::new(3, 0).unwrap();
    game.set_rule(Rule::Misere, true).unwrap();
    assert!(game.rule(Rule::Misere));
    assert_eq!(play_all(&game, &["a1", "a2", "b1", "b2", "c1"]), State::OWon);
}

#[test]
fn cell_names_and_version() {
    assert_eq!(ttt::cell_name(1, 1).unwrap(), "b2");
    assert_eq!(ttt::cell_name(0, 26).unwrap(), "aa1");
    assert_eq!(ttt::parse_cell("C3").unwrap(), (2, 2));
    assert_eq!(ttt::cell_name(1024, 0).unwrap_err().kind(), ErrorKind::OffBoard);
    assert_eq!(ttt::version_number(), ttt::sys::TTT_VERSION_NUMBER);
    assert_eq!(ttt::version(), "1.5.0");
}

#[test]
fn listener_hears_applied_changes_only() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let mut game = Game::new(3, 0).unwrap();
    let sink = Arc::clone(&events);
    game.set_listener(move |e| sink.lock().unwrap().push(*e)).unwrap();
    play_all(&game, &["a1", "a2", "b1", "b2", "c1"]);
    assert!(game.play(2, 2).is_err());
    game.undo().unwrap();
    game.redo().unwrap();
    game.reset().unwrap();
    let events = events.lock().unwrap().clone();
    assert_eq!(events.len(), 8);
    assert_eq!(
        events[4],
        Event::Play { mark: Mark::X, row: 0, col: 2, ply: 5, state: State::XWon }
    );
    assert_eq!(events[5], Event::Undo { mark: Mark::X, row: 0, col: 2, ply: 4 });
    assert_eq!(
        events[6],
        Event::Redo { mark: Mark::X, row: 0, col: 2, ply: 5, state: State::XWon }
    );
    assert_eq!(events[7], Event::Reset);
}

/// The closure is owned by the game: dropped on removal, replacement or
/// the game's drop, and never called after removal.
#[test]
fn listener_is_dropped_on_removal_and_not_called_after() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut game = Game::new(3, 0).unwrap();
    let counter = Arc::clone(&calls);
    game.set_listener(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    game.play(0, 0).unwrap();
    assert_eq!((calls.load(Ordering::SeqCst), Arc::strong_count(&calls)), (1, 2));
    game.clear_listener().unwrap();
    assert_eq!(Arc::strong_count(&calls), 1, "removal drops the closure");
    game.play(1, 1).unwrap();
    game.undo().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    let counter = Arc::clone(&calls);
    game.set_listener(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    let replaced = Arc::clone(&calls);
    game.set_listener(move |_| {
        let _ = &replaced;
    })
    .unwrap();
    assert_eq!(Arc::strong_count(&calls), 2, "replacement drops the old closure");
    game.play(2, 2).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    drop(game);
    assert_eq!(Arc::strong_count(&calls), 1, "the game's drop drops the closure");
}

#[test]
fn listener_panic_reaches_the_caller_after_the_change() {
    let mut game = Game::new(3, 0).unwrap();
    game.set_listener(|_| panic!("listener failed")).unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.play(1, 1)));
    assert_eq!(
        result.unwrap_err().downcast_ref::<&str>().copied(),
        Some("listener failed")
    );
    assert_eq!(game.ply(), 1); // the move itself was applied
    game.clear_listener().unwrap();
    assert_eq!(game.play(0, 0).unwrap(), State::InProgress);
}

#[test]
fn game_moves_to_another_thread() {
    let game = Game::new(3, 0).unwrap();
    game.play(1, 1).unwrap();
    let ply = std::thread::spawn(move || {
        game.play(0, 0).unwrap();
        game.ply()
    })
    .join()
    .unwrap();
    assert_eq!(ply, 2);
}

#[test]
fn names_endings_and_the_ply_limit() {
    let game = Game::new(3, 0).unwrap();
    game.set_name(Mark::X, "Ana").unwrap();
    game.set_name(Mark::O, "Bö \"b\"").unwrap();
    assert_eq!(game.name(Mark::X), "Ana");
    assert_eq!(game.set_name(Mark::X, "a\tb").unwrap_err().kind(), ErrorKind::Name);
    assert_eq!(game.set_name(Mark::X, &"a".repeat(65)).unwrap_err().kind(), ErrorKind::Name);
    assert_eq!(game.name(Mark::X), "Ana");

    game.play(1, 1).unwrap();
    assert_eq!(game.ending(), None);
    assert_eq!(game.resign(Mark::X).unwrap(), State::OWon);
    assert_eq!(game.ending(), Some(Ending::Resign));
    assert_eq!(game.play(0, 0).unwrap_err().kind(), ErrorKind::GameOver);
    let record = game.save().unwrap();
    assert_eq!(
        record,
        "ttt/1 n=3 k=3 rules=classic moves=b2 x=\"Ana\" o=\"Bö \\\"b\\\"\" end=resign-x\n"
    );
    let loaded = Game::load(&record).unwrap();
    assert_eq!(loaded.ending(), Some(Ending::Resign));
    assert_eq!(loaded.name(Mark::O), "Bö \"b\"");

    game.undo().unwrap();
    assert_eq!(game.state(), State::InProgress);
    assert_eq!(game.ply(), 1);
    assert_eq!(game.agree_draw().unwrap(), State::Draw);
    assert_eq!(game.ending(), Some(Ending::Agreed));

    let limited = Game::new(9, 5).unwrap();
    limited.set_ply_limit(2).unwrap();
    assert_eq!(limited.ply_limit(), 2);
    limited.play(0, 0).unwrap();
    assert_eq!(limited.play(8, 8).unwrap(), State::Draw);
    assert_eq!(limited.ending(), Some(Ending::PlyLimit));
}

#[test]
fn ending_events() {
    let mut game = Game::new(3, 0).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    game.set_listener(move |e| sink.lock().unwrap().push(*e)).unwrap();
    game.play(1, 1).unwrap();
    game.resign(Mark::O).unwrap();
    game.undo().unwrap();
    game.redo().unwrap();
    game.undo().unwrap();
    game.agree_draw().unwrap();
    let events = seen.lock().unwrap().clone();
    assert_eq!(events[1], Event::Resign { mark: Mark::O, ply: 1, state: State::XWon });
    assert_eq!(events[2], Event::UndoEnding { resigned: Some(Mark::O), ply: 1 });
    assert_eq!(events[3], Event::RedoEnding { resigned: Some(Mark::O), ply: 1, state: State::XWon });
    assert_eq!(events[5], Event::DrawAgreed { ply: 1 });
}

#[test]
fn legal_moves_follow_the_game() {
    let game = Game::new(3, 0).unwrap();
    assert_eq!(game.legal_moves().len(), 9);
    game.play(1, 1).unwrap();
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 8);
    assert!(!moves.contains(&(1, 1)));
    assert_eq!(moves[0], (0, 0));
    game.resign(Mark::O).unwrap();
    assert!(game.legal_moves().is_empty());
}
