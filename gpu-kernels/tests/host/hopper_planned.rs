use gpu_kernels::frame::{Family, Size};
use gpu_kernels::hopper::family::HOPPER;
use gpu_kernels::hopper::planned::*;
use gpu_kernels::hopper::{HopperSpec, SHIPPED};
use gpu_kernels::{DeviceProps, Elem};
use swizzle_core::plan::{self, Device, Problem, Variant};

/// The LLM layers (N x K) at every token count M: 30 problems.
fn table() -> Vec<Size> {
    llm_shapes()
}

fn h100_props() -> DeviceProps {
    DeviceProps {
        ordinal: 0,
        name: "NVIDIA H100 80GB HBM3".into(),
        compute_capability: (9, 0),
        sm_count: 132,
        l2_bytes: 50 << 20,
        smem_per_block: 48 << 10,
        smem_per_block_optin: 232_448,
        smem_per_sm: 233_472,
        total_mem_bytes: 80 << 30,
        mem_clock_khz: 2_619_000,
        mem_bus_bits: 5120,
    }
}

/// `spec` runs `v`: the same tile, ring, cluster, split and order.
fn runs(spec: &HopperSpec, v: &Variant) -> bool {
    (
        spec.bm(),
        spec.bn,
        spec.bk,
        spec.stages,
        spec.cluster,
        spec.split,
        spec.raster,
    ) == (v.bm, v.bn, v.bk, v.stages, v.cluster, v.split, v.order)
}

/// A GPU other than sm_90 is refused in one line, before anything is compiled or launched.
#[test]
fn other_gpus_are_refused_before_any_compile() {
    assert!(gpu_kernels::hopper::check_device(&h100_props()).is_ok());
    for cc in [(8, 0), (8, 9), (10, 0)] {
        let props = DeviceProps {
            name: "NVIDIA A100-SXM4-80GB".into(),
            compute_capability: cc,
            ..h100_props()
        };
        let e = gpu_kernels::hopper::check_device(&props)
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs an sm_90 GPU") && !e.contains('\n'), "{e}");
    }
}

#[test]
fn the_llm_table_is_thirty_problems_layer_by_layer() {
    let s = llm_shapes();
    assert_eq!(s.len(), 30);
    assert_eq!(s[0], Size::mnk(16, 6144, 4096));
    assert_eq!(s[4], Size::mnk(8192, 6144, 4096));
    assert_eq!(s[29], Size::mnk(8192, 8192, 28672));
}

#[test]
fn every_candidate_maps_to_a_spec_that_runs_it() {
    let mut seen = 0;
    for dev in [Device::H100, Device::H200] {
        for &(m, n, k) in &[(16, 4096, 4096), (8192, 8192, 8192), (1000, 520, 136)] {
            for ty in [Elem::BF16, Elem::F16] {
                let p = Problem::new(Size::mnk(m, n, k), ty);
                let cands = plan::candidates(&p, &dev);
                assert!(!cands.is_empty());
                for v in cands {
                    let spec = spec_of(&v, ty).unwrap();
                    assert!(runs(&spec, &v), "{v}: {spec}");
                    spec.validate(dev.smem_per_block as usize)
                        .unwrap_or_else(|e| panic!("{v}: {e}"));
                    // The planner's shared-memory model is the kernel's layout.
                    assert_eq!(spec.smem_bytes(), v.smem_bytes(ty), "{v}");
                    seen += 1;
                }
            }
        }
    }
    assert!(seen >= 24, "{seen}");
    assert!(runs(&SHIPPED, &Variant::SHIPPED));
    assert_eq!(spec_of(&Variant::SHIPPED, Elem::BF16).unwrap(), SHIPPED);
}

/// The compile check's list holds every N tile the planner knows, unsplit with and without the multicast pair
/// and split, and each of its specs is the one the planner would run (same ring, same shared memory).
#[test]
fn kernel_variants_cover_every_width_clustered_and_split() {
    for ty in [Elem::BF16, Elem::F16] {
        let specs = kernel_variants(ty);
        for bn in plan::BNS {
            for (cluster, split) in [(1, 1), (2, 1), (1, 2)] {
                assert!(
                    specs
                        .iter()
                        .any(|s| s.bn == bn && s.cluster == cluster && s.split == split),
                    "{ty} BN {bn} cluster{cluster} split{split}"
                );
            }
        }
        for s in &specs {
            s.validate(Device::H100.smem_per_block as usize)
                .unwrap_or_else(|e| panic!("{s}: {e}"));
            let v = Variant {
                bm: s.bm(),
                bn: s.bn,
                stages: s.stages,
                cluster: s.cluster,
                split: s.split,
                ..Variant::SHIPPED
            };
            assert!(runs(s, &v), "{s}");
            assert_eq!(s.smem_bytes(), v.smem_bytes(ty), "{s}");
            assert_eq!(
                Some(s.stages),
                Variant::stages_for_split(v.bm, v.bn, v.split, ty, Device::H100.smem_per_block),
                "{s}"
            );
        }
    }
}

#[test]
fn unimplemented_variants_are_refused() {
    for v in [
        Variant {
            split: 2,
            ..Variant::SHIPPED
        },
        Variant {
            split: 16,
            cluster: 1,
            ..Variant::SHIPPED
        },
        Variant {
            cluster: 4,
            ..Variant::SHIPPED
        },
        Variant {
            bm: 192,
            ..Variant::SHIPPED
        },
        Variant {
            bn: 80,
            ..Variant::SHIPPED
        },
    ] {
        let e = spec_of(&v, Elem::BF16).unwrap_err().to_string();
        assert!(e.contains("does not implement"), "{e}");
    }
}

#[test]
fn the_table_shapes_plan_to_specs_the_kernel_runs() {
    let props = h100_props();
    for size in table() {
        for ty in [Elem::BF16, Elem::F16] {
            let p = HopperSpec::for_problem(size, ty, &props).unwrap();
            assert_eq!(p.device, "h100");
            assert_eq!(p.spec.ty, ty);
            p.spec.validate(props.smem_per_block_optin).unwrap();
            gpu_kernels::hopper::check_dims(size).unwrap();
            let launch = HOPPER.launch(&p.spec, size).unwrap();
            let grid = launch.config.grid_dim.0;
            assert!(grid >= p.spec.cluster && grid.is_multiple_of(p.spec.cluster));
            assert!(grid <= props.sm_count, "{size}: grid {grid}");
            // The plan is no slower, by the model, than the shipped spec.
            let (spec, shipped) = shipped(size, ty, &plan_device(&props)).unwrap();
            assert_eq!(spec, SHIPPED.with_ty(ty));
            assert!(p.estimate.time_s <= shipped.time_s * (1.0 + 1e-9));
        }
    }
}

#[test]
fn small_m_plans_a_64_row_tile_on_more_ctas_than_the_shipped_one() {
    // 16 tokens through a 4096x4096 layer: 16 tiles of 128x256 for 132 SMs; the model prefers 64-row tiles
    // (one consumer warpgroup) on many more CTAs, split along K when the tiles alone are too few.
    let props = h100_props();
    let p = HopperSpec::for_problem(Size::mnk(16, 4096, 4096), Elem::BF16, &props).unwrap();
    assert_eq!(p.spec.bm(), 64, "{}", p.spec);
    let ctas = |s: &HopperSpec| s.grid(16, 4096, props.sm_count / s.ctas());
    assert!(ctas(&p.spec) >= 2 * ctas(&SHIPPED), "{}", p.spec);
    // A split plan is one the kernel runs: a cluster of parts, no multicast pair.
    if p.spec.split > 1 {
        assert_eq!(p.spec.cluster, 1);
        assert!(p.spec.split <= plan::MAX_SPLIT);
    }
}

#[test]
fn devices_map_to_the_planners_presets() {
    let h100 = h100_props();
    assert_eq!(plan_device(&h100), Device::H100);
    let h200 = DeviceProps {
        name: "NVIDIA H200".into(),
        total_mem_bytes: 141 << 30,
        l2_bytes: 60 << 20,
        ..h100.clone()
    };
    assert_eq!(plan_device(&h200), Device::H200);
    let renamed = DeviceProps {
        name: "GH100".into(),
        ..h200
    };
    assert_eq!(plan_device(&renamed).name, "h200");
    // Unknown: the H100's numbers with the device's own SMs and shared memory.
    let pcie = DeviceProps {
        name: "NVIDIA H100 PCIe".into(),
        sm_count: 114,
        ..h100
    };
    let d = plan_device(&pcie);
    assert_eq!((d.name, d.sms, d.l2.sms), ("h100", 114, 114));
    assert_eq!(d.hbm_bytes_per_s, Device::H100.hbm_bytes_per_s);
    assert!(plan_for(Size::mnk(16, 4096, 4095), Elem::BF16, &d)
        .unwrap_err()
        .to_string()
        .contains("multiple of 8"));
}
