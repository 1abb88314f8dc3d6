//! AFL++ target: `tetrad::fuzz::pods_data` (see scripts/fuzz.sh).
fn main() {
    afl::fuzz!(|data: &[u8]| {
        tetrad::fuzz::pods_data(data);
    });
}
