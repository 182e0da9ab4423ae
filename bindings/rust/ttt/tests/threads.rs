//! threads.rs - eight threads share one Game through an Arc: plays, undos, bots and readers race, and the history stays legal.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use ttt::{ErrorKind, Event, Game, Mark, State};

const THREADS: u64 = 8;
/// Enough rounds that the C library built without its lock
/// (CFLAGS="-UTTT_THREADS -DTTT_THREADS=0") fails this test: it did, in
/// every trial, in the clone/save/load check; about 2 s in a debug build.
const ROUNDS: usize = 100_000;

#[test]
fn eight_threads_share_one_game() {
    let mut game = Game::new(7, 4).unwrap();
    let events = Arc::new(AtomicUsize::new(0));
    let heard = Arc::clone(&events);
    game.set_listener(move |event| {
        if let Event::Play { ply, .. } | Event::Redo { ply, .. } = event {
            assert!((1..=49).contains(ply));
        }
        heard.fetch_add(1, Ordering::Relaxed);
    })
    .unwrap();
    let game = Arc::new(game);

    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let game = Arc::clone(&game);
            thread::spawn(move || {
                let mut seed = t;
                let mut applied = 0usize;
                for round in 0..ROUNDS {
                    let result = match (round + t as usize) % 7 {
                        0..=2 => match game.random_move(&mut seed) {
                            Ok((row, col)) => game.play(row, col).map(drop),
                            Err(e) => Err(e),
                        },
                        3 => game.undo(),
                        4 => game.redo(),
                        5 => {
                            // Readers see whole positions.
                            let board = game.board();
                            let (x, o) = board.iter().fold((0, 0), |(x, o), m| match m {
                                Some(Mark::X) => (x + 1, o),
                                Some(Mark::O) => (x, o + 1),
                                None => (x, o),
                            });
                            assert!(x == o || x == o + 1, "{x} X and {o} O");
                            let copy = game.try_clone().unwrap();
                            assert_eq!(Game::load(&copy.save().unwrap()).unwrap().board(), copy.board());
                            Ok(())
                        }
                        _ => {
                            if round % 500 == 6 {
                                game.reset()
                            } else {
                                game.best_move(ttt::BotLevel::Random, 0, Some(&mut seed))
                                    .and_then(|(row, col)| game.play(row, col))
                                    .map(drop)
                            }
                        }
                    };
                    match result {
                        Ok(()) => applied += usize::from((round + t as usize) % 7 != 5),
                        // Lost races: another thread moved first.
                        Err(e) => assert!(
                            matches!(
                                e.kind(),
                                ErrorKind::Occupied
                                    | ErrorKind::GameOver
                                    | ErrorKind::NoUndo
                                    | ErrorKind::NoRedo
                            ),
                            "{e:?}"
                        ),
                    }
                }
                applied
            })
        })
        .collect();
    let applied: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();

    // Every applied change was heard exactly once.
    assert_eq!(events.load(Ordering::Relaxed), applied);
    // The final history is a legal game: replayed from scratch it gives the
    // same board, state and record.
    let replay = Game::new(7, 4).unwrap();
    let moves = game.moves().unwrap();
    assert_eq!(moves.len(), game.ply());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.mark, if i % 2 == 0 { Mark::X } else { Mark::O });
        assert_eq!(replay.state(), State::InProgress, "a move after the end");
        replay.play_as(m.mark, m.row, m.col).unwrap();
    }
    assert_eq!(replay.board(), game.board());
    assert_eq!(replay.state(), game.state());
    assert_eq!(replay.save().unwrap(), game.save().unwrap());
}
