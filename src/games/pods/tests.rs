use super::*;
use rand::{Rng, SeedableRng};

#[test]
#[ignore]
fn explore() {
    let g = Pods::new(false);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut lens = vec![];
    for game in 0..20 {
        let mut pos = Pos::start(rng.gen_range(0..4));
        let mut hist = vec![pos];
        loop {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                break;
            }
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
            hist.push(pos);
        }
        lens.push(hist.len() - 1);
        for back in [4usize, 6, 8, 10, 12, 14] {
            if back >= hist.len() {
                continue;
            }
            let p = hist[hist.len() - 1 - back];
            let t0 = std::time::Instant::now();
            let s = g.solve(&p, 20_000_000);
            let mut n = vec![];
            g.legal_moves(&p, &mut n);
            println!(
                "game {game} back {back} moves {} pts {} -> {:?} {:?}",
                n.len(),
                solver_points(&g, &p),
                s.map(|s| (s.win, s.nodes)),
                t0.elapsed()
            );
        }
    }
    println!("{lens:?}");
}

fn solver_points(g: &Pods, p: &Pos) -> u32 {
    let mut pts = 0u64;
    for c in 0..2 {
        g.tables
            .for_each_placement(p, c, false, |q, _| pts |= 1 << q);
    }
    pts.count_ones()
}

#[test]
#[ignore]
fn solver_bench() {
    let g = Pods::new(false);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut set = vec![];
    for _ in 0..20 {
        let mut pos = Pos::start(rng.gen_range(0..4));
        let mut hist = vec![pos];
        loop {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                break;
            }
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
            hist.push(pos);
        }
        for back in [4usize, 6, 8, 10, 12] {
            if back < hist.len() {
                set.push(hist[hist.len() - 1 - back]);
            }
        }
    }
    let t0 = std::time::Instant::now();
    let mut nodes = 0;
    let mut worst = 0;
    for (i, p) in set.iter().enumerate() {
        let s = g.solve(p, 5_000_000).unwrap();
        nodes += s.nodes;
        worst = worst.max(s.nodes);
        if i < 5 {
            println!("{} {:?}", i, s);
        }
    }
    println!(
        "BENCH {} positions nodes {} worst {} time {:?}",
        set.len(),
        nodes,
        worst,
        t0.elapsed()
    );
}
