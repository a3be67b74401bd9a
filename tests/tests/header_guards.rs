//! Several generated headers in one translation unit, and the names a header refuses, checked with g++ (the
//! compiler CI has): the library part is guarded once (`SWZ_CUH_LIBRARY`), each set of named specs by a guard
//! derived from its text (or `--guard`), so two headers with different specs both take effect; a name the header
//! would break on (a keyword, a reserved identifier, one of its own names) is refused before any C++ is written.
#[path = "common/gxx.rs"]
mod gxx;

use std::path::{Path, PathBuf};
use swizzle_core::cuda::{Header, HeaderError, LIBRARY_GUARD};
use swizzle_core::raster::{Grid, Raster};
use swizzle_core::Swizzle;

/// A fresh directory for one test.
fn workdir(test: &str) -> PathBuf {
    gxx::workdir("header_guards", test)
}

/// Compile and link `main.cpp` in `dir` with g++; the compiler's output on failure.
fn gxx(dir: &Path, source: &str) -> Result<PathBuf, String> {
    gxx::compile(dir, "main.cpp", source, &[])
}

fn gemm() -> Header {
    Header::new()
        .swizzle("SmemA", Swizzle::new(3, 3, 3))
        .raster("GemmOrder", Raster::Strip { tile: 4 })
}

fn transpose() -> Header {
    Header::new()
        .swizzle("SmemT", Swizzle::new(2, 4, 3))
        .raster("TrOrder", Raster::Diagonal)
}

#[test]
fn two_headers_with_different_specs_compile_together() {
    let dir = workdir("two_headers");
    std::fs::write(dir.join("gemm.cuh"), gemm().render()).unwrap();
    std::fs::write(dir.join("transpose.cuh"), transpose().render()).unwrap();
    // A third header with the same specs as the first under a chosen guard, and the bare library.
    let custom = Header::new()
        .swizzle("SmemC", Swizzle::new(1, 4, 3))
        .try_guard("MY_PROJECT_SWZ")
        .unwrap();
    std::fs::write(dir.join("custom.cuh"), custom.render()).unwrap();
    std::fs::write(dir.join("bare.cuh"), Header::new().render()).unwrap();
    // Each header included twice, in both orders: every spec is defined exactly once.
    let src = r#"#include "gemm.cuh"
#include "transpose.cuh"
#include "bare.cuh"
#include "gemm.cuh"
#include "custom.cuh"
#include "transpose.cuh"
#include "custom.cuh"
#include <cstdio>
int main() {
    swz::Tile g = swz::GemmOrder::tile_of(5, 6, 3);
    swz::Tile t = swz::TrOrder::tile_of(4, 3, 3);
    std::printf("%u %u %u %u %u %u %u\n", swz::SmemA::apply(77), swz::SmemT::apply(300), swz::SmemC::apply(1000),
                g.x, g.y, t.x, t.y);
    return 0;
}
"#;
    let exe = gxx(&dir, src).unwrap_or_else(|e| panic!("g++:\n{e}"));
    let got = gxx::run(&exe);
    let g = Raster::Strip { tile: 4 }
        .tile_of(5, Grid::new(6, 3))
        .unwrap();
    let t = Raster::Diagonal.tile_of(4, Grid::new(3, 3)).unwrap();
    let expected = format!(
        "{} {} {} {} {} {} {}\n",
        Swizzle::new(3, 3, 3).apply(77),
        Swizzle::new(2, 4, 3).apply(300),
        Swizzle::new(1, 4, 3).apply(1000),
        g.0,
        g.1,
        t.0,
        t.1
    );
    assert_eq!(got, expected);
}

#[test]
fn one_name_with_two_meanings_is_a_compile_error_not_a_silent_drop() {
    let dir = workdir("two_meanings");
    let a = Header::new().swizzle("Smem", Swizzle::new(3, 3, 3));
    let b = Header::new().swizzle("Smem", Swizzle::new(2, 3, 3));
    std::fs::write(dir.join("a.cuh"), a.render()).unwrap();
    std::fs::write(dir.join("b.cuh"), b.render()).unwrap();
    let err = gxx(
        &dir,
        "#include \"a.cuh\"\n#include \"b.cuh\"\nint main() { return (int)swz::Smem::apply(1); }\n",
    )
    .expect_err("two different Smem compiled");
    assert!(err.contains("Smem"), "{err}");
}

#[test]
fn guards_are_split_and_derived_from_the_specs() {
    let text = gemm().render();
    let lib = format!("#ifndef {LIBRARY_GUARD}\n#define {LIBRARY_GUARD}\n");
    assert_eq!(text.matches(&lib).count(), 1);
    assert!(!Header::new().render().contains("SWZ_SPECS_"));
    let guard = |h: &Header| {
        let t = h.render();
        let at = t.find("#ifndef SWZ_SPECS_").expect("a spec guard");
        t[at + 8..].lines().next().unwrap().to_string()
    };
    // Same specs, same guard; any difference in the specs, another guard.
    assert_eq!(guard(&gemm()), guard(&gemm()));
    assert_ne!(guard(&gemm()), guard(&transpose()));
    assert_ne!(
        guard(&gemm()),
        guard(&Header::new().swizzle("SmemA", Swizzle::new(3, 3, 3)))
    );
    assert_ne!(
        guard(&Header::new().swizzle("SmemA", Swizzle::new(3, 3, 3))),
        guard(&Header::new().swizzle("SmemA", Swizzle::new(2, 3, 3)))
    );
    assert!(Header::new().try_guard("3D").is_err());
    assert!(Header::new().try_guard("__GUARD").is_err());
    assert!(Header::new().try_guard("SWZ_CUH_LIBRARY").is_err());
}

#[test]
fn keywords_reserved_identifiers_and_the_headers_own_names_are_refused() {
    let sw = Swizzle::new(3, 3, 3);
    let refused = |name: &str| Header::new().try_swizzle(name, sw).err();
    for kw in [
        "class", "while", "co_await", "requires", "and", "xor_eq", "char8_t", "restrict",
    ] {
        assert!(
            matches!(refused(kw), Some(HeaderError::NotAnIdentifier(_))),
            "{kw}"
        );
    }
    for reserved in ["_Foo", "__x", "a__b", "_Z"] {
        assert!(
            matches!(refused(reserved), Some(HeaderError::ReservedIdentifier(_))),
            "{reserved}"
        );
    }
    for own in [
        "uint32_t", "int32_t", "gridDim", "blockIdx", "Tile", "SWZ_HD",
    ] {
        assert!(
            matches!(refused(own), Some(HeaderError::Reserved(_))),
            "{own}"
        );
    }
    // Legal in namespace swz: a leading underscore before a lower-case letter is only reserved globally.
    let accepted = ["_smem", "SmemA", "tile_a", "T"];
    for name in accepted {
        assert_eq!(refused(name), None, "{name}");
    }
    // ... and the accepted names do compile, with g++, all in one header.
    let dir = workdir("accepted_names");
    let mut h = Header::new();
    for name in accepted {
        h = h.swizzle(name, sw);
    }
    std::fs::write(dir.join("swz.cuh"), h.render()).unwrap();
    gxx(
        &dir,
        "#include \"swz.cuh\"\nint main() { return (int)(swz::_smem::apply(0) + swz::T::apply(0)); }\n",
    )
    .unwrap_or_else(|e| panic!("g++:\n{e}"));
}

/// Every name the library part declares in `namespace swz` (`struct X`, `using X =`, and the functions) is
/// refused as a spec name: a header that grows a new type must also refuse it.
#[test]
fn every_name_the_library_declares_is_refused() {
    let text = Header::new().render();
    let mut names = Vec::new();
    let mut in_detail = false;
    // Namespace-scope declarations are the unindented lines; `namespace detail { ... }` is its own scope.
    for line in text.lines().filter(|l| !l.starts_with([' ', '\t'])) {
        if line.starts_with("namespace detail") {
            in_detail = true;
        }
        if line.starts_with("}  // namespace detail") {
            in_detail = false;
        }
        if in_detail || line.starts_with("//") || line.starts_with('#') {
            continue;
        }
        for intro in ["struct ", "using ", "namespace "] {
            if let Some(rest) = line.strip_prefix(intro) {
                names.push(ident_prefix(rest));
            }
        }
        // Functions: `... TYPE name(`.
        if let Some(paren) = line.find('(') {
            if line.contains("SWZ_HD") || line.contains("__device__") {
                if let Some(name) = line[..paren].split_whitespace().last() {
                    names.push(ident_prefix(name));
                }
            }
        }
    }
    names.retain(|n| !n.is_empty());
    assert!(names.len() > 10, "found only {names:?}");
    for n in names {
        assert!(
            Header::new()
                .try_swizzle(&n, Swizzle::new(3, 3, 3))
                .is_err(),
            "the header declares {n} but accepts it as a spec name"
        );
    }
}

fn ident_prefix(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}
