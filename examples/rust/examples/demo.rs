//! demo.rs - plays a game through the safe bindings, then two perfect bots (cargo run --example demo).
use ttt::{Event, Game, State};

fn main() -> Result<(), ttt::Error> {
    println!("libttt {}", ttt::version());
    let mut game = Game::new(3, 0)?;
    game.set_listener(|event| {
        if let Event::Play { mark, row, col, .. } = event {
            println!(
                "  {} plays {}",
                mark,
                ttt::cell_name(row, col).unwrap_or_default()
            );
        }
    })?;
    for name in ["b2", "a1", "c3", "c1"] {
        game.play_name(name)?;
    }
    if let Err(e) = game.play_name("b2") {
        println!("  b2 refused: {e} (code {})", e.code());
    }
    let mut state = State::InProgress;
    for name in ["b1", "a2", "b3"] {
        state = game.play_name(name)?;
    }
    println!("{game}");
    println!("result: {:?}, line {:?}", state, game.winning_line());
    print!("record: {}", game.save()?);
    #[cfg(ttt_engine)]
    perfect_play()?;
    Ok(())
}

/// The solver's verdict on the empty board, then a game between two perfect bots.
#[cfg(ttt_engine)]
fn perfect_play() -> Result<(), ttt::Error> {
    let mut game = Game::new(3, 0)?;
    let solution = game.solve(0, 0, false)?;
    println!(
        "solver: the empty board is a {:?} in {} plies",
        solution.value,
        solution.plies.unwrap_or(0)
    );
    let mut seed = 2024;
    while !game.state().is_over() {
        let (row, col) = game.best_move(ttt::Bot::Perfect, 0, Some(&mut seed))?;
        game.play(row, col)?;
    }
    println!("{game}\nperfect play: {:?}", game.state());
    Ok(())
}
