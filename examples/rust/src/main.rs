//! main.rs - the Rust demo: plays a game through the ttt crate with a listener, then asks the solver and lets two perfect bots play (cargo run --offline).
use ttt::{BotLevel, Event, Game, State};

fn main() -> Result<(), ttt::Error> {
    println!("libttt {}", ttt::version());
    let mut game = Game::new(3, 0)?;
    game.set_listener(|event| {
        if let Event::Play { mark, row, col, .. } = *event {
            let name = ttt::cell_name(row, col).unwrap_or_default();
            println!("  {mark} plays {name}");
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
    println!("result: {state:?}, line {:?}", game.winning_line());
    print!("record: {}", game.save()?);

    let game = Game::new(3, 0)?;
    let solution = game.solve()?;
    println!(
        "solver: the empty board is a {:?} in {} plies; optimal first moves: {}",
        solution.value,
        solution.plies.unwrap_or(0),
        solution.best.len()
    );
    let mut seed = 2024;
    while !game.state().is_over() {
        let (row, col) = game.best_move(BotLevel::Perfect, 0, Some(&mut seed))?;
        game.play(row, col)?;
    }
    println!("{game}\nperfect play: {:?}", game.state());
    Ok(())
}
