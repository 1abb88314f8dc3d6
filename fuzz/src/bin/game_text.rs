//! AFL++ target: `tetrad::fuzz::game_text` (see scripts/fuzz.sh); with files named, replays them.
fn main() {
    if tetrad_fuzz::replay_files(tetrad::fuzz::game_text) {
        return;
    }
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::game_text(data);
    });
}
