//! The header from a build script: [`write_header`] puts the generated header where a crate's `build.rs` wants it
//! (`OUT_DIR/include/swz.h`), so CUDA compiled by nvcc through `cc`, or prepended to a kernel for NVRTC, reads the
//! same numbers as the Rust code.

use super::Header;
use std::io;
use std::path::Path;

/// Write `header` (its named specs and the library) to `path` for a build script, and tell cargo to run the
/// script again if that file is changed or removed (`cargo:rerun-if-changed=PATH`).
///
/// The parent directories are created. The file is rewritten only when its text changes, so a C++ build that
/// watches its modification time does not recompile on every `cargo build`. Once a build script prints a
/// `rerun-if-changed` line, cargo reruns it only when the build script itself, a listed file or a dependency
/// (this crate's version included) changes, which is exactly what the header depends on.
///
/// A `build.rs` that generates the header, exposes it to dependents (`DEP_<links>_INCLUDE`, which needs
/// `links = "..."` in the manifest) and to the crate itself (`include_str!` for NVRTC):
///
/// ```no_run
/// // build.rs
/// use swizzle_core::cuda::{write_header, Header};
/// use swizzle_core::{raster::Raster, Swizzle};
///
/// let include = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("include");
/// let header = Header::new()
///     .swizzle("SmemA", Swizzle::new(3, 3, 3))
///     .raster("GemmOrder", Raster::Strip { tile: 4 });
/// write_header(include.join("swz.h"), &header).expect("write swz.h");
/// println!("cargo:include={}", include.display());
/// ```
///
/// ```
/// use swizzle_core::cuda::{write_header, Header};
/// use swizzle_core::Swizzle;
/// let dir = std::env::temp_dir().join(format!("swz-write-header-doc-{}", std::process::id()));
/// let path = dir.join("include").join("swz.h");
/// let header = Header::new().swizzle("SmemA", Swizzle::new(3, 3, 3));
/// write_header(&path, &header).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), header.render());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_header(path: impl AsRef<Path>, header: &Header) -> io::Result<()> {
    let path = path.as_ref();
    let text = header.render();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let unchanged = std::fs::read(path).is_ok_and(|old| old == text.as_bytes());
    if !unchanged {
        std::fs::write(path, text)?;
    }
    println!("cargo:rerun-if-changed={}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::Raster;
    use crate::Swizzle;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("swz-out-dir-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn writes_the_rendered_header_and_keeps_an_unchanged_file() {
        let dir = scratch("keep");
        let path = dir.join("a").join("b").join("swz.h");
        let h = Header::new().swizzle("SmemA", Swizzle::new(3, 3, 3));
        write_header(&path, &h).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), h.render());
        // The same text again: the file is not rewritten (its modification time stays).
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_header(&path, &h).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            before
        );
        // Other specs: rewritten.
        let h2 = h.raster("GemmOrder", Raster::Strip { tile: 4 });
        write_header(&path, &h2).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), h2.render());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_in_the_way_is_an_error() {
        let dir = scratch("dir");
        std::fs::create_dir_all(dir.join("swz.h")).unwrap();
        assert!(write_header(dir.join("swz.h"), &Header::new()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
