use super::*;

#[test]
fn perft_reference() {
    for adv in [false, true] {
        let g = Pods::new(adv);
        for r in [0, 90, 180, 270] {
            let p = g.start_rotated(r).unwrap();
            println!("{} {} {} {}", adv, r, g.perft(&p, 1), g.perft(&p, 2));
        }
    }
}
