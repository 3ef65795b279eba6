fn main() {
    std::process::exit(plateau::cli::main());
}
