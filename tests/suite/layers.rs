//! The shape of the code, checked: game knowledge reaches the tools through the game's trait methods (no runtime type
//! checks outside the game registry), and every source file keeps to one job (about 600 lines at most).
//! (Import cycles between top-level modules are checked by CI with the team's `module_cycles.py`.)

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn all_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    files
}

/// `players/registered.rs` is the one other place allowed a downcast: it gives back to its caller the type the caller
/// already names (`Box<dyn Searcher<G>>`), so that the catalogue is compiled once in this crate; it decides nothing by
/// the type (docs/architecture.md).
#[test]
fn no_runtime_type_checks_outside_the_game_registry() {
    let registry = Path::new("src").join("games").join("mod.rs");
    let compiled_once = Path::new("src").join("players").join("registered.rs");
    let mut offenders = Vec::new();
    for path in all_sources() {
        if path.ends_with(&registry) || path.ends_with(&compiled_once) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("downcast") || code.contains("dyn Any") || code.contains("std::any::Any") {
                offenders.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "runtime type checks:\n{}", offenders.join("\n"));
}

#[test]
fn no_source_file_over_600_lines() {
    let mut big = Vec::new();
    for path in all_sources() {
        let n = std::fs::read_to_string(&path).expect("readable source").lines().count();
        if n > 600 {
            big.push(format!("{} ({n} lines)", path.display()));
        }
    }
    assert!(big.is_empty(), "files over 600 lines:\n{}", big.join("\n"));
}
