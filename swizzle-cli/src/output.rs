//! Where `swz` writes: stdout, and the files the user names (`--svg FILE`, `-o FILE`, `--json FILE`, `--csv FILE`,
//! the CUBINs under `--cubins DIR`).
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
