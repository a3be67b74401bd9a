//! The HBM read probe (`bench::hbm_read`) reads every whole 16-byte word it is credited with: the XOR of its
//! per-warp outputs (poisoned first) equals the host's XOR of the buffer, at lengths that are not multiples of
//! the grid's stride or of 16 bytes.

use gpu_bench::hbm_read::{xor_words, HbmRead};
use gpu_kernels::frame::HostBuf;
use gpu_kernels::{Elem, Gpu};

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn probe_reads_every_word() {
    let gpu = Gpu::open(0).expect("a GPU");
    let probe = HbmRead::new(&gpu).expect("probe compiles");
    for (len, seed) in [
        (16usize, 1u64),
        (4096 + 24, 2),
        ((1 << 20) + 5, 3),
        (33_700_000 + 7, 4),
    ] {
        // Seeded random f32 words (never zeros), cut to `len` bytes.
        let mut host = HostBuf::random(Elem::F32, len.div_ceil(4), seed).bytes;
        host.truncate(len);
        let want = xor_words(&host);
        // The check can fail: the last whole word changes the XOR.
        let whole = len / 16 * 16;
        assert_ne!(
            xor_words(&host[..whole - 16]),
            want,
            "len {len}: last word is neutral"
        );
        let src = gpu.upload(&host).expect("upload");
        let mut out = gpu.zeros::<u32>(probe.out_words()).expect("alloc");
        gpu.fill_bytes(&mut out, 0xA5).expect("poison");
        probe.launch(&gpu, &src, &mut out).expect("launch");
        gpu.sync().expect("probe ran");
        let got = gpu
            .download(&out)
            .expect("download")
            .iter()
            .fold(0, |a, w| a ^ w);
        assert_eq!(got, want, "len {len}: probe XOR {got:#x}, host {want:#x}");
    }
}
