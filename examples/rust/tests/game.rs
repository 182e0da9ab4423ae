//! game.rs - tests of the safe bindings: wins, errors, undo/redo, save/load, listeners, drop.
use std::sync::{Arc, Mutex};
use ttt::{ErrorKind, Event, Game, Mark, Rule, State};

fn play_all(game: &mut Game, names: &[&str]) -> State {
    let mut state = game.state();
    for name in names {
        state = game
            .play_name(name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    state
}

#[test]
fn x_wins_a_row() {
    let mut game = Game::new(3, 0).unwrap();
    assert_eq!(game.to_move(), Some(Mark::X));
    assert_eq!(
        play_all(&mut game, &["a1", "a2", "b1", "b2", "c1"]),
        State::XWon
    );
    assert_eq!(game.state().winner(), Some(Mark::X));
    assert_eq!(game.to_move(), None);
    assert_eq!(game.winning_line(), Some(((0, 0), (0, 2))));
}

#[test]
fn o_wins_with_k_in_a_row_on_a_big_board() {
    let mut game = Game::new(7, 4).unwrap();
    let state = play_all(&mut game, &["a1", "d4", "a3", "e4", "a5", "f4", "g7", "c4"]);
    assert_eq!(state, State::OWon);
    assert_eq!(game.winning_line(), Some(((3, 2), (3, 5))));
}

#[test]
fn draw_and_board() {
    let mut game = Game::new(3, 0).unwrap();
    let state = play_all(
        &mut game,
        &["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"],
    );
    assert_eq!(state, State::Draw);
    assert_eq!(game.winning_line(), None);
    let (x, o) = (Some(Mark::X), Some(Mark::O));
    assert_eq!(game.board(), vec![x, o, x, x, o, o, o, x, x]);
    assert_eq!(game.to_string(), "   a b c\n1  X O X\n2  X O O\n3  O X X");
}

#[test]
fn errors_carry_code_and_message_and_change_nothing() {
    let mut game = Game::new(3, 0).unwrap();
    play_all(&mut game, &["b2", "a1"]);
    let before = (game.board(), game.ply(), game.save().unwrap());
    let cases = [
        (game.play(1, 1), ErrorKind::Occupied, -6),
        (game.play(3, 0), ErrorKind::OffBoard, -5),
        (game.play(usize::MAX, 0), ErrorKind::OffBoard, -5),
        (game.play_as(Mark::O, 2, 2), ErrorKind::WrongTurn, -7),
        (
            game.redo().map(|_| State::InProgress),
            ErrorKind::NoRedo,
            -10,
        ),
    ];
    for (result, kind, code) in cases {
        let e = result.unwrap_err();
        assert_eq!((e.kind(), e.code()), (kind, code));
        assert!(!e.message().is_empty() && e.message() != "unknown error");
        assert_eq!(e.to_string(), e.message());
    }
    assert_eq!((game.board(), game.ply(), game.save().unwrap()), before);
    assert_eq!(game.cell(0, 3).unwrap_err().kind(), ErrorKind::OffBoard);
    assert_eq!(
        game.set_rule(Rule::Misere, true).unwrap_err().kind(),
        ErrorKind::RulesLocked
    );
    assert_eq!(Game::new(2, 0).unwrap_err().kind(), ErrorKind::Size);
    assert_eq!(Game::new(3, 4).unwrap_err().kind(), ErrorKind::Size);
    assert_eq!(ttt::Error::from_code(-1000).kind(), ErrorKind::Other);
    assert_eq!(ttt::Error::from_code(-1000).message(), "unknown error");
}

#[test]
fn game_over_until_undone() {
    let mut game = Game::new(3, 0).unwrap();
    play_all(&mut game, &["a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(game.play(2, 2).unwrap_err().kind(), ErrorKind::GameOver);
    assert_eq!(
        game.play_as(Mark::O, 2, 2).unwrap_err().kind(),
        ErrorKind::GameOver
    );
    game.undo().unwrap();
    assert_eq!(
        (game.state(), game.to_move(), game.cell(0, 2).unwrap()),
        (State::InProgress, Some(Mark::X), None)
    );
    assert_eq!(game.play(2, 2).unwrap(), State::InProgress);
}

#[test]
fn undo_and_redo() {
    let mut game = Game::new(4, 3).unwrap();
    assert_eq!(game.undo().unwrap_err().kind(), ErrorKind::NoUndo);
    play_all(&mut game, &["a1", "d4", "b2"]);
    game.undo().unwrap();
    game.undo().unwrap();
    assert_eq!((game.ply(), game.redo_count()), (1, 2));
    game.redo().unwrap();
    assert_eq!(game.moves(), vec![(Mark::X, 0, 0), (Mark::O, 3, 3)]);
    game.play_name("c3").unwrap();
    assert_eq!(game.redo_count(), 0);
    assert_eq!(game.redo().unwrap_err().kind(), ErrorKind::NoRedo);
}

#[test]
fn save_load_round_trip() {
    let mut game = Game::new(5, 4).unwrap();
    game.set_rule(Rule::EarlyDraw, true).unwrap();
    play_all(&mut game, &["c3", "a1", "e5", "b4"]);
    let record = game.save().unwrap();
    assert_eq!(record, "ttt/1 n=5 k=4 rules=early-draw moves=c3,a1,e5,b4\n");
    let loaded = Game::load(&record).unwrap();
    assert_eq!(loaded.save().unwrap(), record);
    assert_eq!(loaded.board(), game.board());
    assert!(loaded.rule(Rule::EarlyDraw).unwrap());
    assert!(!loaded.rule(Rule::Misere).unwrap());

    let e = Game::load("ttt/1 n=3 k=3 rules=classic moves=b2,zz\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Parse);
    assert!(e.offset().unwrap() > 0);
    let e = Game::load("ttt/1 n=3 k=3 rules=classic moves=b2,b2\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Occupied);
}

#[test]
fn clone_is_independent() {
    let mut game = Game::new(3, 0).unwrap();
    game.play_name("b2").unwrap();
    let mut copy = game.try_clone().unwrap();
    copy.play_name("a1").unwrap();
    drop(game);
    assert_eq!((copy.ply(), copy.cell(1, 1).unwrap()), (2, Some(Mark::X)));
}

#[test]
fn misere() {
    let mut game = Game::new(3, 0).unwrap();
    game.set_rule(Rule::Misere, true).unwrap();
    assert_eq!(
        play_all(&mut game, &["a1", "a2", "b1", "b2", "c1"]),
        State::OWon
    );
}

#[test]
fn cell_names() {
    assert_eq!(ttt::cell_name(1, 1).unwrap(), "b2");
    assert_eq!(ttt::cell_name(0, 26).unwrap(), "aa1");
    assert_eq!(ttt::parse_cell("C3").unwrap(), (2, 2));
    assert_eq!(ttt::parse_cell("b2x").unwrap_err().kind(), ErrorKind::Parse);
    assert!(ttt::version().starts_with("1."));
}

#[test]
fn listener_hears_applied_changes_only() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let mut game = Game::new(3, 0).unwrap();
    let sink = Arc::clone(&events);
    game.set_listener(move |e| sink.lock().unwrap().push(e))
        .unwrap();
    play_all(&mut game, &["a1", "a2", "b1", "b2", "c1"]);
    assert!(game.play(2, 2).is_err());
    game.undo().unwrap();
    game.redo().unwrap();
    game.reset().unwrap();
    let events = events.lock().unwrap().clone();
    assert_eq!(events.len(), 8);
    assert_eq!(
        events[4],
        Event::Play {
            mark: Mark::X,
            row: 0,
            col: 2,
            state: State::XWon
        }
    );
    assert_eq!(
        events[5],
        Event::Undo {
            mark: Mark::X,
            row: 0,
            col: 2
        }
    );
    assert_eq!(
        events[6],
        Event::Redo {
            mark: Mark::X,
            row: 0,
            col: 2,
            state: State::XWon
        }
    );
    assert_eq!(events[7], Event::Reset);
    game.clear_listener().unwrap();
    game.play(0, 0).unwrap();
}

#[test]
fn listener_panic_reaches_the_caller() {
    let mut game = Game::new(3, 0).unwrap();
    game.set_listener(|_| panic!("listener failed")).unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.play(1, 1)));
    assert!(result.is_err());
    assert_eq!(game.ply(), 1); // the move itself was applied
}

#[test]
fn game_moves_to_another_thread() {
    let mut game = Game::new(3, 0).unwrap();
    game.play(1, 1).unwrap();
    let ply = std::thread::spawn(move || {
        game.play(0, 0).unwrap();
        game.ply()
    })
    .join()
    .unwrap();
    assert_eq!(ply, 2);
}
