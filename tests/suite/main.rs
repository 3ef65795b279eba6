//! plateau's integration tests, in one test binary (`cargo test --test suite`): one module per topic, each the former
//! `tests/NAME.rs` (run one with `cargo test --test suite NAME::`), and one shared helper module, `common` (running
//! the `plateau` binary, JSON and one-line errors, temporary folders).
//!
//! One binary rather than one per file: the library's generic code is compiled and linked once instead of 53 times
//! (a clean `cargo test --no-run` took 30% less CPU time; figures in docs/architecture.md, "Tests and CI").
//!
//! Adding tests: a new topic is a new file `tests/suite/NAME.rs` starting with a `//!` line saying what it checks, plus
//! one `mod NAME;` line below (alphabetical order); it reaches the helpers with `use crate::common::*;`. A
//! `NAME.proptest-regressions` file lives beside its module. Never a new file directly under `tests/` (each would be
//! one more binary linking the whole library).

mod common;

mod algorithms;
mod api;
mod arena;
mod backgammon;
mod book;
mod breakthrough;
mod bt_check_split;
mod bt_simultaneous;
mod bt_solve;
mod chance_play;
mod chance_search;
mod checkers;
mod checkers_db;
mod chess;
mod chess_uci;
mod cli;
mod cli_catalogue;
mod compare_seconds;
mod course_numbers;
mod course_open;
mod engine;
mod exercises;
mod games_small;
mod given_eval;
mod hardening;
mod hardening_limits;
mod hardening_outputs;
mod hardening_resume;
mod hidden;
mod interop;
mod interrupt;
mod layers;
mod match_jobs;
mod mcts;
mod mcts_cli;
mod mcts_convergence;
mod mcts_defaults;
mod mcts_options;
mod naive;
mod othello;
mod oware;
mod own_engine;
mod pig;
mod players;
mod protocol;
mod protocol_chance;
mod puzzles;
mod qubic;
mod qubic_proof;
mod qubic_split;
mod qubic_split_jobs;
mod race_probe;
mod random_moves;
mod referee_ugi;
mod reference_catalogue;
mod reference_data;
mod resume;
mod retro;
mod seeds;
mod server;
mod server_clock;
mod server_queue;
mod server_sessions;
mod server_verdict;
mod sim_solve;
mod slide_trees;
mod smmcts;
mod solve;
mod spsa;
mod spsa_jobs;
mod time;
mod tiny_games;
mod tiny_games_play;
mod tiny_phantom;
mod tournament;
mod tournament_web;
mod tune;
