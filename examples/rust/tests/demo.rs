//! demo.rs - runs the demo program and checks the game it reports.
use std::process::Command;

#[test]
fn the_demo_plays_its_game() {
    let output = Command::new(env!("CARGO_BIN_EXE_ttt-demo")).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    // X holds b1, b2 and b3: column b, from row 0 to row 2.
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("b2 refused: cell is already occupied (code -6)"), "{text}");
    assert!(text.contains("result: XWon, line Some(((0, 1), (2, 1)))"), "{text}");
    assert!(text.contains("record: ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3,c1,b1,a2,b3\n"), "{text}");
    assert!(text.contains("solver: the empty board is a Draw in 9 plies; optimal first moves: 9"), "{text}");
    assert!(text.contains("perfect play: Draw"), "{text}");
}
