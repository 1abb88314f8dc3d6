//! AFL++ target: `tetrad::fuzz::game_text` (see scripts/fuzz.sh); with files named, replays them.
fn main() {
    if tetrad_fuzz::replay_files(tetrad::fuzz::game_text) {
        return;
    }
    // Before AFL's fork server starts, so that every child has it done.
    tetrad::fuzz::warm_up();
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::game_text(data);
    });
}
