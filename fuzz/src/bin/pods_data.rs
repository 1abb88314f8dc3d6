//! AFL++ target: `tetrad::fuzz::pods_data` (see scripts/fuzz.sh); with files named, replays them.
fn main() {
    if tetrad_fuzz::replay_files(tetrad::fuzz::pods_data) {
        return;
    }
    // Before AFL's fork server starts, so that every child has it done.
    tetrad::fuzz::warm_up();
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::pods_data(data);
    });
}
