//! AFL++ target: `tetrad::fuzz::game_text` (see scripts/fuzz.sh).
fn main() {
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::game_text(data);
    });
}
