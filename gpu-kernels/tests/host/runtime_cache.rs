use gpu_kernels::runtime::cache::*;
use gpu_kernels::runtime::{Header, Source};

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
fn another_nvrtc_or_driver_is_another_key() {
    let s = src("a");
    let base = key_for("nvrtc 13.0 driver 13000", &s, "sm_90", &[]);
    assert_ne!(base, key_for("nvrtc 13.1 driver 13000", &s, "sm_90", &[]));
    assert_ne!(base, key_for("nvrtc 13.0 driver 12080", &s, "sm_90", &[]));
    assert_eq!(
        key(&s, "sm_90", &[]),
        key_for(toolchain(), &s, "sm_90", &[])
    );
    assert!(toolchain().starts_with("nvrtc ") && toolchain().contains(" driver "));
}

#[test]
fn a_cubin_on_disk_is_reused_without_nvrtc() {
    let dir = std::env::temp_dir().join(format!("swz-cubin-cache-{}", std::process::id()));
    let s = src("// never compiled here");
    let k = key(&s, "sm_90", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    let stem = dir.join(format!("k-{k:016x}"));
    std::fs::write(stem.with_extension("cubin"), b"\x7fELF CUBIN").unwrap();
    std::fs::write(stem.with_extension("log"), "ptxas log").unwrap();
    let c = compile_in(Some(&dir), &s, "sm_90", &[]).unwrap();
    assert_eq!(
        (c.cubin.as_slice(), c.log.as_str()),
        (&b"\x7fELF CUBIN"[..], "ptxas log")
    );
    // Now remembered in memory too.
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(compile(&s, "sm_90", &[]).unwrap().cubin, b"\x7fELF CUBIN");
}
