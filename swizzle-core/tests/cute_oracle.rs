//! Our descriptor encoders against NVIDIA's: `data/cute_descriptors.txt` is what CuTe's own builders
//! (`make_gmma_desc`, `make_umma_desc`, `make_instr_desc` and the descriptor bit-field unions, CUTLASS 4.2) print
//! for every swizzle layout, element widths 8 / 16 / 32, both majors, several tile shapes, every K step and MN
//! slice of each, and shared-memory addresses past the 18 encoded bits (`scripts/oracle/README.md` has the
//! command). Every case must be bit-for-bit equal.
use swizzle_core::descriptor::{element_address, Arch, Descriptor, SmemLayout};
use swizzle_core::tcgen05::{atom32_descriptor, InstrDesc, MmaType};
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::{ByteMode, Elem};

const TABLE: &str = include_str!("data/cute_descriptors.txt");

fn hex64(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap_or_else(|_| panic!("hex {s:?}"))
}

fn arch(s: &str) -> Arch {
    match s {
        "90" => Arch::Sm90,
        "100" => Arch::Sm100,
        _ => panic!("arch {s}"),
    }
}

fn major(s: &str) -> Major {
    match s {
        "K" => Major::K,
        "MN" => Major::MN,
        _ => panic!("major {s}"),
    }
}

fn elem(bits: &str) -> Elem {
    match bits {
        "8" => Elem::E4M3,
        "16" => Elem::F16,
        "32" => Elem::TF32,
        _ => panic!("bits {bits}"),
    }
}

/// The operand a `g` or `e` line describes: `ARCH MAJOR LAYOUT BITS MN K SLICE ADDR`.
struct Operand {
    arch: Arch,
    major: Major,
    elem: Elem,
    mn: u32,
    k: u32,
    slice: u32,
    addr: u32,
    /// `SW128A32`: the 32-byte-atom layout.
    atom32: bool,
    tile: OperandTile,
}

impl Operand {
    fn parse(f: &[&str]) -> Operand {
        let (arch, major, elem) = (arch(f[1]), major(f[2]), elem(f[4]));
        let num = |i: usize| f[i].parse::<u32>().unwrap();
        let (mn, k, slice, addr) = (num(5), num(6), num(7), hex64(f[8]) as u32);
        let atom32 = f[3] == "SW128A32";
        // The 32-byte-atom layout keeps the 128-byte MN-major placement (its own SBO): offsets from the SW128 tile.
        let mode = if atom32 {
            ByteMode::Sw128
        } else {
            ByteMode::from_name(f[3]).unwrap()
        };
        let tile = OperandTile::new(mode, elem, major, mn, k);
        Operand {
            arch,
            major,
            elem,
            mn,
            k,
            slice,
            addr,
            atom32,
            tile,
        }
    }

    /// The descriptor of the slice starting at byte `start`.
    fn descriptor(&self, start: u32) -> Descriptor {
        if self.atom32 {
            atom32_descriptor(self.elem.bytes(), self.k, self.slice, start)
        } else {
            Descriptor::of_slice(self.arch, &self.tile, self.slice, start)
        }
    }
}

/// `g ARCH MAJOR LAYOUT BITS MN K SLICE ADDR : D...`: one instruction operand per descriptor, K steps outer, MN
/// slices inner.
fn smem_line(f: &[&str], descs: &[&str]) -> usize {
    let o = Operand::parse(f);
    let (e, tile) = (o.elem, o.tile);
    let kstep = 32 / e.bytes();
    let mut want = Vec::new();
    for j in 0..o.k / kstep {
        for m in 0..o.mn / o.slice {
            let start = o.addr + tile.k_step_bytes(j) + tile.mn_offset_bytes(m * o.slice);
            want.push(o.descriptor(start).encode());
        }
    }
    assert_eq!(want.len(), descs.len(), "{}", f.join(" "));
    for (i, (w, c)) in want.iter().zip(descs).enumerate() {
        assert_eq!(
            *w,
            hex64(c),
            "case {i} of `{}`: ours {w:#x}, CuTe {c}",
            f.join(" ")
        );
        // And our decoder reads CuTe's bits back without complaint.
        assert!(Descriptor::decode(hex64(c), o.arch).is_ok(), "{c}");
    }
    descs.len()
}

/// `e ARCH MAJOR LAYOUT BITS MN K SLICE ADDR : A...`: where CuTe's tensor puts each 16-byte chunk of the first
/// instruction's operand, against where our descriptor's reading (`element_address`, what `swz decode desc`
/// prints) puts it.
fn element_line(f: &[&str], addrs: &[&str]) -> usize {
    let o = Operand::parse(f);
    let (mj, e, slice) = (o.major, o.elem, o.slice);
    let d = o.descriptor(o.addr);
    let (eb, chunk, kstep) = (e.bytes(), 16 / e.bytes(), 32 / e.bytes());
    let mut ours = Vec::new();
    match mj {
        Major::MN => {
            for kk in 0..kstep {
                for c in 0..slice / chunk {
                    ours.push(element_address(&d, mj, eb, c * chunk, kk));
                }
            }
        }
        Major::K => {
            for m in 0..16 {
                for c in 0..kstep / chunk {
                    ours.push(element_address(&d, mj, eb, m, c * chunk));
                }
            }
        }
    }
    let cute: Vec<u32> = addrs.iter().map(|x| hex64(x) as u32).collect();
    assert_eq!(ours, cute, "`{}`", f.join(" "));
    cute.len()
}

/// `f ARCH START LBO SBO BASE LBO_MODE LAYOUT D`: every field through the bit-field unions.
fn field_line(f: &[&str]) {
    let a = arch(f[1]);
    let code: u64 = f[7].parse().unwrap();
    let layout = match a {
        Arch::Sm90 => SmemLayout::from_code(code << 1),
        Arch::Sm100 => SmemLayout::from_code(code),
    }
    .unwrap();
    let d = Descriptor {
        arch: a,
        start: hex64(f[2]) as u32,
        lbo: hex64(f[3]) as u32,
        sbo: hex64(f[4]) as u32,
        base_offset: f[5].parse().unwrap(),
        lbo_absolute: f[6] == "1",
        layout,
    };
    assert_eq!(d.encode(), hex64(f[8]), "`{}`", f.join(" "));
    assert_eq!(
        Descriptor::decode(hex64(f[8]), a),
        Ok(d),
        "`{}`",
        f.join(" ")
    );
}

/// `i A B C M STEP AMAJ BMAJ : D(N=STEP) D(N=2*STEP) ...`.
fn idesc_line(f: &[&str], descs: &[&str]) -> usize {
    let t = |s: &str| MmaType::from_name(s).unwrap_or_else(|| panic!("type {s}"));
    let (a, b) = (t(f[1]), t(f[2]));
    let d_f32 = match f[3] {
        "f32" => true,
        "f16" => false,
        c => panic!("C {c}"),
    };
    let m: u32 = f[4].parse().unwrap();
    let step: u32 = f[5].parse().unwrap();
    for (i, c) in descs.iter().enumerate() {
        let n = step * (i as u32 + 1);
        let d = InstrDesc::new(a, b, d_f32, m, n, major(f[6]), major(f[7]));
        assert_eq!(d.encode() as u64, hex64(c), "N = {n} of `{}`", f.join(" "));
        assert_eq!(
            InstrDesc::decode(hex64(c) as u32, a.kind(), d.cta_group),
            Ok(d)
        );
    }
    descs.len()
}

#[test]
fn bit_exact_against_cute() {
    let (mut g, mut fl, mut id, mut el) = ([0usize; 2], 0usize, 0usize, 0usize);
    for line in TABLE.lines() {
        let (head, descs) = match line.split_once(" : ") {
            Some((h, d)) => (h, d.split(' ').collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let f: Vec<&str> = head.split(' ').collect();
        match f[0] {
            "g" => g[(f[1] == "100") as usize] += smem_line(&f, &descs),
            "f" => {
                field_line(&f);
                fl += 1
            }
            "i" => id += idesc_line(&f, &descs),
            "e" => el += element_line(&f, &descs),
            other => panic!("line kind {other}"),
        }
    }
    let total = g[0] + g[1] + fl + id;
    eprintln!(
        "CuTe oracle: {} sm_90 and {} sm_100 shared-memory descriptors, {fl} field encodings, {id} instruction descriptors: {total} cases; {el} element addresses",
        g[0], g[1]
    );
    assert!(el > 1000, "{el}");
    // The case set: both architectures, every kind of line, at least 10,000 cases.
    assert!(
        g[0] > 2000 && g[1] > 2000 && fl >= 2000 && id > 2000,
        "{g:?} {fl} {id}"
    );
    assert!(total >= 10_000, "{total}");
    // The count the README and scripts/oracle/README.md quote.
    assert_eq!(total, 15_616);
}

/// The table covers what it says: every layout on both architectures (the 32-byte-atom one on sm_100), each
/// element width and both majors.
#[test]
fn the_case_set_covers_every_layout_width_and_major() {
    let mut seen = std::collections::BTreeSet::new();
    for line in TABLE.lines().filter(|l| l.starts_with("g ")) {
        let f: Vec<&str> = line.split(' ').collect();
        seen.insert((f[1], f[2], f[3], f[4]));
    }
    for a in ["90", "100"] {
        for l in ["NONE", "SW32", "SW64", "SW128"] {
            for bits in ["8", "16", "32"] {
                assert!(seen.contains(&(a, "K", l, bits)), "{a} K {l} {bits}");
            }
            assert!(seen.contains(&(a, "MN", l, "16")), "{a} MN {l}");
        }
    }
    for bits in ["8", "16", "32"] {
        assert!(
            seen.contains(&("100", "MN", "SW128A32", bits)),
            "A32 {bits}"
        );
        assert!(seen.contains(&("100", "MN", "SW64", bits)), "MN {bits}");
    }
}
