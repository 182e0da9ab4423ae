//! demo.rs - plays a short game through the safe bindings and prints it (cargo run --example demo).
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
    Ok(())
}
