//! `iris`: the prose around your code changes.

fn main() -> std::process::ExitCode {
    iris_studio::cli::run()
}
