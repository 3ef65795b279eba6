//! The repository is self-contained: the reference data the tests read is committed under `tests/data/` (copies of the
//! project's shared reference files, see `tests/data/README.md`), and no test, bench, example or source file refers to
//! the shared folder beside the checkout. `git clone` + `cargo test` must pass on a machine without that folder.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The data files the tests read, relative to the repository root.
const DATA_FILES: [&str; 11] = [
    "tests/data/reference/perft.json",
    "tests/data/reference/solved.json",
    "tests/data/benchmarks/connect4/Test_L3_R1",
    "tests/data/benchmarks/connect4/Test_L2_R1",
    "tests/data/benchmarks/connect4/Test_L2_R2",
    "tests/data/benchmarks/connect4/Test_L1_R1",
    "tests/data/benchmarks/connect4/Test_L1_R2",
    "tests/data/benchmarks/connect4/Test_L1_R3",
    "tests/data/korf100.txt",
    "tests/data/reference/README.md",
    "tests/data/benchmarks/connect4/README.md",
];

#[test]
fn reference_data_is_committed() {
    for rel in DATA_FILES {
        let path = root().join(rel);
        let meta = std::fs::metadata(&path).unwrap_or_else(|e| {
            panic!("{} is missing ({e}): the reference data must be in the repository", path.display())
        });
        assert!(meta.is_file() && meta.len() > 0, "{} is not a non-empty file", path.display());
    }
    for name in ["perft.json", "solved.json"] {
        let path = root().join("tests/data/reference").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        assert!(!v["entries"].as_array().expect("entries").is_empty(), "{}: no entries", path.display());
    }
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_refers_to_the_shared_folder() {
    // Built from pieces so that this file does not contain the strings it looks for.
    let relative = concat!("..", "/shared");
    let relative_windows = concat!("..", "\\shared");
    let absolute = concat!("/work", "/shared");
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples"] {
        files_under(&root().join(dir), &mut files);
    }
    files.push(root().join("Cargo.toml"));
    assert!(files.len() > 50, "only {} files found under src, tests, benches, examples", files.len());
    assert!(files.iter().any(|p| p.ends_with("tests/suite/reference_data.rs")), "the scan must include this file");
    let mut offenders = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let text = String::from_utf8_lossy(&bytes);
        let rel = path.strip_prefix(root()).unwrap_or(path).display().to_string();
        for (i, line) in text.lines().enumerate() {
            // The relative path anywhere; the absolute one in code (data files and their READMEs may name where they
            // were copied from).
            let code = path.extension().is_some_and(|e| e == "rs") || path.ends_with("Cargo.toml");
            if line.contains(relative) || line.contains(relative_windows) || (code && line.contains(absolute)) {
                offenders.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "files refer to the shared folder; read the committed copies under tests/data/ through \
         env!(\"CARGO_MANIFEST_DIR\") instead:\n{}",
        offenders.join("\n")
    );
}
