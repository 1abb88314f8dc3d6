//! AFL++ target: `tetrad::fuzz::protocol` (see scripts/fuzz.sh); with files named, replays them.
fn main() {
    if tetrad_fuzz::replay_files(tetrad::fuzz::protocol) {
        return;
    }
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::protocol(data);
    });
}
