//! Host-side buffers of any element type: seeded random inputs (never zeros), the poison pattern, and the
//! comparison with a host reference.
//!
//! A [`HostBuf`] is raw little-endian bytes plus its [`Elem`]; values go in and out as `f64` (exact for every
//! type up to 32 bits, f64 itself, and 64-bit integers up to 2^53), so a host reference can be written once in
//! `f64` whatever the kernel's element type, or move elements untouched ([`HostBuf::copy_elem`]).

use super::Tolerance;
use crate::elem::HostElem;
use swizzle_core::Elem;

/// Elements of one type, as bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostBuf {
    pub elem: Elem,
    pub bytes: Vec<u8>,
}

impl HostBuf {
    /// `len` zero elements.
    pub fn zeros(elem: Elem, len: usize) -> HostBuf {
        HostBuf {
            elem,
            bytes: vec![0; len * elem.bytes() as usize],
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len() / self.elem.bytes() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// `len` seeded pseudo-random values (SplitMix64), the same on every machine: uniform in `[-1, 1)` for
    /// floats, small integers in `[-8, 8)` (`[0, 16)` unsigned) for integers. Never all zeros. Large buffers
    /// (benchmark inputs have 2^28 elements) are made in chunks of 2^16 on every core, each chunk's values
    /// computed from its first index ([`crate::elem::unit_values_from`]), with no `f64` copy of the whole buffer.
    pub fn random(elem: Elem, len: usize, seed: u64) -> HostBuf {
        HostBuf::random_from(elem, 0, len, seed)
    }

    /// Elements `start..start + len` of [`HostBuf::random`]`(elem, .., seed)`: a large buffer made (and uploaded)
    /// piece by piece.
    pub fn random_from(elem: Elem, start: usize, len: usize, seed: u64) -> HostBuf {
        let b = elem.bytes() as usize;
        let mut bytes = vec![0u8; len * b];
        let chunks: Vec<(usize, &mut [u8])> = bytes
            .chunks_mut(RANDOM_CHUNK * b)
            .enumerate()
            .map(|(i, c)| (start + i * RANDOM_CHUNK, c))
            .collect();
        let threads = crate::frame::host_threads().min(chunks.len()).max(1);
        let mut groups: Vec<Vec<(usize, &mut [u8])>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, c) in chunks.into_iter().enumerate() {
            groups[i % threads].push(c);
        }
        let fill = |group: Vec<(usize, &mut [u8])>| {
            for (start, out) in group {
                let values: Vec<f64> = crate::elem::unit_values_from(start, out.len() / b, seed)
                    .map(|u| match kind(elem) {
                        Kind::Float => u,
                        Kind::Signed => (u * 8.0).floor(),
                        Kind::Unsigned => ((u + 1.0) * 8.0).floor(),
                    })
                    .collect();
                out.copy_from_slice(&HostBuf::from_f64(elem, &values).bytes);
            }
        };
        if threads == 1 {
            groups.into_iter().for_each(fill);
        } else {
            std::thread::scope(|s| {
                for g in groups {
                    s.spawn(move || fill(g));
                }
            });
        }
        HostBuf { elem, bytes }
    }

    /// Values rounded to `elem` (round to nearest even for floats, truncation toward zero for integers).
    pub fn from_f64(elem: Elem, values: &[f64]) -> HostBuf {
        let mut bytes = Vec::with_capacity(values.len() * elem.bytes() as usize);
        // One match per buffer, not per element: benchmark inputs have 2^28 elements.
        match elem.name() {
            "f32" | "tf32" => values
                .iter()
                .for_each(|&v| bytes.extend((v as f32).to_le_bytes())),
            "f16" => values
                .iter()
                .for_each(|&v| bytes.extend(half::f16::from_f64(v).to_le_bytes())),
            "bf16" => values
                .iter()
                .for_each(|&v| bytes.extend(half::bf16::from_f64(v).to_le_bytes())),
            _ => values.iter().for_each(|&v| encode(elem, v, &mut bytes)),
        }
        HostBuf { elem, bytes }
    }

    /// Typed host values ([`HostElem`]) as a buffer of their element type.
    pub fn of<E: HostElem>(values: &[E]) -> HostBuf {
        let v: Vec<f64> = values.iter().map(|x| x.to_f64()).collect();
        HostBuf::from_f64(E::ELEM, &v)
    }

    /// The elements as `E`; panics unless `E` is the buffer's element type.
    pub fn typed<E: HostElem>(&self) -> Vec<E> {
        assert_eq!(
            E::ELEM,
            self.elem,
            "HostBuf::typed: the buffer holds {}",
            self.elem
        );
        (0..self.len()).map(|i| E::from_f64(self.get(i))).collect()
    }

    /// Element `i` as `f64`.
    pub fn get(&self, i: usize) -> f64 {
        let b = self.elem.bytes() as usize;
        decode(self.elem, &self.bytes[i * b..(i + 1) * b])
    }

    pub fn to_f64(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// The raw bytes of element `i`.
    pub fn elem_bytes(&self, i: usize) -> &[u8] {
        let b = self.elem.bytes() as usize;
        &self.bytes[i * b..(i + 1) * b]
    }

    /// Copy element `from` of `src` into element `to` of `self`, bit for bit (same element type).
    pub fn copy_elem(&mut self, to: usize, src: &HostBuf, from: usize) {
        let b = self.elem.bytes() as usize;
        self.bytes[to * b..(to + 1) * b].copy_from_slice(src.elem_bytes(from));
    }

    /// True when element `i` is still the poison (every byte [`poison`] of the element type).
    pub fn is_poison(&self, i: usize) -> bool {
        let p = poison(self.elem);
        self.elem_bytes(i).iter().all(|&b| b == p)
    }

    /// Compare with `expected`: `Ok(())`, or one line naming how many elements are wrong, how many were never
    /// written (still poison), and the first wrong one (index, got, expected).
    pub fn compare(&self, expected: &HostBuf, tol: Tolerance) -> Result<(), String> {
        if self.len() != expected.len() {
            return Err(format!(
                "{} elements, expected {}",
                self.len(),
                expected.len()
            ));
        }
        let ok = |i: usize| match tol {
            Tolerance::Exact => self.elem_bytes(i) == expected.elem_bytes(i),
            Tolerance::Close { abs, rel } => {
                let (g, e) = (self.get(i), expected.get(i));
                (g - e).abs() <= abs + rel * e.abs()
            }
            // One term: verification resolves a sum at the problem's K first (`Tolerance::at`).
            Tolerance::Sum { per_term } => (self.get(i) - expected.get(i)).abs() <= per_term,
        };
        let bad: Vec<usize> = (0..self.len()).filter(|&i| !ok(i)).collect();
        let Some(&first) = bad.first() else {
            return Ok(());
        };
        let poison = bad.iter().filter(|&&i| self.is_poison(i)).count();
        Err(format!(
            "{} of {} elements wrong ({poison} never written); first at index {first}: got {} (bits {}), \
             expected {} (bits {})",
            bad.len(),
            self.len(),
            self.get(first),
            hex(self.elem_bytes(first)),
            expected.get(first),
            hex(expected.elem_bytes(first))
        ))
    }
}

/// Elements per chunk of [`HostBuf::random`] (each chunk's values pass through a chunk-sized `f64` buffer).
const RANDOM_CHUNK: usize = 1 << 16;

/// The byte every output of `elem` is filled with before a correctness run: 0xFF for floats (a NaN in every
/// float type), 0x80 for integers (`0x80808080` as an i32: far outside any value a kernel computes from
/// [`HostBuf::random`]-sized inputs, where all-ones would be -1).
pub fn poison(elem: Elem) -> u8 {
    match kind(elem) {
        Kind::Float => 0xFF,
        Kind::Signed | Kind::Unsigned => 0x80,
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::from("0x");
    for b in bytes.iter().rev() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

enum Kind {
    Float,
    Signed,
    Unsigned,
}

fn kind(elem: Elem) -> Kind {
    let n = elem.name();
    if n.starts_with('f') || n.starts_with('e') || n == "bf16" || n == "tf32" {
        Kind::Float
    } else if n.starts_with('i') {
        Kind::Signed
    } else {
        Kind::Unsigned
    }
}

fn encode(elem: Elem, v: f64, out: &mut Vec<u8>) {
    match elem.name() {
        "f32" | "tf32" => out.extend((v as f32).to_le_bytes()),
        "f64" => out.extend(v.to_le_bytes()),
        "f16" => out.extend(half::f16::from_f64(v).to_le_bytes()),
        "bf16" => out.extend(half::bf16::from_f64(v).to_le_bytes()),
        "e4m3" => out.push(crate::elem::e4m3::encode(v)),
        "e5m2" => out.push(e5m2(v)),
        _ => {
            let n = elem.bytes() as usize;
            let i = v as i128; // truncation toward zero; saturating
            out.extend(&i.to_le_bytes()[..n.min(16)]);
            out.extend(std::iter::repeat_n(
                if i < 0 { 0xFF } else { 0 },
                n.saturating_sub(16),
            ));
        }
    }
}

fn decode(elem: Elem, b: &[u8]) -> f64 {
    match elem.name() {
        "f32" | "tf32" => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
        "f64" => f64::from_le_bytes(b.try_into().expect("8 bytes")),
        "f16" => half::f16::from_le_bytes(b.try_into().expect("2 bytes")).to_f64(),
        "bf16" => half::bf16::from_le_bytes(b.try_into().expect("2 bytes")).to_f64(),
        "e4m3" => crate::elem::e4m3::decode(b[0]),
        "e5m2" => e5m2_value(b[0]),
        _ => {
            let mut buf = [0u8; 16];
            let n = b.len().min(16);
            buf[..n].copy_from_slice(&b[..n]);
            let signed = matches!(kind(elem), Kind::Signed);
            if signed && n < 16 && b[n - 1] & 0x80 != 0 {
                buf[n..].fill(0xFF);
            }
            i128::from_le_bytes(buf) as f64
        }
    }
}

/// An OCP e5m2 value (5 exponent bits, bias 15, 2 mantissa bits; e4m3 is [`crate::elem::e4m3`]).
fn e5m2_value(b: u8) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let (exp, man) = (((b >> 2) & 0x1F) as i32, (b & 3) as f64);
    if exp == 0 {
        sign * man / 4.0 * 2f64.powi(-14)
    } else {
        sign * (1.0 + man / 4.0) * 2f64.powi(exp - 15)
    }
}

/// The nearest e5m2 value by search (256 candidates; host-side test data only).
fn e5m2(v: f64) -> u8 {
    (0..=255u8)
        .min_by(|&a, &b| {
            (e5m2_value(a) - v)
                .abs()
                .total_cmp(&(e5m2_value(b) - v).abs())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_is_seeded_and_round_trips() {
        for elem in [
            Elem::F32,
            Elem::F16,
            Elem::BF16,
            Elem::F64,
            Elem::I32,
            Elem::U8,
            Elem::I8,
        ] {
            let a = HostBuf::random(elem, 1000, 7);
            assert_eq!(a, HostBuf::random(elem, 1000, 7), "{elem}");
            assert_ne!(a, HostBuf::random(elem, 1000, 8), "{elem}");
            assert_eq!(a.len(), 1000);
            let v = a.to_f64();
            assert!(v.iter().filter(|x| **x == 0.0).count() < 200, "{elem}");
            assert_eq!(HostBuf::from_f64(elem, &v), a, "{elem}: f64 round trip");
        }
        let i = HostBuf::from_f64(Elem::I8, &[-3.0, 5.0]);
        assert_eq!(i.to_f64(), vec![-3.0, 5.0]);
    }

    #[test]
    fn random_in_chunks_is_the_sequence() {
        let len = 2 * RANDOM_CHUNK + 12_345;
        let seq: Vec<f64> = crate::elem::unit_values(len, 9).collect();
        assert_eq!(
            HostBuf::random(Elem::F32, len, 9),
            HostBuf::from_f64(Elem::F32, &seq)
        );
        let ints: Vec<f64> = seq.iter().map(|u| (u * 8.0).floor()).collect();
        assert_eq!(
            HostBuf::random(Elem::I8, len, 9),
            HostBuf::from_f64(Elem::I8, &ints)
        );
    }

    #[test]
    fn typed_values_round_trip_through_a_buffer() {
        let v: Vec<half::bf16> = crate::elem::random(100, 3);
        let b = HostBuf::of(&v);
        assert_eq!(b.elem, Elem::BF16);
        assert_eq!(b.typed::<half::bf16>(), v);
        let i = HostBuf::of(&[-7i32, 0, 1 << 24]);
        assert_eq!(i, HostBuf::from_f64(Elem::I32, &[-7.0, 0.0, 16_777_216.0]));
        assert_eq!(i.typed::<i32>(), [-7, 0, 1 << 24]);
    }

    #[test]
    fn compare_names_the_first_wrong_element() {
        let e = HostBuf::from_f64(Elem::F32, &[1.0, 2.0, 3.0]);
        let mut g = e.clone();
        assert_eq!(g.compare(&e, Tolerance::Exact), Ok(()));
        g.bytes[4..8].fill(poison(Elem::F32));
        let msg = g.compare(&e, Tolerance::Exact).unwrap_err();
        assert!(
            msg.starts_with("1 of 3 elements wrong (1 never written); first at index 1"),
            "{msg}"
        );
        let near = HostBuf::from_f64(Elem::F32, &[1.0, 2.001, 3.0]);
        assert!(near.compare(&e, Tolerance::Exact).is_err());
        assert_eq!(
            near.compare(
                &e,
                Tolerance::Close {
                    abs: 0.0,
                    rel: 1e-3
                }
            ),
            Ok(())
        );
    }

    #[test]
    fn fp8_values() {
        assert_eq!(e5m2_value(0x3C), 1.0);
        assert_eq!(e5m2_value(e5m2(-0.5)), -0.5);
        for elem in [Elem::E4M3, Elem::E5M2] {
            let b = HostBuf::from_f64(elem, &[1.0, -0.5, 0.0]);
            assert_eq!(b.to_f64(), [1.0, -0.5, 0.0], "{elem}");
        }
        assert_eq!(HostBuf::from_f64(Elem::E4M3, &[1.0]).bytes, [0x38]);
    }
}
