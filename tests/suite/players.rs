//! `plateau players [GAME]`, the names in `--help` and `GET /api/players`: every registered player is listed with its
//! parameters, and the table of parameters is held to the parsers: every parameter a parser reads is listed, every
//! listed one is accepted, every other refused, and a listed default written out builds the same player.

use plateau::game::{Capabilities, Game};
use plateau::game::{FullGame, Kind};
use plateau::games::{MatchingPennies, PhantomTicTacToe, Pig, TicTacToe};
use plateau::players::{self, PlayerInfo, listing, params};

use crate::common::*;

/// The names a player of `kind` must list: its table, and the engine's tunables where it reads them.
fn listed(name: &str, kind: Kind) -> Vec<params::ParamRow> {
    let report = listing::report(None);
    let entry = report.players.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name} not listed"));
    let set = entry
        .params
        .iter()
        .find(|s| s.on.split("; ").any(|on| on == kind.describe()))
        .unwrap_or_else(|| panic!("{name}: no parameters listed for {}", kind.describe()));
    set.params.clone()
}

/// Parameters that change nothing alone, so that a player string drops them: the book's settings without a book.
const ONLY_WITH_ANOTHER: [&str; 3] = ["book_margin", "book_random", "book_seed"];

/// A player built from `text` (its parameter `r` set to the table's example) writes the parameter back in its name
/// (the string the match header, the records and `plateau players` show), and that name builds the same player.
fn written_back<G: FullGame>(player: &str, r: &params::ParamRow, text: &str, name: &str, bare: &str) {
    let again = players::build::<G>(name).unwrap_or_else(|e| panic!("{text}: its name {name} is refused: {e}")).name();
    assert_eq!(again, name, "{text}: the name does not build the same player");
    let is_default = r.default_is_value && r.example == r.default;
    if !is_default && !ONLY_WITH_ANOTHER.contains(&r.name.as_str()) {
        assert_ne!(name, bare, "{text}: {player} drops `{}` from its name", r.name);
    }
}

/// The table of `p` against its parser, on game `G` (one of the kinds it plays).
fn holds<G: FullGame>(p: &PlayerInfo) {
    let rows = listed(p.name, G::KIND);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    // Every parameter the parser asks for is listed (or read only to be refused with its own message).
    for asked in players::asked_params::<G>(p.name).unwrap() {
        let refused = params::REFUSED.contains(&(p.name, asked.as_str()));
        assert!(names.contains(&asked.as_str()) || refused, "{}: reads `{asked}`, which is not listed", p.name);
    }
    let bare = players::build::<G>(p.name).unwrap().name();
    for r in &rows {
        let text = format!("{}({}={})", p.name, r.name, r.example);
        match players::build::<G>(&text) {
            Ok(built) if r.default_is_value => {
                assert_eq!(built.name(), bare, "{text}: the listed default is not the default used");
            }
            Ok(built) => written_back::<G>(p.name, r, &text, &built.name(), &bare),
            // A file parameter with no such file: refused for the file, not as an unknown parameter.
            Err(e) if r.name == "db" => assert!(!e.to_string().contains("unknown parameter"), "{text}: {e}"),
            Err(e) => panic!("{text}: a listed parameter is refused: {e}"),
        }
    }
    let e = players::build::<G>(&format!("{}(zz_unlisted=1)", p.name)).err().expect("an unlisted parameter");
    assert!(e.to_string().contains("unknown parameter 'zz_unlisted'"), "{}: {e}", p.name);
}

#[test]
fn the_table_of_parameters_is_the_parsers() {
    for p in players::all() {
        let mut kinds = 0;
        if p.plays(TicTacToe::KIND) {
            holds::<TicTacToe>(&p);
            kinds += 1;
        }
        if p.plays(Pig::KIND) {
            holds::<Pig>(&p);
            kinds += 1;
        }
        if p.plays(PhantomTicTacToe::KIND) {
            holds::<PhantomTicTacToe>(&p);
            kinds += 1;
        }
        if p.plays(MatchingPennies::KIND) {
            holds::<MatchingPennies>(&p);
            kinds += 1;
        }
        assert!(kinds > 0, "{} plays no kind of game", p.name);
    }
}

#[test]
fn every_registered_player_is_listed_with_its_parameters() {
    let v = json(&plateau(&["players", "--json"]));
    let list = v["players"].as_array().unwrap();
    let registry = players::all();
    assert_eq!(list.len(), registry.len(), "{v}");
    for p in &registry {
        let e = list.iter().find(|e| e["name"] == p.name).unwrap_or_else(|| panic!("{} missing", p.name));
        assert!(!e["summary"].as_str().unwrap().is_empty(), "{e}");
        assert!(!e["games"].as_array().unwrap().is_empty(), "{e}");
        let sets = e["params"].as_array().unwrap();
        assert!(!sets.is_empty() && sets.iter().all(|s| !s["params"].as_array().unwrap().is_empty()), "{e}");
    }
    let ab = list.iter().find(|e| e["name"] == "alphabeta").unwrap();
    assert_eq!(ab["presets"][0]["name"], "ids");
    assert_eq!(ab["presets"][0]["means"], "alphabeta(id=true)");
    assert!(ab["course"].as_str().unwrap().contains("alpha-bêta"), "{ab}");
    let sss = list.iter().find(|e| e["name"] == "sss").unwrap();
    assert_eq!(sss["course"], "SSS*");
    // The engine reads other parameters on games with chance: two sets.
    let engine = list.iter().find(|e| e["name"] == "engine").unwrap();
    let sets = engine["params"].as_array().unwrap();
    assert_eq!(sets.len(), 2, "{engine}");
    let tt = |set: &serde_json::Value| set["params"].as_array().unwrap().iter().find(|p| p["name"] == "tt").cloned();
    assert_eq!(tt(&sets[0]).unwrap()["default"], "64mb");
    assert_eq!(tt(&sets[1]).unwrap()["default"], "16mb");
    assert!(sets[0]["params"].as_array().unwrap().iter().any(|p| p["name"] == "rfp_margin"), "the tunables");
}

#[test]
fn with_a_game_only_its_players_and_their_parameters_on_it() {
    let v = json(&plateau(&["players", "pig", "--json"]));
    assert_eq!(v["game"], "pig");
    let names: Vec<&str> = v["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"expectimax") && names.contains(&"engine") && names.contains(&"random"), "{names:?}");
    assert!(!names.contains(&"alphabeta") && !names.contains(&"smmcts"), "{names:?}");
    let v = json(&plateau(&["players", "breakthrough", "--json"]));
    let mcts = v["players"].as_array().unwrap().iter().find(|p| p["name"] == "mcts").unwrap().clone();
    let cut = mcts["params"][0]["params"].as_array().unwrap().iter().find(|p| p["name"] == "cut").unwrap().clone();
    assert_eq!(cut["default"], "4", "Breakthrough's own setting: {cut}");
    refused(&["players", "no_such_game"], "no_such_game");
}

#[test]
fn the_text_list_and_the_help_name_the_players() {
    let (ok, text, err) = plateau_text(&["players"]);
    assert!(ok, "{err}");
    assert!(text.contains("ids = alphabeta(id=true)") && text.contains("\nmcts (also: uct)"), "{text}");
    assert!(text.contains("    depth ") && text.contains("playouts"), "{text}");
    for args in [&["--help"][..], &["match", "--help"][..]] {
        let (ok, help, _) = plateau_text(args);
        assert!(ok);
        assert!(help.contains("plateau players") && help.contains("alphabeta (ab, ids)"), "{args:?}: {help}");
        assert!(help.contains("smmcts (duct)"), "{help}");
    }
}

#[test]
fn ids_is_iterative_deepening_alpha_beta() {
    let p = players::build::<TicTacToe>("ids(depth=3)").unwrap();
    assert_eq!(p.name(), "alphabeta(depth=3,id=true)");
    let g = TicTacToe;
    let s = g.start();
    let mut a = players::searcher::<TicTacToe>("ids(depth=3)").unwrap();
    let mut b = players::searcher::<TicTacToe>("alphabeta(depth=3,id=true)").unwrap();
    let (ra, rb) = (a.search(&g, &s), b.search(&g, &s));
    assert_eq!((ra.best_move, ra.value, ra.stats.nodes), (rb.best_move, rb.value, rb.stats.nodes));
}

mod api {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use plateau::server::{Config, router};
    use tower::ServiceExt;

    async fn get(uri: &str) -> (StatusCode, serde_json::Value) {
        let app = router(Config::default());
        let res = app.oneshot(Request::builder().uri(uri).body(Body::empty()).unwrap()).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn the_page_gets_the_same_list() {
        let (s, v) = get("/api/players").await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v, serde_json::to_value(plateau::players::listing::report(None)).unwrap());
        let (s, v) = get("/api/players?game=matching_pennies").await;
        assert_eq!(s, StatusCode::OK);
        let names: Vec<&str> = v["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"smmcts") && !names.contains(&"engine"), "{names:?}");
        let (s, v) = get("/api/players?game=nope").await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert!(v["error"].as_str().unwrap().contains("nope"), "{v}");
    }
}
