//! The one compile cache: every kernel of every family is compiled through [`compile`], which keeps each
//! CUBIN (and NVRTC's log) once per process, keyed by everything NVRTC sees (the source, its headers and the
//! device headers, the target, the options).
//!
//! With the environment variable `SWZ_CUBIN_CACHE=DIR` (or an explicit folder, [`compile_in`]) CUBINs are also
//! kept on disk, named `<source stem>-<key>.cubin` (and `.log`): a machine with the same NVRTC (the device has
//! CUDA 13.0) reuses CUBINs built elsewhere or by an earlier run. The key is a `DefaultHasher` digest, which has
//! fixed keys, so a name means the same compile on every machine. Each file is written whole and renamed into
//! place, the log before the CUBIN, so processes sharing the folder never read a part; a compile that asked for
//! ptxas' report is not served a log without one.

use crate::runtime::nvrtc::{self, with_device_headers, Compiled, Source};
use crate::runtime::Result;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Mutex;

/// The environment variable naming the on-disk CUBIN folder.
pub const DISK_ENV: &str = "SWZ_CUBIN_CACHE";

/// The cache key of a compile: a digest of the source with every header NVRTC is given, the target and the
/// options.
pub fn key(src: &Source, arch: &str, options: &[String]) -> u64 {
    let mut h = DefaultHasher::new();
    (
        &src.name,
        &src.text,
        with_device_headers(src),
        arch,
        options,
    )
        .hash(&mut h);
    h.finish()
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
/// (with `SWZ_CUBIN_CACHE` set) in the on-disk folder.
pub fn compile(src: &Source, arch: &str, options: &[String]) -> Result<Compiled> {
    let dir = std::env::var_os(DISK_ENV);
    compile_in(dir.as_deref().map(Path::new), src, arch, options)
}

/// [`compile`] with an explicit on-disk folder (`None`: memory only). The folder is created when missing; a
/// CUBIN that cannot be written is only not kept.
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
            return Ok(c);
        }
    }
    let c = nvrtc::compile(src, arch, options)?;
    if let Some(stem) = &stem {
        write_entry(stem, &c);
    }
    remember(key, &c);
    Ok(c)
}

/// The entry at `stem` (`.log` and `.cubin`), when both are there and complete: a non-empty CUBIN, and for a
/// compile that asked for ptxas' report (`report`), a log that holds it.
fn read_entry(stem: &Path, report: bool) -> Option<Compiled> {
    let log = std::fs::read_to_string(stem.with_extension("log")).ok()?;
    let cubin = std::fs::read(stem.with_extension("cubin")).ok()?;
    let complete = !cubin.is_empty() && (!report || nvrtc::has_ptxas_report(&log));
    complete.then_some(Compiled { cubin, log })
}

/// Keep `c` at `stem`, each file written whole under a name of its own and renamed into place (a reader in
/// another process sees the old file, none, or the new one, never a part), the log first: an entry is read
/// only when its CUBIN is there. A file that cannot be written is only not kept.
fn write_entry(stem: &Path, c: &Compiled) {
    if let Some(d) = stem.parent() {
        let _ = std::fs::create_dir_all(d);
    }
    if write_whole(&stem.with_extension("log"), c.log.as_bytes()).is_ok() {
        let _ = write_whole(&stem.with_extension("cubin"), &c.cubin);
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
    use crate::runtime::Header;

    fn src(text: &str) -> Source {
        Source {
            name: "k.cu".into(),
            text: text.into(),
            headers: vec![Header {
                name: "swz.cuh".into(),
                text: "// spec".into(),
            }],
        }
    }

    #[test]
    fn key_covers_everything_nvrtc_sees() {
        let base = key(&src("a"), "sm_90", &[]);
        assert_eq!(base, key(&src("a"), "sm_90", &[]));
        assert_ne!(base, key(&src("b"), "sm_90", &[]));
        assert_ne!(base, key(&src("a"), "sm_90a", &[]));
        assert_ne!(base, key(&src("a"), "sm_90", &["-DX=1".into()]));
        let mut other_header = src("a");
        other_header.headers[0].text = "// other spec".into();
        assert_ne!(base, key(&other_header, "sm_90", &[]));
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
        // An empty log is no ptxas report: a hit only for a compile that did not ask for one.
        assert!(read_entry(&stem, true).is_none());
        assert_eq!(read_entry(&stem, false).unwrap().cubin, b"CUBIN");
        let log = "ptxas info    : Used 8 registers, used 0 barriers";
        write_entry(
            &stem,
            &Compiled {
                cubin: b"NEW".to_vec(),
                log: log.into(),
            },
        );
        let c = read_entry(&stem, true).unwrap();
        assert_eq!((c.cubin.as_slice(), c.log.as_str()), (&b"NEW"[..], log));
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

    #[test]
    fn a_cubin_on_disk_is_reused_without_nvrtc() {
        let dir = std::env::temp_dir().join(format!("swz-cubin-cache-{}", std::process::id()));
        let s = src("// never compiled here");
        let k = key(&s, "sm_90", &[]);
        std::fs::create_dir_all(&dir).unwrap();
        let stem = dir.join(format!("k-{k:016x}"));
        std::fs::write(stem.with_extension("cubin"), b"CUBIN").unwrap();
        std::fs::write(stem.with_extension("log"), "ptxas log").unwrap();
        let c = compile_in(Some(&dir), &s, "sm_90", &[]).unwrap();
        assert_eq!(
            (c.cubin.as_slice(), c.log.as_str()),
            (&b"CUBIN"[..], "ptxas log")
        );
        // Now remembered in memory too.
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(compile(&s, "sm_90", &[]).unwrap().cubin, b"CUBIN");
    }
}
