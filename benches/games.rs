//! Micro-benchmarks of the game kernels: `cargo bench`.

use criterion::{Criterion, criterion_group, criterion_main};
use plateau::game::{Game, MoveList, perft};
use plateau::games::Breakthrough;
use std::hint::black_box;

fn breakthrough(c: &mut Criterion) {
    let g = Breakthrough::default();
    let s = g.start();
    c.bench_function("breakthrough perft 4 (256036)", |b| b.iter(|| perft(&g, black_box(&s), 4)));
    c.bench_function("breakthrough generate_moves", |b| {
        let mut moves = MoveList::new();
        b.iter(|| {
            g.generate_moves(black_box(&s), &mut moves);
            moves.len()
        })
    });
    c.bench_function("breakthrough count_moves", |b| b.iter(|| g.count_moves(black_box(&s))));
}

criterion_group!(benches, breakthrough);
criterion_main!(benches);
