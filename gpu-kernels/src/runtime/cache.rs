//! The one compile cache: every kernel of every family is compiled through [`compile`], which keeps each
//! CUBIN (and NVRTC's log) once per process, keyed by everything NVRTC sees (the source, its headers and the
//! device headers, the target, the options) and by the toolchain that builds and loads it (NVRTC's version and
//! the driver's, [`toolchain`]).
//!
//! CUBINs are also kept on disk, so a second run compiles nothing: by default in the user's cache folder
//! (`$XDG_CACHE_HOME/swz`, else `~/.cache/swz`); the environment variable `SWZ_CUBIN_CACHE=DIR` names another
//! folder and `SWZ_CUBIN_CACHE=off` turns the disk cache off ([`disk_dir`]). Files are named
//! `<source stem>-<key>.cubin` (and `.log`). The key is a `DefaultHasher` digest, which has fixed keys, so a
//! name means the same compile on every machine with the same NVRTC and driver; another NVRTC, driver or
//! architecture is another key, a miss. Each file is written whole and renamed into place, the log before the
//! CUBIN, so processes sharing the folder never read a part; a compile that asked for ptxas' report is not
//! served a log without one. A folder that cannot be written is one warning on stderr, never an error: the
//! run compiles as if there were no disk cache.

use crate::runtime::nvrtc::{self, with_device_headers, Compiled, Source};
use crate::runtime::Result;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The environment variable naming the on-disk CUBIN folder (or [`DISK_OFF`]).
pub const DISK_ENV: &str = "SWZ_CUBIN_CACHE";

/// The value of [`DISK_ENV`] that turns the disk cache off.
pub const DISK_OFF: &str = "off";

/// The on-disk CUBIN folder: `$SWZ_CUBIN_CACHE` when set (`off` or empty: none), else `$XDG_CACHE_HOME/swz`,
/// else `$HOME/.cache/swz` (`None` when neither is set).
pub fn disk_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    disk_dir_from(
        std::env::var_os(DISK_ENV).as_deref(),
        var("XDG_CACHE_HOME").as_deref(),
        var("HOME").as_deref(),
    )
}

/// [`disk_dir`] from the three variables' values.
///
/// ```
/// use gpu_kernels::runtime::cache::disk_dir_from;
/// use std::ffi::OsStr;
/// use std::path::PathBuf;
/// let home = Some(OsStr::new("/home/u"));
/// assert_eq!(disk_dir_from(None, None, home), Some(PathBuf::from("/home/u/.cache/swz")));
/// assert_eq!(disk_dir_from(None, Some(OsStr::new("/xdg")), home), Some(PathBuf::from("/xdg/swz")));
/// assert_eq!(disk_dir_from(Some(OsStr::new("/c")), None, home), Some(PathBuf::from("/c")));
/// assert_eq!(disk_dir_from(Some(OsStr::new("off")), None, home), None);
/// assert_eq!(disk_dir_from(None, None, None), None);
/// ```
pub fn disk_dir_from(
    env: Option<&std::ffi::OsStr>,
    xdg_cache_home: Option<&std::ffi::OsStr>,
    home: Option<&std::ffi::OsStr>,
) -> Option<PathBuf> {
    match env {
        Some(v) if v.is_empty() || v == DISK_OFF => None,
        Some(v) => Some(PathBuf::from(v)),
        None => xdg_cache_home
            .map(PathBuf::from)
            .or_else(|| home.map(|h| Path::new(h).join(".cache")))
            .map(|d| d.join("swz")),
    }
}

/// What builds and loads a CUBIN besides its source: `nvrtc <major>.<minor> driver <version>` (`none` for a
/// library that does not load). Part of every key, so a cache filled under another NVRTC or driver misses.
pub fn toolchain() -> &'static str {
    static TOOLCHAIN: OnceLock<String> = OnceLock::new();
    TOOLCHAIN.get_or_init(|| {
        let nvrtc = nvrtc::version().map_or("none".into(), |(a, b)| format!("{a}.{b}"));
        let driver = driver_version().map_or("none".into(), |v| v.to_string());
        format!("nvrtc {nvrtc} driver {driver}")
    })
}

/// The driver's CUDA version (`cuDriverGetVersion`, e.g. 13000), when libcuda loads.
fn driver_version() -> Option<i32> {
    if !crate::runtime::gpu_available() {
        return None;
    }
    let mut v = 0;
    // SAFETY: libcuda is present (checked above); one out-pointer to a live local.
    let code = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut v) };
    (code == cudarc::driver::sys::CUresult::CUDA_SUCCESS).then_some(v)
}

/// The cache key of a compile: a digest of the toolchain ([`toolchain`]), the source with every header NVRTC is
/// given, the target and the options.
pub fn key(src: &Source, arch: &str, options: &[String]) -> u64 {
    key_for(toolchain(), src, arch, options)
}

/// [`key`] under an explicit toolchain string.
pub fn key_for(toolchain: &str, src: &Source, arch: &str, options: &[String]) -> u64 {
    let mut h = DefaultHasher::new();
    (
        toolchain,
        &src.name,
        &src.text,
        with_device_headers(src),
        arch,
        options,
    )
        .hash(&mut h);
    h.finish()
}

static COMPILED: AtomicUsize = AtomicUsize::new(0);
static FROM_DISK: AtomicUsize = AtomicUsize::new(0);

/// Compiles of this process so far: `(by NVRTC, read from the disk cache)`.
pub fn counts() -> (usize, usize) {
    (
        COMPILED.load(Ordering::Relaxed),
        FROM_DISK.load(Ordering::Relaxed),
    )
}

static MEMORY: Mutex<Option<HashMap<u64, Compiled>>> = Mutex::new(None);

fn remembered(key: u64) -> Option<Compiled> {
    MEMORY
        .lock()
        .expect("compile cache poisoned")
        .get_or_insert_with(HashMap::new)
        .get(&key)
        .cloned()
}

fn remember(key: u64, c: &Compiled) {
    MEMORY
        .lock()
        .expect("compile cache poisoned")
        .get_or_insert_with(HashMap::new)
        .insert(key, c.clone());
}

/// Compile `src` for `arch` with `options`, or return the result of the same compile earlier in this process or
/// in the on-disk folder ([`disk_dir`]).
pub fn compile(src: &Source, arch: &str, options: &[String]) -> Result<Compiled> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    compile_in(DIR.get_or_init(disk_dir).as_deref(), src, arch, options)
}

/// [`compile`] with an explicit on-disk folder (`None`: memory only). The folder is created when missing; a
/// CUBIN that cannot be written is only not kept (one warning per process).
pub fn compile_in(
    dir: Option<&Path>,
    src: &Source,
    arch: &str,
    options: &[String],
) -> Result<Compiled> {
    let key = key(src, arch, options);
    if let Some(c) = remembered(key) {
        return Ok(c);
    }
    let stem = dir.map(|d| {
        let name = Path::new(&src.name)
            .file_stem()
            .map_or("kernel".into(), |s| s.to_string_lossy());
        d.join(format!("{name}-{key:016x}"))
    });
    let report = nvrtc::asks_ptxas_report(options);
    if let Some(stem) = &stem {
        if let Some(c) = read_entry(stem, report) {
            remember(key, &c);
            FROM_DISK.fetch_add(1, Ordering::Relaxed);
            return Ok(c);
        }
    }
    let c = nvrtc::compile(src, arch, options)?;
    COMPILED.fetch_add(1, Ordering::Relaxed);
    if let Some(stem) = &stem {
        write_entry(stem, &c);
    }
    remember(key, &c);
    Ok(c)
}

/// The first bytes of every CUBIN (an ELF file).
const ELF_MAGIC: &[u8] = b"\x7fELF";

/// The entry at `stem` (`.log` and `.cubin`), when both are there and complete: a CUBIN that starts as an ELF
/// file does, and for a compile that asked for ptxas' report (`report`), a log that holds it.
fn read_entry(stem: &Path, report: bool) -> Option<Compiled> {
    let log = std::fs::read_to_string(stem.with_extension("log")).ok()?;
    let cubin = std::fs::read(stem.with_extension("cubin")).ok()?;
    let complete = cubin.starts_with(ELF_MAGIC) && (!report || nvrtc::has_ptxas_report(&log));
    complete.then_some(Compiled { cubin, log })
}

/// Keep `c` at `stem`, each file written whole under a name of its own and renamed into place (a reader in
/// another process sees the old file, none, or the new one, never a part), the log first: an entry is read
/// only when its CUBIN is there. A file that cannot be written is only not kept, and the first such failure of
/// the process is one warning on stderr.
fn write_entry(stem: &Path, c: &Compiled) {
    let written = stem
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| write_whole(&stem.with_extension("log"), c.log.as_bytes()))
        .and_then(|()| write_whole(&stem.with_extension("cubin"), &c.cubin));
    if let Err(e) = written {
        warn_unwritable(stem.parent().unwrap_or(stem), &e);
    }
}

/// One warning per process that the disk cache cannot be written (the run goes on without it).
fn warn_unwritable(dir: &Path, e: &std::io::Error) {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        eprintln!(
            "swz: warning: the CUBIN cache {} cannot be written ({e}); kernels are compiled again next run \
             (set {DISK_ENV}=DIR for another folder, {DISK_ENV}={DISK_OFF} for none)",
            dir.display()
        );
    }
}

/// Write `bytes` to a temporary file unique to this process and thread beside `path`, then rename it to `path`.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_cannot_be_written_is_no_error() {
        // The folder's parent is a file: nothing can be created under it.
        let file = std::env::temp_dir().join(format!("swz-cubin-file-{}", std::process::id()));
        std::fs::write(&file, "not a folder").unwrap();
        let stem = file.join("swz").join("k-0123456789abcdef");
        write_entry(
            &stem,
            &Compiled {
                cubin: b"\x7fELF".to_vec(),
                log: String::new(),
            },
        );
        assert!(read_entry(&stem, false).is_none());
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn an_incomplete_entry_on_disk_is_not_a_hit() {
        let dir = std::env::temp_dir().join(format!("swz-cubin-entry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stem = dir.join("k-0123456789abcdef");
        // A log another process has created but not yet written, and no CUBIN yet.
        std::fs::write(stem.with_extension("log"), "").unwrap();
        assert!(read_entry(&stem, false).is_none());
        std::fs::write(stem.with_extension("cubin"), b"").unwrap();
        assert!(read_entry(&stem, false).is_none(), "empty CUBIN");
        std::fs::write(stem.with_extension("cubin"), b"CUBIN").unwrap();
        assert!(read_entry(&stem, false).is_none(), "not an ELF file");
        std::fs::write(stem.with_extension("cubin"), b"\x7fELF CUBIN").unwrap();
        // An empty log is no ptxas report: a hit only for a compile that did not ask for one.
        assert!(read_entry(&stem, true).is_none());
        assert_eq!(read_entry(&stem, false).unwrap().cubin, b"\x7fELF CUBIN");
        let log = "ptxas info    : Used 8 registers, used 0 barriers";
        write_entry(
            &stem,
            &Compiled {
                cubin: b"\x7fELF NEW".to_vec(),
                log: log.into(),
            },
        );
        let c = read_entry(&stem, true).unwrap();
        assert_eq!(
            (c.cubin.as_slice(), c.log.as_str()),
            (&b"\x7fELF NEW"[..], log)
        );
        // Written through temporary names that are renamed away: only the entry's two files remain.
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["k-0123456789abcdef.cubin", "k-0123456789abcdef.log"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
