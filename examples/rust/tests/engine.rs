//! engine.rs - tests of the engine bindings: seeded random moves and playouts, perft, the solver and the bots.
#![cfg(ttt_engine)]
use ttt::{Bot, Counts, ErrorKind, Game, State, Value};

fn play_all(game: &mut Game, names: &[&str]) {
    for name in names {
        game.play_name(name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn random_moves_are_seeded() {
    let mut game = Game::new(3, 0).unwrap();
    game.play_name("b2").unwrap();
    let (mut a, mut b) = (42u64, 42u64);
    let cell = game.random_move(&mut a).unwrap();
    assert_eq!(game.random_move(&mut b).unwrap(), cell);
    assert!(a == b && a != 42);
    assert_eq!(game.cell(cell.0, cell.1).unwrap(), None);
    assert_eq!(game.ply(), 1);
    let state = game.random_playout(&mut a).unwrap();
    assert!(state.is_over() && game.state() == state);
    assert_eq!(
        game.random_move(&mut a).unwrap_err().kind(),
        ErrorKind::GameOver
    );
}

#[test]
fn random_playouts_equal_single_playouts() {
    // 3x3 plays in registers; 4x4 with k = 3 plays on copies of the game.
    for (size, k) in [(3, 0), (4, 3)] {
        let mut game = Game::new(size, k).unwrap();
        play_all(&mut game, &["b2", "a1"]);
        let record = game.save().unwrap();
        let (mut seed, mut single) = (99u64, 99u64);
        let counts = game.random_playouts(&mut seed, 200).unwrap();
        let mut tally = Counts::default();
        for _ in 0..200 {
            let mut copy = game.try_clone().unwrap();
            match copy.random_playout(&mut single).unwrap() {
                State::XWon => tally.x_won += 1,
                State::OWon => tally.o_won += 1,
                State::Draw => tally.draw += 1,
                State::InProgress => tally.in_progress += 1,
            }
        }
        assert_eq!(counts, tally);
        assert_eq!((counts.total(), counts.in_progress), (200, 0));
        assert_eq!(seed, single);
        assert_eq!(game.save().unwrap(), record);
    }

    let mut game = Game::new(3, 0).unwrap();
    play_all(&mut game, &["a1", "a2", "b1", "b2", "c1"]);
    let mut seed = 11u64;
    assert_eq!(
        game.random_playouts(&mut seed, 10).unwrap_err().kind(),
        ErrorKind::GameOver
    );
    assert_eq!(seed, 11);
}

#[test]
fn perft_and_positions_of_the_classic_game() {
    let game = Game::new(3, 0).unwrap();
    let (counts, by_length) = game.perft(9, 0).unwrap();
    assert_eq!(
        (counts.x_won, counts.o_won, counts.draw, counts.total()),
        (131184, 77904, 46080, 255168)
    );
    assert_eq!(by_length, [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872]);
    let positions = game.count_positions(9, 0).unwrap();
    assert_eq!(
        (
            positions.total(),
            positions.x_won,
            positions.o_won,
            positions.draw
        ),
        (5478, 626, 316, 16)
    );
}

#[test]
fn solver_and_bots() {
    let mut game = Game::new(3, 0).unwrap();
    let solution = game.solve(0, 0, false).unwrap();
    assert!(solution.complete);
    assert_eq!(
        (solution.value, solution.plies, solution.best.len()),
        (Value::Draw, Some(9), 9)
    );

    play_all(&mut game, &["a1", "a2", "b1"]);
    assert_eq!(game.best_move(Bot::Strong, 0, None).unwrap(), (0, 2));
    assert_eq!(
        game.best_move(Bot::Perfect, 0, Some(&mut 3)).unwrap(),
        (0, 2)
    );
    assert_eq!(
        game.best_move(Bot::Random, 0, None).unwrap_err().kind(),
        ErrorKind::Invalid
    );
    game.play_name("c3").unwrap(); // O fails to block
    let solution = game.solve(0, 0, false).unwrap();
    assert_eq!(
        (solution.value, solution.plies, solution.best),
        (Value::Win, Some(1), vec![(0, 2)])
    );

    let partial = Game::new(4, 0).unwrap().solve(50, 0, false).unwrap();
    assert!(!partial.complete && partial.plies.is_none() && partial.best.len() <= 1);
    assert!(partial.value_min <= partial.value_max);
}
