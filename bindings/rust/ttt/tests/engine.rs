//! engine.rs - tests of the engine bindings: seeded random moves and playouts, perft, position counts, the solver and the bots.
use ttt::{BotLevel, Counts, ErrorKind, Game, Method, SolveOptions, State, Value};

fn play_all(game: &Game, names: &[&str]) {
    for name in names {
        game.play_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn random_moves_are_seeded() {
    let game = Game::new(3, 0).unwrap();
    game.play_name("b2").unwrap();
    let (mut a, mut b) = (42u64, 42u64);
    let cell = game.random_move(&mut a).unwrap();
    assert_eq!(game.random_move(&mut b).unwrap(), cell);
    assert!(a == b && a != 42);
    assert_eq!(game.cell(cell.0, cell.1).unwrap(), None);
    assert_eq!(game.ply(), 1);
    let state = game.random_playout(&mut a).unwrap();
    assert!(state.is_over() && game.state() == state);
    assert_eq!(game.random_move(&mut a).unwrap_err().kind(), ErrorKind::GameOver);
}

#[test]
fn random_playouts_are_reproducible_and_equal_single_playouts() {
    // 3x3 plays in registers; 4x4 with k = 3 plays on copies of the game.
    for (size, k) in [(3, 0), (4, 3)] {
        let game = Game::new(size, k).unwrap();
        play_all(&game, &["b2", "a1"]);
        let record = game.save().unwrap();
        let (mut seed, mut again, mut single) = (99u64, 99u64, 99u64);
        let counts = game.random_playouts(&mut seed, 200).unwrap();
        assert_eq!(game.random_playouts(&mut again, 200).unwrap(), counts);
        assert_eq!(again, seed);
        let mut tally = Counts::default();
        for _ in 0..200 {
            match game.try_clone().unwrap().random_playout(&mut single).unwrap() {
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
        // Another seed plays other games.
        let mut other = 100u64;
        let _ = game.random_playouts(&mut other, 200).unwrap();
        assert_ne!(other, seed);
    }

    let game = Game::new(3, 0).unwrap();
    play_all(&game, &["a1", "a2", "b1", "b2", "c1"]);
    let mut seed = 11u64;
    assert_eq!(game.random_playouts(&mut seed, 10).unwrap_err().kind(), ErrorKind::GameOver);
    assert_eq!(seed, 11);
}

#[test]
fn perft_and_positions_of_the_classic_game() {
    let game = Game::new(3, 0).unwrap();
    let perft = game.perft(9, 0).unwrap();
    let c = perft.counts;
    // The well-known totals: 255168 games, 131184 won by X, 77904 by O.
    assert_eq!((c.x_won, c.o_won, c.draw, c.total()), (131184, 77904, 46080, 255168));
    assert_eq!(perft.by_length, [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872]);
    let shallow = game.perft(2, 0).unwrap();
    assert_eq!((shallow.counts.in_progress, shallow.by_length), (72, vec![0, 0, 72]));
    let positions = game.count_positions(9, 0).unwrap();
    assert_eq!(
        (positions.total(), positions.x_won, positions.o_won, positions.draw),
        (5478, 626, 316, 16)
    );
    assert_eq!(positions.get(State::XWon), 626);
}

#[test]
fn solve_3x3() {
    let game = Game::new(3, 0).unwrap();
    let solution = game.solve().unwrap();
    assert!(solution.complete);
    assert_eq!((solution.value, solution.value_min, solution.value_max), (Value::Draw, Value::Draw, Value::Draw));
    // Every first move keeps the draw, which lasts until the board is full.
    assert_eq!(solution.plies, Some(9));
    let all: Vec<(usize, usize)> = (0..9).map(|c| (c / 3, c % 3)).collect();
    assert_eq!(solution.best, all);
    assert!(solution.nodes > 0);

    play_all(&game, &["a1", "a2", "b1", "c3"]); // O fails to block c1
    let solution = game.solve().unwrap();
    assert_eq!((solution.value, solution.plies, solution.best), (Value::Win, Some(1), vec![(0, 2)]));
    let value_only = game.solve_with(&SolveOptions { value_only: true, ..Default::default() }).unwrap();
    assert_eq!((value_only.value, value_only.plies, value_only.best.len()), (Value::Win, None, 1));
}

/// (4,4,3): check the solver's answer against itself: each optimal move
/// leaves the opponent lost one ply sooner, every other move does worse,
/// and the set of optimal moves is symmetric like the empty board.
#[test]
fn solve_4x4_with_three_in_a_row() {
    let game = Game::new(4, 3).unwrap();
    let solution = game.solve().unwrap();
    assert!(solution.complete);
    assert_eq!(solution.value, Value::Win);
    let plies = solution.plies.unwrap();
    assert!(!solution.best.is_empty() && solution.best.len() < 16);
    for row in 0..4 {
        for col in 0..4 {
            let after = game.clone();
            after.play(row, col).unwrap();
            let reply = after.solve().unwrap();
            let optimal = (reply.value, reply.plies) == (Value::Loss, Some(plies - 1));
            assert_eq!(optimal, solution.best.contains(&(row, col)), "({row}, {col})");
            // The mirror images of an optimal move are optimal too.
            if optimal {
                for image in [(col, row), (3 - row, col), (row, 3 - col), (3 - col, 3 - row)] {
                    assert!(solution.best.contains(&image), "{image:?}");
                }
            }
        }
    }
}

#[test]
fn solve_within_a_budget_gives_bounds() {
    let partial = Game::new(4, 0).unwrap();
    let partial = partial.solve_with(&SolveOptions { node_budget: 50, ..Default::default() }).unwrap();
    assert!(!partial.complete && partial.plies.is_none() && partial.best.len() <= 1);
    assert!(partial.value_min <= partial.value_max);
    assert_eq!(partial.value, partial.value_min);
}

#[test]
fn bots() {
    let game = Game::new(3, 0).unwrap();
    play_all(&game, &["a1", "a2", "b1"]);
    // O must block c1.
    assert_eq!(game.best_move(BotLevel::Strong, 0, None).unwrap(), (0, 2));
    let mut seed = 3u64;
    assert_eq!(game.best_move(BotLevel::Perfect, 0, Some(&mut seed)).unwrap(), (0, 2));
    let before = seed;
    let (row, col) = game.best_move(BotLevel::Random, 0, Some(&mut seed)).unwrap();
    assert_eq!(game.cell(row, col).unwrap(), None);
    assert_ne!(seed, before);
    assert_eq!(game.ply(), 3, "bots do not play");
    // Two perfect players draw.
    let game = Game::new(3, 0).unwrap();
    let mut seed = 2024u64;
    while !game.state().is_over() {
        let (row, col) = game.best_move(BotLevel::Perfect, 0, Some(&mut seed)).unwrap();
        game.play(row, col).unwrap();
    }
    assert_eq!(game.state(), State::Draw);
    assert_eq!(game.best_move(BotLevel::Strong, 0, None).unwrap_err().kind(), ErrorKind::GameOver);
}

#[test]
fn solve_says_how_the_value_was_proven() {
    // (6,6,6): every line has two cells of its own for each side, a pairing draw.
    let pairing = Game::new(6, 6).unwrap().solve().unwrap();
    assert_eq!((pairing.value, pairing.method, pairing.nodes), (Value::Draw, Method::Pairing, 0));
    assert_eq!(pairing.plies, Some(36));
    // 3x3 has no pairing (too few cells): the search proves the draw.
    let searched = Game::new(3, 3).unwrap().solve().unwrap();
    assert_eq!((searched.value, searched.method), (Value::Draw, Method::Search));
    assert!(searched.nodes > 0);
}
