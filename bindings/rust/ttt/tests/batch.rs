//! batch.rs - the safe Batch against Game: the same moves give the same boards, rewards and flags, and the writers fill their buffers.
use ttt::{Batch, BatchConfig, BotLevel, ErrorKind, Game, Mark, StepOutputs};

#[test]
fn a_batch_plays_like_single_games() {
    let config = BatchConfig::connect_four();
    let mut batch = Batch::new(&config, 4).unwrap();
    let games: Vec<Game> = (0..4)
        .map(|_| {
            let g = Game::new_rect(7, 6, 4).unwrap();
            g.set_gravity(true).unwrap();
            g
        })
        .collect();
    let mut out = StepOutputs::new(4);
    let mut state = 12345u64;
    let mut ended = 0;
    for _ in 0..200 {
        let mut actions = [0i32; 4];
        for (i, game) in games.iter().enumerate() {
            let legal = game.legal_moves();
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            actions[i] = legal[(state >> 33) as usize % legal.len()].1 as i32;
        }
        batch.step(&actions, &mut out);
        for (i, game) in games.iter().enumerate() {
            let mover = game.to_move().unwrap();
            let (_, state) = game.drop(actions[i] as usize).unwrap();
            assert_eq!(out.status[i], 0);
            assert_eq!(out.outcome[i], state.raw());
            let expected = match state {
                ttt::State::XWon if mover == Mark::X => 1.0,
                ttt::State::OWon if mover == Mark::O => 1.0,
                ttt::State::XWon | ttt::State::OWon => -1.0,
                _ => 0.0,
            };
            assert_eq!(out.rewards[i], expected);
            assert_eq!(out.terminated[i], u8::from(state != ttt::State::InProgress));
            assert_eq!(out.truncated[i], 0);
            if state != ttt::State::InProgress {
                game.reset().unwrap();
                ended += 1;
            }
            assert_eq!(batch.board(i).unwrap(), game.board());
        }
    }
    assert!(ended > 5);
}

#[test]
fn writers_fill_their_buffers() {
    let mut batch = Batch::new(&BatchConfig::default(), 2).unwrap();
    assert_eq!((batch.len(), batch.action_count(), batch.observation_len()), (2, 9, 36));
    let mut out = StepOutputs::new(2);
    batch.step(&[4, 9], &mut out);
    assert_eq!(out.status[1], ttt::sys::TTT_E_OFF_BOARD);
    let mut planes = vec![9u8; 36];
    batch.observe_u8(&mut planes).unwrap();
    // Game 0: X in the centre, seen by O in the second plane.
    assert_eq!(planes[4], 0);
    assert_eq!(planes[9 + 4], 1);
    assert_eq!(planes[18..36], [0u8; 18]);
    let mut floats = vec![9f32; 36];
    batch.observe_f32(&mut floats).unwrap();
    assert_eq!(floats[13], 1.0);
    let mut mask = vec![9u8; 18];
    batch.legal_mask(&mut mask).unwrap();
    assert_eq!(mask[4], 0);
    assert_eq!(mask.iter().map(|&m| m as usize).sum::<usize>(), 17);
    assert_eq!(batch.observe_u8(&mut planes[..35]).unwrap_err().kind(), ErrorKind::Buffer);
    assert_eq!(batch.set_moves(0, &[0, 0]).unwrap_err().kind(), ErrorKind::Occupied);
    batch.set_moves(1, &[0, 1]).unwrap();
    assert_eq!(batch.board(1).unwrap()[..2], [Some(Mark::X), Some(Mark::O)]);
    assert_eq!(batch.board(2).unwrap_err().kind(), ErrorKind::Range);
    batch.reset();
    assert!(batch.board(1).unwrap().iter().all(|m| m.is_none()));
}

#[test]
fn a_seeded_opponent_is_reproducible() {
    let config = BatchConfig {
        opponent: Some(BotLevel::Random),
        agent: None,
        ..BatchConfig::connect_four()
    };
    let run = |seed| {
        let mut batch = Batch::new(&config, 8).unwrap();
        batch.seed(seed);
        batch.reset();
        let mut out = StepOutputs::new(8);
        let mut planes = vec![0u8; batch.observation_len()];
        let mut all = Vec::new();
        for step in 0..40 {
            let actions: Vec<i32> = (0..8).map(|i| (step + i) % 7).collect();
            batch.step(&actions, &mut out);
            batch.observe_u8(&mut planes).unwrap();
            all.extend_from_slice(&planes);
        }
        all
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn step_final_keeps_an_ended_games_last_position_and_skips_flagged_games() {
    let mut batch = Batch::new(&BatchConfig::default(), 2).unwrap();
    // Game 0: X a1 b1, O a2 b2 (cells 0, 1 and 3, 4); X to move wins with 2.
    batch.set_moves(0, &[0, 3, 1, 4]).unwrap();
    batch.set_moves(1, &[0]).unwrap();
    let mut out = StepOutputs::new(2);
    let mut last = vec![7u8; 36];
    // Too short a buffer: refused, and neither game moves.
    let err = batch.step_final(&[2, 8], Some(&[0, 1]), &mut out, &mut last[..35]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Buffer);
    assert_eq!(batch.board(0).unwrap().iter().filter(|m| m.is_some()).count(), 4);
    batch.step_final(&[2, 8], Some(&[0, 1]), &mut out, &mut last).unwrap();
    assert_eq!((out.rewards[0], out.terminated[0], out.outcome[0]), (1.0, 1, ttt::sys::TTT_X_WON));
    // The last position: plane 0 is O's (the side not to have moved last),
    // plane 1 X's winning row; the game itself has reset.
    let o_plane: Vec<u8> = (0..9).map(|c| u8::from(c == 3 || c == 4)).collect();
    let x_plane: Vec<u8> = (0..9).map(|c| u8::from(c < 3)).collect();
    assert_eq!(&last[..9], &o_plane[..]);
    assert_eq!(&last[9..18], &x_plane[..]);
    assert!(batch.board(0).unwrap().iter().all(|m| m.is_none()));
    // Game 1 was skipped: its board, outputs and slice are untouched.
    assert_eq!((out.rewards[1], out.terminated[1], out.status[1], out.outcome[1]), (0.0, 0, 0, 0));
    assert!(last[18..].iter().all(|&v| v == 7));
    let board = batch.board(1).unwrap();
    assert_eq!(board[0], Some(Mark::X));
    assert_eq!(board.iter().filter(|m| m.is_some()).count(), 1);
}
