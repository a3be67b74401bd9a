//! `swz show` (placeholder until its work lands).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), String> {
    Err("`show` is not implemented yet".to_string())
}
