//! The generated register-cache struct (`RegisterCache::cuda_struct`) as host C++17: it compiles warning-free with
//! g++ after the generated `swz.cuh`, and for every step and lane it names the same source lane, publishes the same
//! register, and declares the same loaded registers, held elements and used steps as the Rust `RegisterCache`, for
//! every P in {1, 2, 4, 8} and k in 1..=16 plus the largest k each P allows.
//!
//! The C++ side reads registers through the kernel's own call (`published(rc, t, lane)` on an array holding each
//! register's index), so what is compared is what the CUDA kernel executes.
#[path = "common/gxx.rs"]
mod gxx;

use std::fmt::Write as _;
use swizzle_core::cuda::Header;
use swizzle_core::register_cache::{RegisterCache, WARP};

fn caches() -> Vec<RegisterCache> {
    [1u32, 2, 4, 8]
        .into_iter()
        .flat_map(|p| {
            (1..=16)
                .chain((p > 1).then_some(16 * p))
                .map(move |k| RegisterCache::new(p, k))
        })
        .collect()
}

/// `rc P k`, then per step `t delta slot uses(q)...`, per lane `L src reg`, and per (lane, reg) `holds element`.
fn rust_lines(rc: &RegisterCache) -> String {
    let mut s = format!("rc {} {}\n", rc.per_lane, rc.radius);
    for t in 0..rc.steps() {
        let st = rc.step(t);
        write!(
            s,
            "t {t} {} {} {}",
            st.delta,
            st.slot,
            u32::from(st.delta == 0)
        )
        .unwrap();
        for q in 0..rc.per_lane {
            write!(s, " {}", u32::from(rc.uses(q, t))).unwrap();
        }
        s.push('\n');
        for l in 0..WARP {
            writeln!(s, "L {} {}", rc.source_lane(t, l), rc.published_reg(t, l)).unwrap();
        }
    }
    for l in 0..WARP {
        for r in 0..rc.registers() {
            // The C++ `element` is the layout formula for any register; Rust says None where no lane loads one.
            let e = rc.element(l, r);
            writeln!(
                s,
                "H {} {}",
                u32::from(e.is_some()),
                e.map_or(String::from("-"), |e| e.to_string())
            )
            .unwrap();
        }
    }
    s
}

const DRIVER: &str = r#"
template <typename R>
void dump() {
    std::printf("rc %u %u\n", R::per_lane, R::radius);
    uint32_t regs[R::registers];
    for (uint32_t r = 0; r < R::registers; ++r) regs[r] = r;
    for (uint32_t t = 0; t < R::steps; ++t) {
        std::printf("t %u %u %u %u", t, R::delta(t), R::slot(t), R::is_local(t) ? 1u : 0u);
        for (uint32_t q = 0; q < R::per_lane; ++q) std::printf(" %u", R::uses(q, t) ? 1u : 0u);
        std::printf("\n");
        for (uint32_t l = 0; l < R::warp; ++l)
            std::printf("L %u %u\n", R::source_lane(t, l), R::template published<uint32_t>(regs, t, l));
    }
    for (uint32_t l = 0; l < R::warp; ++l)
        for (uint32_t r = 0; r < R::registers; ++r) {
            if (R::holds(l, r)) std::printf("H 1 %u\n", R::element(l, r));
            else std::printf("H 0 -\n");
        }
}
"#;

#[test]
fn generated_struct_matches_rust_on_every_step_and_lane() {
    let caches = caches();
    assert!(caches.len() >= 60, "{}", caches.len());
    let dir = gxx::workdir("register_cache_host", "every_step_and_lane");
    let mut src = String::from("#include <cstdio>\n");
    src.push_str(&Header::new().render());
    for (i, rc) in caches.iter().enumerate() {
        src.push_str(&rc.cuda_struct(&format!("Rc{i}")));
    }
    src.push_str("namespace swz {\n");
    src.push_str(DRIVER);
    src.push_str("}\nint main() {\n");
    for i in 0..caches.len() {
        writeln!(src, "    swz::dump<swz::Rc{i}>();").unwrap();
    }
    src.push_str("    return 0;\n}\n");
    let exe = gxx::compile(&dir, "rc.cpp", &src, &["-O1"]).unwrap_or_else(|e| panic!("g++:\n{e}"));
    let got = gxx::run(&exe);
    let want: String = caches.iter().map(rust_lines).collect();
    for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {n}");
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
