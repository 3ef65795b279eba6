//! `plateau compare` reports each search's own wall time: on chess (and Breakthrough) every row's `seconds` is
//! positive and together they fit within the command's run time.

use crate::common::BIN;
use std::process::Command;
use std::time::Instant;

#[test]
fn compare_seconds_are_each_search_s_wall_time() {
    for game in ["chess", "breakthrough(rows=6,columns=5)"] {
        let t = Instant::now();
        let out = Command::new(BIN)
            .args(["compare", game, "--algos", "alphabeta,pvs,mtdf,engine", "--depths", "1..3", "--json"])
            .output()
            .expect("the binary runs");
        let wall = t.elapsed().as_secs_f64();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 12, "{game}");
        let mut total = 0.0;
        for r in rows {
            let s = r["seconds"].as_f64().unwrap();
            assert!(s > 0.0 && s.is_finite(), "{game}: {r}");
            total += s;
        }
        assert!(total <= wall, "{game}: the rows add up to {total} s, the command took {wall} s");
    }
}
