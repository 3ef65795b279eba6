//! One job's files must be different files: two outputs (or an output and an input it would write over) naming the
//! same file by any spelling, or by a hard link, are refused in one line before any work, and the file is untouched.
//! (`tournament --results r --record r` wrote both formats into one file, which `--resume` then refused.)

use crate::common::{refused, tmpdir};

#[test]
fn two_outputs_naming_one_file_are_refused_before_any_work() {
    let dir = tmpdir("same");
    let f = dir.join("f.txt");
    std::fs::write(&f, "mine").unwrap();
    let same = f.to_str().unwrap().to_string();
    // Another spelling of the same path, and a hard link to it.
    let dotted = format!("{}/./sub/../f.txt", dir.display());
    std::fs::create_dir(dir.join("sub")).unwrap();
    let hard = dir.join("hard.txt");
    std::fs::hard_link(&f, &hard).unwrap();
    let hard = hard.to_str().unwrap().to_string();
    let tourney = ["tournament", "tic_tac_toe", "--player", "random", "--player", "b=random(seed=3)"];
    for other in [&same, &dotted, &hard] {
        refused(
            &[&tourney[..], &["--results", &same, "--record", other]].concat(),
            "--results and --record name the same file",
        );
        refused(
            &[&tourney[..], &["--results", &same, "--record", other, "--resume"]].concat(),
            "--results and --record name the same file",
        );
        refused(
            &["solve", "qubic(size=3)", "--split", "--results", &same, "--proof", other],
            "--results and --proof name the same file",
        );
        refused(&["solve", "breakthrough(rows=5,columns=3)", "--table", &same, "--results", other], "the same file");
        refused(
            &["tree", "tic_tac_toe", "--algo", "alphabeta(depth=2)", "--svg", &same, "--dot", other],
            "--svg and --dot name the same file",
        );
        refused(
            &[
                "tune",
                "breakthrough(rows=5,columns=5)",
                "--eval",
                "pst",
                "--games",
                "2",
                "--out",
                &same,
                "--save-data",
                other,
            ],
            "--out and --save-data name the same file",
        );
        refused(
            &["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--data", other, "--out", &same],
            "--out and --data name the same file",
        );
        // An input the games would be appended to.
        let two = ["--player", "random", "--player", "random", "--games", "2"];
        refused(
            &[&["match", "tic_tac_toe"][..], &two, &["--openings", &same, "--record", other]].concat(),
            "--openings and --record name the same file",
        );
        refused(
            &[&tourney[..], &["--openings", &same, "--record", other]].concat(),
            "--openings and --record name the same file",
        );
        assert_eq!(std::fs::read(&f).unwrap(), b"mine", "the file is untouched");
    }
    // Two files of their own are still taken (a file of the same name in another folder is another file).
    let sub = dir.join("sub").join("f.txt");
    let out = crate::common::plateau(
        &[
            &tourney[..],
            &["--rounds", "1", "--results", &dir.join("r.jsonl").to_string_lossy(), "--record"],
            &[sub.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    assert!(std::fs::read_to_string(&sub).unwrap().contains("[Tournament "));
}
