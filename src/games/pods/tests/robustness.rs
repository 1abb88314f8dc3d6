//! Parsers and the data file reader against random and edited input: never a panic.

use super::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn parsers_never_panic(text in "\\PC{0,60}") {
        let g = game(true);
        let _ = g.parse_position(&text);
        let _ = g.parse_move(&g.start(), &text);
        let _ = PodsData::parse(&text, "prop");
    }

    /// Edits of the real file (a character changed, a line dropped or doubled): never a
    /// panic, and whatever is accepted writes back as text that parses to the same data.
    #[test]
    fn edited_data_files_never_panic_and_round_trip(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<prop::sample::Index>()), 1..4),
    ) {
        const ALPHABET: &[char] = &['-', 's', 'L', 'a', 'f', '1', '6', '7', ' ', ':', '=', 'N', 'E', 'O', '#', '['];
        let mut lines: Vec<String> = crate::games::pods::data::BUILTIN_TEXT.lines().map(str::to_string).collect();
        for (at, op, what) in edits {
            let i = at.index(lines.len());
            match op {
                0 => { lines.remove(i); }
                1 => { let l = lines[i].clone(); lines.insert(i, l); }
                _ => {
                    let mut chars: Vec<char> = lines[i].chars().collect();
                    if !chars.is_empty() {
                        let j = what.index(chars.len());
                        chars[j] = ALPHABET[what.index(ALPHABET.len())];
                    }
                    lines[i] = chars.into_iter().collect();
                }
            }
            if lines.is_empty() {
                break;
            }
        }
        let text = lines.join("\n");
        if let Ok(d) = PodsData::parse(&text, "prop") {
            prop_assert_eq!(PodsData::parse(&d.to_text(), "prop"), Ok(d));
        }
    }

    #[test]
    fn position_like_strings_never_panic(
        rows in "[1-7a-oA-O/]{0,40}",
        side in "[wbx]",
        hands in "[A-Na-n-]{0,16}",
    ) {
        let g = game(false);
        let _ = g.parse_position(&format!("{rows} {side} {hands} {hands} 90"));
    }
}
