//! The engine's runtime tunables and the SPSA tuner (`plateau engine-params`, `engine(params=FILE)`, `plateau spsa`).

use plateau::arena::spsa::{self, SpsaConfig};
use plateau::engine::tunables::{PARAMS, SearchParams};
use plateau::game::Game;
use plateau::games::Breakthrough;
use plateau::players::searcher as build;
use plateau::search::{Limits, Searcher};
use plateau::spec::Spec;

fn small() -> Breakthrough {
    Breakthrough::from_spec(&Spec::parse("breakthrough(rows=6,columns=5)").unwrap()).unwrap()
}

fn nodes_at_depth(g: &Breakthrough, player: &str) -> u64 {
    let mut p: Box<dyn Searcher<Breakthrough>> = build(player).unwrap();
    p.set_limits(Limits { depth: Some(7), ..Limits::default() });
    p.search(g, &g.start()).stats.nodes
}

#[test]
fn a_tunable_changes_the_search_and_a_file_sets_it() {
    let g = Breakthrough::default();
    let base = nodes_at_depth(&g, "engine(tt=16mb)");
    // 8x8 Breakthrough's own default (the tuned file's 77, not the general 90).
    assert_eq!(base, nodes_at_depth(&g, "engine(tt=16mb,rfp_margin=77)"), "the default, said out loud");
    assert_ne!(base, nodes_at_depth(&g, "engine(tt=16mb,rfp_margin=30)"));
    let dir = std::env::temp_dir().join(format!("plateau-spsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.txt");
    std::fs::write(&file, "# test\nrfp_margin = 30\n").unwrap();
    let from_file = format!("engine(tt=16mb,params={})", file.display());
    assert_eq!(nodes_at_depth(&g, &from_file), nodes_at_depth(&g, "engine(tt=16mb,rfp_margin=30)"));
    // The player string wins over the file, and the name writes the values back.
    let both = format!("engine(tt=16mb,params={},rfp_margin=77)", file.display());
    assert_eq!(nodes_at_depth(&g, &both), base);
    let p: Box<dyn Searcher<Breakthrough>> = build(&from_file).unwrap();
    assert_eq!(p.name(), "engine(tt=16mb,rfp_margin=30)");
    std::fs::write(&file, "rfp_margin = 3000\n").unwrap();
    let e = build::<Breakthrough>(&from_file).err().expect("out of range").to_string();
    assert!(e.contains("rfp_margin=3000") && !e.contains('\n'), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn breakthrough_8x8_defaults_are_the_tuned_file_and_other_games_keep_the_general_ones() {
    let g = Breakthrough::default();
    let tuned = concat!(env!("CARGO_MANIFEST_DIR"), "/data/params/breakthrough-spsa-20k.txt");
    let every_general = SearchParams::default().to_text().replace(" = ", "=").trim().replace('\n', ",");
    let base = nodes_at_depth(&g, "engine(tt=16mb)");
    assert_eq!(base, nodes_at_depth(&g, &format!("engine(tt=16mb,params={tuned})")));
    let general = nodes_at_depth(&g, "engine(tt=16mb,params=general)");
    assert_ne!(base, general, "the tuned values change the search");
    assert_eq!(general, nodes_at_depth(&g, &format!("engine(tt=16mb,{every_general})")));
    // Another size, and another evaluation on 8x8, search with the general defaults.
    let s = small();
    assert_eq!(nodes_at_depth(&s, "engine(tt=16mb)"), nodes_at_depth(&s, "engine(tt=16mb,params=general)"));
    assert_ne!(nodes_at_depth(&s, "engine(tt=16mb)"), nodes_at_depth(&s, &format!("engine(tt=16mb,params={tuned})")));
    let pst = nodes_at_depth(&g, "engine(tt=16mb,eval=pst)");
    assert_eq!(pst, nodes_at_depth(&g, "engine(tt=16mb,eval=pst,params=general)"));
    // A value given equal to the general default is written back and kept on 8x8; so is params=general.
    let p: Box<dyn Searcher<Breakthrough>> = build("engine(rfp_margin=90)").unwrap();
    assert_eq!(p.name(), "engine(rfp_margin=90)");
    assert_ne!(nodes_at_depth(&g, "engine(tt=16mb,rfp_margin=90)"), base);
    let p: Box<dyn Searcher<Breakthrough>> = build("engine(params=general,nodes=5000)").unwrap();
    assert_eq!(p.name(), "engine(nodes=5000,params=general)");
}

#[test]
fn spsa_runs_repeatably_within_the_ranges() {
    let g = small();
    let cfg = SpsaConfig {
        engine: "engine(nodes=300,tt=1mb)".into(),
        names: vec!["rfp_margin".into(), "futility_margin".into(), "cost_capture".into()],
        start: SearchParams::default(),
        iterations: 4,
        pairs: 1,
        r_end: 0.05,
        limit: None,
        random_plies: 2,
        seed: 9,
        concurrency: 1,
    };
    let mut seen = Vec::new();
    let a = spsa::run(&g, &cfg, |p| seen.push((p.iteration, p.result))).unwrap();
    let b = spsa::run(&g, &cfg, |_| {}).unwrap();
    assert_eq!(a, b, "node-limited games: the same run twice");
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    assert!(seen.iter().all(|s| (-2.0..=2.0).contains(&s.1)));
    for i in PARAMS {
        let v = a.get(i.name).unwrap();
        assert!(i.min <= v && v <= i.max, "{} = {v}", i.name);
        if !cfg.names.iter().any(|n| n == i.name) {
            assert_eq!(v, i.default, "{} is not tuned", i.name);
        }
    }
    let bad = SpsaConfig { names: vec!["nope".into()], ..cfg };
    assert!(spsa::run(&g, &bad, |_| {}).unwrap_err().contains("unknown engine parameter"));
}
