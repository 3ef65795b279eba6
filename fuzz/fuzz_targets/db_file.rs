//! Retrograde database files (`solve::db::Db::open`, through a temporary file as the loader maps files): any bytes
//! give a database or a one-line error, never a panic; every key of a database that opens is found again. When the
//! first byte is odd the rest gets a valid checksum first, so that the checks after the checksum are reached too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::solve::db::{Db, seal};

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else { return };
    let mut bytes = rest.to_vec();
    if flag & 1 == 1 {
        seal(&mut bytes);
    }
    let path = std::env::temp_dir().join(format!("plateau-fuzz-db-{}", std::process::id()));
    std::fs::write(&path, &bytes).expect("the temporary file is written");
    let db = Db::open(&path);
    let _ = std::fs::remove_file(&path);
    let db = match db {
        Ok(db) => db,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "a multi-line error: {e}");
            return;
        }
    };
    for i in 0..db.len() {
        let (key, value, distance) = db.at(i).expect("every entry of an open database decodes");
        assert_eq!(db.find(key), Some(i));
        assert_eq!(db.probe(key), Some((value, distance)));
        let _ = db.probe(key.wrapping_add(1));
    }
    let _ = db.probe(0);
    let _ = db.probe(u64::MAX);
});
