use super::*;

#[test]
fn gtp_frames_with_and_without_id() {
    assert_eq!(
        gtp_frame("12 play c3-d4"),
        Ok((Some(12), "play".into(), "c3-d4"))
    );
    assert_eq!(gtp_frame("NAME"), Ok((None, "name".into(), "")));
    assert_eq!(gtp_id("7 bogus"), Some(7));
    assert!(gtp_frame("").is_err());
}

#[test]
fn gtp_arguments() {
    assert_eq!(
        gtp_command("play", "b c5:e3"),
        Ok(Gtp::Play {
            side: Some("b".into()),
            mv: "c5:e3".into(),
            extra: None,
        })
    );
    assert!(gtp_command("play", "").is_err());
    assert_eq!(
        gtp_command("play", "a b c d"),
        Ok(Gtp::Play {
            side: Some("a".into()),
            mv: "b".into(),
            extra: Some("c d".into()),
        })
    );
    assert_eq!(gtp_command("perft", "3"), Ok(Gtp::Perft(3)));
    assert!(gtp_command("perft", "-3").is_err());
    assert!(gtp_command("perft", "99999999999").is_err());
    assert_eq!(
        gtp_command("time_settings", "300 5.5 0"),
        Ok(Gtp::TimeSettings {
            main: 300.0,
            byo: 5.5,
            stones: 0
        })
    );
    assert_eq!(
        gtp_command("kgs-time_settings", "canadian 60 30 5"),
        Ok(Gtp::KgsTimeSettings(KgsTime::Canadian {
            main: 60.0,
            byo: 30.0,
            stones: 5
        }))
    );
    assert_eq!(
        gtp_command("set_option", "MoveTime 100"),
        Ok(Gtp::SetOption {
            name: "movetime".into(),
            value: "100".into()
        })
    );
    assert!(gtp_command("name", "x").is_err());
    assert!(gtp_command("frobnicate", "").is_err());
}

#[test]
fn ugi_position_and_go() {
    assert_eq!(
        ugi_line("position startpos moves c3-d4 f6-e5"),
        Ok(Ugi::Position {
            fen: None,
            moves: vec!["c3-d4".into(), "f6-e5".into()]
        })
    );
    assert_eq!(
        ugi_line("position fen 7/8/8/8/8/8/8/7 b 12 12 0 moves e4"),
        Ok(Ugi::Position {
            fen: Some("7/8/8/8/8/8/8/7 b 12 12 0".into()),
            moves: vec!["e4".into()]
        })
    );
    assert!(ugi_line("position").is_err());
    assert!(ugi_line("position fen").is_err());
    assert!(ugi_line("position startpos c3-d4").is_err());
    let Ok(Ugi::Go(go)) = ugi_line("go wtime 1000 btime -5 winc 10 binc 10 movestogo 3") else {
        panic!("go did not parse");
    };
    assert_eq!(
        (go.wtime, go.btime, go.winc),
        (Some(1000), Some(0), Some(10))
    );
    assert_eq!(go.movestogo, Some(3));
    assert!(ugi_line("go depth").is_err());
    assert!(ugi_line("go sideways 3").is_err());
    assert_eq!(
        ugi_line("go infinite"),
        Ok(Ugi::Go(Go {
            infinite: true,
            ..Go::default()
        }))
    );
}

#[test]
fn go_limits_below_one_are_refused_and_negative_clocks_noted() {
    let refused = |line: &str| match ugi_line(line) {
        Err(e) => e.to_string(),
        Ok(c) => panic!("{line} accepted: {c:?}"),
    };
    assert_eq!(
        refused("go depth -3"),
        "go depth must be at least 1, got -3"
    );
    assert_eq!(refused("go nodes 0"), "go nodes must be at least 1, got 0");
    assert_eq!(
        refused("go binc -1"),
        "go binc must not be negative, got -1"
    );
    assert_eq!(refused("go depth --3"), "go depth needs a number");
    let Ok(Ugi::Go(go)) = ugi_line("go p1time -7 p2time 0 p1inc 0") else {
        panic!("go did not parse");
    };
    assert_eq!(
        (go.p1time, go.p2time, go.p1inc),
        (Some(0), Some(0), Some(0))
    );
    assert_eq!(go.overdrawn, vec![("p1time".to_string(), "-7".to_string())]);
}

#[test]
fn ugi_setoption_with_spaces() {
    assert_eq!(
        ugi_line("setoption name Move Overhead value 30"),
        Ok(Ugi::SetOption {
            name: "Move Overhead".into(),
            value: "30".into()
        })
    );
    assert_eq!(
        ugi_line("setoption name UCI_Variant value diamond"),
        Ok(Ugi::SetOption {
            name: "UCI_Variant".into(),
            value: "diamond".into()
        })
    );
    assert!(ugi_line("setoption value 3").is_err());
}
