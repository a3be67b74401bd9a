//! `swz bench` (placeholder until its work lands).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), String> {
    Err("`bench` is not implemented yet".to_string())
}
