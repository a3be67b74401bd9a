//! `swz emit-header` (placeholder until its work lands).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), String> {
    Err("`emit-header` is not implemented yet".to_string())
}
