//! Where `swz` writes and how it ends: stdout, stderr, the files the user names (`--svg FILE`, `-o FILE`,
//! `--json FILE`, `--csv FILE`, the CUBINs under `--cubins DIR`), and the exit status.
//!
//! **Exit status.** A subcommand's `run` returns `Result<Verdict, String>` (or `Result<(), String>`, clean when
//! it returns): [`finish`] flushes stdout and exits 0 for [`Verdict::Clean`], 1 for [`Verdict::Conflicts`] ("checked,
//! and it conflicts") and 2 for an error, the reason as one `swz: ` line on stderr. A usage error is one line too
//! ([`usage_line`], [`refuse`]), exit 2.
//!
//! **Stdout.** A closed pipe (`swz check ... | head -1`) is not an error and not the end of the run: output stops
//! quietly, and the subcommand finishes so the exit status is still its verdict (1 for "checked, and it
//! conflicts", 2 for bad input). Streaming subcommands with nothing left to decide ask [`stdout_closed`] and stop
//! early. Any other write error (`/dev/full`) is one line and exit 2.
//!
//! **Stderr.** Every line goes through [`stderr_line`] (the `errln!` macro): a stderr that cannot be written
//! loses the line, never the exit status.
//!
//! **Files.** The text is built in full before the file is touched, then written in place: through a symlink to
//! its target, never replacing it; a FIFO, device or directory is refused with one line (exit 2). No other file
//! is created, replaced or deleted: there is no temporary file. Subcommands that run long before they write
//! ([`check_target`]) refuse a non-regular target before they start.
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// `println!` for the subcommands through [`Stdout`]: a closed pipe (`swz ... | head`) drops the rest of the output
/// quietly and the run goes on to its verdict; any other write error is a one-line reason and exit 2.
/// (`println!` would panic.)
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!($crate::output::stdout(), $($arg)*) {
            $crate::output::exit_on_stdout_error(e)
        }
    }};
}

/// `eprintln!` that cannot panic: a stderr that cannot be written loses the line, not the exit status
/// ([`stderr_line`]).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::stderr_line(format_args!($($arg)*))
    };
}

/// `print!` with the same handling as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!($crate::output::stdout(), $($arg)*) {
            $crate::output::exit_on_stdout_error(e)
        }
    }};
}

/// What a checking subcommand found. `Conflicts` exits 1 after its one-line reason on stderr ("checked, and it
/// conflicts"), so CI can tell a finding (1) from bad input (2) and from a clean run (0).
pub enum Verdict {
    Clean,
    Conflicts(String),
}

/// Flush stdout, then exit with `result`'s status: 0 for [`Verdict::Clean`]; 1 for [`Verdict::Conflicts`] and 2
/// for an error, each after its reason as one `swz: ` line on stderr. A closed pipe keeps the verdict.
pub fn finish(result: Result<Verdict, String>) -> ! {
    // Flush here so a write error is reported rather than lost at exit.
    if let Err(e) = stdout().flush() {
        exit_on_stdout_error(e);
    }
    match result {
        Ok(Verdict::Clean) => std::process::exit(0),
        Ok(Verdict::Conflicts(reason)) => {
            errln!("swz: {reason}");
            std::process::exit(1);
        }
        Err(reason) => refuse(reason),
    }
}

/// Bad input or any other error: `reason` as one `swz: ` line on stderr, exit 2.
pub fn refuse(reason: impl std::fmt::Display) -> ! {
    errln!("swz: {reason}");
    std::process::exit(2);
}

/// A failed write to stdout, as [`refuse`] says it.
pub fn exit_on_stdout_error(e: io::Error) -> ! {
    refuse(stdout_failed(e))
}

/// clap's error as one line: the message and its indented details up to the usage block, tips dropped, and
/// where to read more. A missing subcommand lists the ones `root` (the whole `swz` command) offers there.
pub fn usage_line(e: &clap::Error, root: fn() -> clap::Command) -> String {
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return missing_subcommand(root(), std::env::args().skip(1));
    }
    format!("{} (see `swz --help`)", clap_message(e))
}

/// clap's message without its usage block and tips.
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let parts: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
        .collect();
    let joined = parts.join(" ");
    joined
        .strip_prefix("error: ")
        .unwrap_or(&joined)
        .to_string()
}

/// The subcommands of the command `args` named (`swz tune gemm` -> bench, rounds, ...), for a missing one.
fn missing_subcommand(mut cmd: clap::Command, args: impl Iterator<Item = String>) -> String {
    let mut path = Vec::new();
    for arg in args {
        if let Some(sub) = cmd.find_subcommand(&arg).cloned() {
            path.push(sub.get_name().to_string());
            cmd = sub;
        }
    }
    let names: Vec<&str> = cmd
        .get_subcommands()
        .map(|s| s.get_name())
        .filter(|&n| n != "help")
        .collect();
    let list = match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    if path.is_empty() {
        format!("a subcommand is required: {list} (see `swz --help`)")
    } else {
        let path = path.join(" ");
        format!("`swz {path}` needs a subcommand: {list} (see `swz {path} --help`)")
    }
}

static CLOSED: AtomicBool = AtomicBool::new(false);

/// True once a write to stdout found the pipe closed: nothing written from then on reaches anyone.
pub fn stdout_closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Stdout that treats a closed pipe as the reader having seen enough: the write "succeeds", the output is
/// dropped, and [`stdout_closed`] turns true. Other errors pass through.
pub struct Stdout(io::StdoutLock<'static>);

/// Stdout, locked, with the closed-pipe handling of [`Stdout`].
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

fn quiet_on_closed_pipe(r: io::Result<()>) -> io::Result<()> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        r => r,
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if stdout_closed() {
            return Ok(buf.len());
        }
        match self.0.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                CLOSED.store(true, Ordering::Relaxed);
                Ok(buf.len())
            }
            r => r,
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if stdout_closed() {
            return Ok(());
        }
        quiet_on_closed_pipe(self.0.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        if stdout_closed() {
            return Ok(());
        }
        quiet_on_closed_pipe(self.0.flush())
    }
}

/// Write one line to stderr. A stderr that cannot be written (`2>/dev/full`, a closed pipe) loses the line and
/// nothing else: the run goes on and its exit status stays the verdict (`eprintln!` would panic, exit 101).
pub fn stderr_line(line: std::fmt::Arguments) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}

/// A failed write to stdout (never a closed pipe: [`Stdout`] absorbs that), as the one-line reason.
pub fn stdout_failed(e: io::Error) -> String {
    format!("writing stdout: {e}")
}

/// Refuse `path` for `flag` now if it exists and is not a regular file (a FIFO, device or directory), so a long
/// run (a benchmark, a sweep) does not end on a target it could never write. A target that does not exist yet is
/// fine; [`write_bytes`] checks again when it writes.
pub fn check_target(flag: &str, path: &Path) -> Result<(), String> {
    let fail = |why: String| format!("{flag}: cannot write {}: {why}", path.display());
    // Refuse before opening it: opening a FIFO would block until a reader comes.
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(fail("not a regular file".into())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(fail(e.to_string())),
    }
}

/// Write `text` to the file the user named with `flag`, in place (see the module doc). Errors name `flag` and
/// the path.
pub fn write_file(flag: &str, path: &Path, text: &str) -> Result<(), String> {
    write_bytes(flag, path, text.as_bytes())
}

/// Write `bytes` (a CUBIN, any binary) to the file the user named with `flag`, or to a file in the directory the
/// user named with it, in place, as [`write_file`] does.
pub fn write_bytes(flag: &str, path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |why: String| format!("{flag}: cannot write {}: {why}", path.display());
    check_target(flag, path)?;
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| fail(e.to_string()))?;
    // The file opened may not be the one inspected (replaced in between): check what was opened.
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Err(fail("not a regular file".into())),
        Err(e) => return Err(fail(e.to_string())),
    }
    file.set_len(0)
        .and_then(|()| file.write_all(bytes))
        .and_then(|()| file.flush())
        .map_err(|e| fail(e.to_string()))
}

/// Read the text file the user named (`swz profile ... compare CSV`): a FIFO, device or directory is refused
/// with one line before it is opened (opening a FIFO would block until a writer comes), and what was opened is
/// checked again. Errors name the path.
pub fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let fail = |why: String| format!("{}: {why}", path.display());
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(fail("not a regular file".into())),
        Ok(_) => {}
        Err(e) => return Err(fail(e.to_string())),
    }
    let mut file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Err(fail("not a regular file".into())),
        Err(e) => return Err(fail(e.to_string())),
    }
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("swz-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_through_a_symlink_and_shrinks_a_longer_file() {
        let dir = scratch("link");
        let target = dir.join("target.svg");
        std::fs::write(&target, "an older, longer text").unwrap();
        let link = dir.join("link.svg");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_file("--svg", &link, "new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bytes_are_written_as_given() {
        let dir = scratch("bytes");
        let path = dir.join("k.cubin");
        let bytes = [0x7f, b'E', b'L', b'F', 0, 0xff, 0, 1];
        write_bytes("--cubins", &path, &bytes).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn refuses_a_directory_and_names_the_flag() {
        let dir = scratch("dir");
        let e = write_file("-o", &dir, "x").unwrap_err();
        assert!(e.starts_with("-o: cannot write"), "{e}");
        assert!(e.contains("not a regular file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
