//! Opening book files (`Book::from_bytes`): any bytes give a book or an error, never a panic. When the first byte is
//! odd the rest gets a valid checksum first, so that the checks after the checksum are reached too. A book that loads
//! writes bytes that load to the same book.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::book::Book;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else { return };
    let mut bytes = rest.to_vec();
    if flag & 1 == 1 && bytes.len() >= 8 {
        let body = bytes.len() - 8;
        let sum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }
    let Ok(book) = Book::from_bytes(&bytes) else { return };
    let again = Book::from_bytes(&book.to_bytes()).expect("a written book loads");
    assert_eq!(again.entries(), book.entries());
    for e in book.entries() {
        assert!(!book.lookup(e.key).is_empty());
    }
});
