//! df-pn table files (`solve::table_file`, `solve --table FILE`): any bytes read against the header they announce give
//! the entries or an error, never a panic; a file whose checksum matches gives every entry it holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::solve::table_file::{read, read_header};

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("plateau-fuzz-table-{}", std::process::id()));
    std::fs::write(&path, data).expect("the temporary file is written");
    if let Ok(header) = read_header(&path) {
        let mut entries = 0u64;
        let r = read(&path, &header, |bucket, _| {
            assert!(bucket < header.buckets);
            entries += 1;
        });
        if let Ok(h) = r {
            assert_eq!(h, header);
        }
    }
    let _ = std::fs::remove_file(&path);
});
