//! The names the `swizzle!` macro and the CLI accept for units and byte modes, stated once.
//!
//! Read by `swizzle_core::units` (`Elem`, `ByteMode`) and by `swizzle-macros` while it expands `swizzle!`, so the
//! macro knows exactly the names the library knows.

/// `(name, log2(bytes))` of every element type. `Elem::ALL` is built from this table.
pub const ELEMS: [(&str, u32); 20] = [
    ("b8", 0),
    ("u8", 0),
    ("i8", 0),
    ("e4m3", 0),
    ("e5m2", 0),
    ("f16", 1),
    ("bf16", 1),
    ("b16", 1),
    ("u16", 1),
    ("i16", 1),
    ("f32", 2),
    ("tf32", 2),
    ("b32", 2),
    ("u32", 2),
    ("i32", 2),
    ("f64", 3),
    ("b64", 3),
    ("u64", 3),
    ("i64", 3),
    ("b128", 4),
];

/// `(C type, header declaring it or "", accumulator element name)` of each entry of [`ELEMS`], same order.
pub const C_TYPES: [(&str, &str, &str); 20] = [
    ("unsigned char", "", "u32"),
    ("unsigned char", "", "u32"),
    ("signed char", "", "i32"),
    ("__nv_fp8_e4m3", "cuda_fp8.h", "f32"),
    ("__nv_fp8_e5m2", "cuda_fp8.h", "f32"),
    ("__half", "cuda_fp16.h", "f32"),
    ("__nv_bfloat16", "cuda_bf16.h", "f32"),
    ("unsigned short", "", "u32"),
    ("unsigned short", "", "u32"),
    ("short", "", "i32"),
    ("float", "", "f32"),
    ("float", "", "f32"),
    ("unsigned int", "", "u32"),
    ("unsigned int", "", "u32"),
    ("int", "", "i32"),
    ("double", "", "f64"),
    ("unsigned long long", "", "u64"),
    ("unsigned long long", "", "u64"),
    ("long long", "", "i64"),
    ("uint4", "", "b128"),
];

/// The unit name for byte addresses (`"byte"` is accepted too).
pub const BYTES: &str = "bytes";

/// `(name, B)` of the byte modes; every one is `Sw<B, MODE_BASE, MODE_SHIFT>` on bytes.
pub const MODES: [(&str, u32); 4] = [("NONE", 0), ("SW32", 1), ("SW64", 2), ("SW128", 3)];
/// Byte modes move 16-byte chunks.
pub const MODE_BASE: u32 = 4;
/// Byte modes XOR the chunk index within a 128-byte line (bits 4..7) with the line index (bits 7..).
pub const MODE_SHIFT: i32 = 3;

/// `log2(bytes)` of a unit name (`"bytes"`, `"byte"` or an element name).
pub fn unit_log2_bytes(name: &str) -> Option<u32> {
    if name == BYTES || name == "byte" {
        return Some(0);
    }
    ELEMS.iter().find(|(n, _)| *n == name).map(|&(_, l)| l)
}

/// `B` of a byte mode name.
pub fn mode_bits(name: &str) -> Option<u32> {
    MODES.iter().find(|(n, _)| *n == name).map(|&(_, b)| b)
}

/// `"a, b, c"` of the names in a table, for error messages.
#[cfg(feature = "alloc")]
pub fn list<T>(table: &[(&str, T)]) -> alloc::string::String {
    let names: alloc::vec::Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// `const` string equality (`==` on `str` is not `const`).
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
