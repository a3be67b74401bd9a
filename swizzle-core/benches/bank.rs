//! Throughput of the wavefront model: warp instructions analysed per second on one core.
//!
//! `cargo bench -p swizzle-core --bench bank`. Three inputs, each a fixed list of warp instructions:
//! - `conflict_free`: every instruction a kernel issues for row16 + ldmatrix.x4 (+ .trans) on a 128x64 f16 tile
//!   with Sw<3,3,3>, and column reads + row writes of a 32x32 f32 transpose tile padded by one word;
//! - `unswizzled`: the same patterns on the unswizzled tiles (8-way ldmatrix, 32-way column reads);
//! - `truth_mix`: the 723 hardware-counted instructions of `tests/data/bank_truth_sample.json` (every op,
//!   conflict-free to 32-way, weighted towards heavy conflicts).
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use swizzle_core::bank::{report, wavefronts};
use swizzle_core::pattern::{Access, Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::Swizzle;

#[path = "../tests/common/bank_case.rs"]
mod bank_case;

fn truth_mix() -> Vec<Access> {
    let text = include_str!("../tests/data/bank_truth_sample.json");
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (op, a) = bank_case::op_and_addrs(c);
            Access {
                op,
                addrs: a.try_into().unwrap(),
            }
        })
        .collect()
}

fn kernel_mix(swizzled: bool) -> Vec<Access> {
    let mma = Smem::row_major(128, 64, Elem::F16);
    let transpose = Smem::row_major(32, 32, Elem::F32);
    let (mma, transpose) = if swizzled {
        (
            mma.with_swizzle(Swizzle::new(3, 3, 3)),
            transpose.with_padding(4),
        )
    } else {
        (mma, transpose)
    };
    let mut all = Vec::new();
    for p in [
        Pattern::ROW16,
        Pattern::LDMATRIX_X4,
        Pattern::LDMATRIX_X4_TRANS,
    ] {
        all.extend(p.accesses(&mma).unwrap());
    }
    for p in [Pattern::COL_LD, Pattern::ROW_ST] {
        all.extend(p.accesses(&transpose).unwrap());
    }
    all
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("bank");
    for (name, list) in [
        ("conflict_free", kernel_mix(true)),
        ("unswizzled", kernel_mix(false)),
        ("truth_mix", truth_mix()),
    ] {
        g.throughput(Throughput::Elements(list.len() as u64));
        g.bench_function(format!("wavefronts/{name}"), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for a in &list {
                    sum = sum.wrapping_add(wavefronts(black_box(a.op), black_box(&a.addrs)));
                }
                sum
            })
        });
        g.bench_function(format!("report/{name}"), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for a in &list {
                    sum = sum.wrapping_add(report(black_box(a.op), black_box(&a.addrs)).wavefronts);
                }
                sum
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
