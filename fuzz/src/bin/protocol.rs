//! AFL++ target: `tetrad::fuzz::protocol` (see scripts/fuzz.sh).
fn main() {
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::protocol(data);
    });
}
