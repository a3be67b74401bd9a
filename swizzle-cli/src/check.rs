//! `swz check` (placeholder until its work lands).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), String> {
    Err("`check` is not implemented yet".to_string())
}
