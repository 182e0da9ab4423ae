//! rect.rs - rectangular boards and gravity (libttt 1.3): Game::new_rect, width and height, drop, set_gravity, the Floating and ColumnFull errors, records and the engine on them.
use ttt::{BotLevel, ErrorKind, Game, Mark, State, Value};

fn connect4() -> Game {
    let game = Game::new_rect(7, 6, 4).unwrap();
    game.set_gravity(true).unwrap();
    game
}

/// Everything a rejected call must leave as it was.
fn snapshot(game: &Game) -> (Vec<Option<Mark>>, usize, Option<Mark>, State, String, usize) {
    (
        game.board(),
        game.ply(),
        game.to_move(),
        game.state(),
        game.save().unwrap(),
        game.redo_count(),
    )
}

#[test]
fn constants_have_the_header_values() {
    assert_eq!(ttt::sys::TTT_E_FLOATING, -22);
    assert_eq!(ttt::sys::TTT_E_COLUMN_FULL, -23);
    assert_eq!(ttt::sys::TTT_RULE_GRAVITY, 4);
    assert_eq!(ttt::Error::from_code(-22).kind(), ErrorKind::Floating);
    assert_eq!(ttt::Error::from_code(-23).kind(), ErrorKind::ColumnFull);
    let floating = ttt::Error::from_code(-22).message();
    let full = ttt::Error::from_code(-23).message();
    assert_ne!(floating, full);
    assert_ne!(floating, ttt::Error::from_code(-1).message());
}

#[test]
fn connect_four_shape() {
    let game = connect4();
    assert_eq!((game.width(), game.height(), game.win_length()), (7, 6, 4));
    assert!(game.gravity());
    assert_eq!(game.board().len(), 42);
    assert_eq!(Game::new(4, 3).unwrap().width(), 4);
    assert!(!Game::new(4, 3).unwrap().gravity());
    assert_eq!(Game::new_rect(5, 5, 0).unwrap().size(), 5);
    assert_eq!(Game::new_rect(5, 3, 0).unwrap().win_length(), 3);
    assert_eq!(Game::new_rect(3, 5, 5).unwrap().win_length(), 5);
}

#[test]
#[should_panic(expected = "7x6 rectangle")]
fn size_of_a_rectangle_panics() {
    connect4().size();
}

#[test]
fn bad_rectangles_are_refused() {
    for (w, h, k) in [(2, 6, 0), (7, 2, 0), (7, 6, 8), (7, 6, 2), (1025, 6, 4)] {
        assert_eq!(Game::new_rect(w, h, k).unwrap_err().kind(), ErrorKind::Size, "{w}x{h} k={k}");
    }
}

#[test]
fn drop_lands_on_the_lowest_empty_cell() {
    let game = connect4();
    assert_eq!(game.drop(3).unwrap(), (5, State::InProgress));
    assert_eq!(game.drop(3).unwrap(), (4, State::InProgress));
    assert_eq!(game.cell(5, 3).unwrap(), Some(Mark::X));
    assert_eq!(game.cell(4, 3).unwrap(), Some(Mark::O));
    assert_eq!(game.to_move(), Some(Mark::X));
    // Without gravity a drop lands too, and any empty cell may be played.
    let plain = Game::new_rect(4, 3, 3).unwrap();
    assert_eq!(plain.drop(1).unwrap(), (2, State::InProgress));
    plain.play(0, 0).unwrap();
}

#[test]
fn a_floating_cell_is_refused_and_changes_nothing() {
    let game = connect4();
    game.drop(2).unwrap();
    let before = snapshot(&game);
    for (row, col) in [(0, 0), (4, 0), (3, 2), (0, 2)] {
        assert_eq!(game.play(row, col).unwrap_err().kind(), ErrorKind::Floating);
        assert_eq!(game.play_as(Mark::O, row, col).unwrap_err().kind(), ErrorKind::Floating);
        assert_eq!(snapshot(&game), before);
    }
    assert_eq!(game.play_name("c5").unwrap(), State::InProgress);
}

#[test]
fn a_full_column_is_refused_and_changes_nothing() {
    let game = connect4();
    for _ in 0..6 {
        game.drop(0).unwrap();
    }
    let before = snapshot(&game);
    assert_eq!(game.drop(0).unwrap_err().kind(), ErrorKind::ColumnFull);
    assert_eq!(game.play(0, 0).unwrap_err().kind(), ErrorKind::Occupied);
    assert_eq!(game.drop(7).unwrap_err().kind(), ErrorKind::OffBoard);
    assert_eq!(game.drop(usize::MAX).unwrap_err().kind(), ErrorKind::OffBoard);
    assert_eq!(snapshot(&game), before);
    assert!(game.legal_moves().iter().all(|&(_, col)| col != 0));
}

#[test]
fn legal_moves_under_gravity_are_the_landing_cells() {
    let game = connect4();
    assert_eq!(game.legal_moves(), (0..7).map(|c| (5, c)).collect::<Vec<_>>());
    game.drop(3).unwrap();
    game.drop(3).unwrap();
    let mut want = vec![(3, 3)];
    want.extend((0..7).filter(|&c| c != 3).map(|c| (5, c)));
    assert_eq!(game.legal_moves(), want);
    let mut seed = 9;
    for _ in 0..20 {
        let cell = game.best_move(BotLevel::Random, 0, Some(&mut seed)).unwrap();
        assert!(want.contains(&cell), "random move {cell:?}");
    }
}

#[test]
fn wins_in_every_direction_on_connect_four() {
    // (drops, the winning line's two ends)
    type Case = (&'static [usize], [(usize, usize); 2]);
    let cases: [Case; 4] = [
        (&[0, 0, 1, 1, 2, 2, 3], [(5, 0), (5, 3)]),
        (&[4, 5, 4, 5, 4, 5, 4], [(2, 4), (5, 4)]),
        (&[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], [(2, 3), (5, 0)]),
        (&[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], [(2, 3), (5, 6)]),
    ];
    for (drops, line) in cases {
        let game = connect4();
        let (last, first) = drops.split_last().unwrap();
        for &col in first {
            assert_eq!(game.drop(col).unwrap().1, State::InProgress, "{drops:?}");
        }
        assert_eq!(game.drop(*last).unwrap().1, State::XWon, "{drops:?}");
        let (a, b) = game.winning_line().unwrap();
        let mut ends = [a, b];
        ends.sort_unstable();
        let mut want = line;
        want.sort_unstable();
        assert_eq!(ends, want, "{drops:?}");
    }
}

#[test]
fn taller_than_wide_with_k_longer_than_the_width() {
    let game = Game::new_rect(3, 7, 5).unwrap();
    for row in 0..4 {
        game.play(row, 0).unwrap();
        game.play(row, 2).unwrap();
    }
    assert_eq!(game.play(4, 0).unwrap(), State::XWon);
    // Wider than tall: three-high columns never make four.
    let wide = Game::new_rect(6, 3, 4).unwrap();
    for (row, col) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)] {
        wide.play(row, col).unwrap();
    }
    assert_eq!(wide.state(), State::InProgress);
}

#[test]
fn undo_redo_and_records_under_gravity() {
    let game = connect4();
    for col in [3, 3, 2] {
        game.drop(col).unwrap();
    }
    let after = snapshot(&game);
    game.undo().unwrap();
    assert_eq!(game.cell(5, 2).unwrap(), None);
    game.redo().unwrap();
    assert_eq!(snapshot(&game), after);
    let record = game.save().unwrap();
    assert!(record.contains(" w=7 h=6 ") && record.contains("gravity"), "{record}");
    assert!(record.ends_with("moves=d6,d5,c6\n"), "{record}");
    let loaded = Game::load(&record).unwrap();
    assert_eq!((loaded.width(), loaded.height(), loaded.gravity()), (7, 6, true));
    assert_eq!(loaded.save().unwrap(), record);
    assert_eq!(loaded.play(0, 0).unwrap_err().kind(), ErrorKind::Floating);
    let copy = game.try_clone().unwrap();
    assert!(copy.gravity());
    assert_eq!(copy.board(), game.board());
}

#[test]
fn display_draws_width_columns_and_height_rows() {
    let game = Game::new_rect(5, 3, 3).unwrap();
    game.play(2, 4).unwrap();
    assert_eq!(game.to_string(), "   a b c d e\n1  . . . . .\n2  . . . . .\n3  . . . . X");
}

#[test]
fn connect_four_perft_matches_the_published_counts() {
    // 7^d games of d plies until a column can fill up.
    for (depth, games) in [(1, 7u64), (2, 49), (3, 343), (4, 2401), (5, 16807)] {
        let perft = connect4().perft(depth, 0).unwrap();
        assert_eq!(perft.counts.in_progress, games, "depth {depth}");
        assert_eq!(perft.by_length[depth], games, "depth {depth}");
    }
    let rect = Game::new_rect(5, 3, 3).unwrap().perft(2, 0).unwrap();
    assert_eq!(rect.counts.in_progress, 15 * 14);
}

#[test]
fn small_gravity_boards_solve_as_published() {
    // 4x4 with gravity: K = 3 is a first-player win, K = 4 a draw.
    let win = Game::new_rect(4, 4, 3).unwrap();
    win.set_gravity(true).unwrap();
    let solution = win.solve().unwrap();
    assert!(solution.complete);
    assert_eq!(solution.value, Value::Win);
    let legal = win.legal_moves();
    assert!(!solution.best.is_empty());
    assert!(solution.best.iter().all(|cell| legal.contains(cell)), "{:?}", solution.best);
    let draw = Game::new_rect(4, 4, 4).unwrap();
    draw.set_gravity(true).unwrap();
    assert_eq!(draw.solve().unwrap().value, Value::Draw);
}
