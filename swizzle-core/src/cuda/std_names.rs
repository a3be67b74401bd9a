//! Names the C and C++ standard headers (and POSIX `<math.h>`) may define as macros. A spec named `NULL` or
//! `INT_MAX` would compile alone and break once `<cstddef>` or `<climits>` is included before the header: such
//! names are refused for named specs and for the include guard.

/// Macros the standard headers define by name.
const NAMES: &[&str] = &[
    // <stddef.h>, <stdio.h>, <stdlib.h>, <errno.h>, <assert.h>, <stdarg.h>, <setjmp.h>, <time.h>, <locale.h>
    "NULL",
    "EOF",
    "BUFSIZ",
    "FILENAME_MAX",
    "FOPEN_MAX",
    "L_tmpnam",
    "TMP_MAX",
    "SEEK_SET",
    "SEEK_CUR",
    "SEEK_END",
    "stdin",
    "stdout",
    "stderr",
    "errno",
    "assert",
    "offsetof",
    "va_start",
    "va_arg",
    "va_end",
    "va_copy",
    "setjmp",
    "RAND_MAX",
    "EXIT_SUCCESS",
    "EXIT_FAILURE",
    "MB_CUR_MAX",
    "MB_LEN_MAX",
    "CLOCKS_PER_SEC",
    "TIME_UTC",
    "alloca",
    // <limits.h>, <stdint.h>
    "CHAR_BIT",
    "CHAR_MIN",
    "CHAR_MAX",
    "SCHAR_MIN",
    "SCHAR_MAX",
    "UCHAR_MAX",
    "SHRT_MIN",
    "SHRT_MAX",
    "USHRT_MAX",
    "INT_MIN",
    "INT_MAX",
    "UINT_MAX",
    "LONG_MIN",
    "LONG_MAX",
    "ULONG_MAX",
    "LLONG_MIN",
    "LLONG_MAX",
    "ULLONG_MAX",
    "SIZE_MAX",
    "PTRDIFF_MIN",
    "PTRDIFF_MAX",
    "WCHAR_MIN",
    "WCHAR_MAX",
    "WINT_MIN",
    "WINT_MAX",
    "SIG_ATOMIC_MIN",
    "SIG_ATOMIC_MAX",
    "WEOF",
    // <math.h> (function-like macros in C, and what glibc defines)
    "HUGE_VAL",
    "HUGE_VALF",
    "HUGE_VALL",
    "INFINITY",
    "NAN",
    "MATH_ERRNO",
    "MATH_ERREXCEPT",
    "math_errhandling",
    "isfinite",
    "isinf",
    "isnan",
    "isnormal",
    "signbit",
    "fpclassify",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isunordered",
    // <stdbool.h>, <stdalign.h>, <stdnoreturn.h>, <complex.h>, <iso646.h>
    "bool",
    "true",
    "false",
    "alignas",
    "alignof",
    "noreturn",
    "complex",
    "imaginary",
    "I",
    "static_assert",
    "thread_local",
    // <signal.h>
    "SIG_DFL",
    "SIG_ERR",
    "SIG_IGN",
];

/// Prefixes the C standard reserves for macros of its headers (C17 7.31: `E` + digit or capital in
/// `<errno.h>`, `FE_`, `LC_`, `SIG`, `PRI`/`SCN`, the `<stdint.h>` limits), plus the `<float.h>` limits and
/// POSIX's `M_` math constants (`M_PI`).
const PREFIXES: &[&str] = &[
    "FE_", "LC_", "SIG", "PRI", "SCN", "FLT_", "DBL_", "LDBL_", "FP_", "M_",
];

/// True when a standard header may define `name` as a macro.
pub(super) fn is_standard_macro(name: &str) -> bool {
    let b = name.as_bytes();
    let errno_like =
        b.len() >= 2 && b[0] == b'E' && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit());
    // INT8_MAX, UINT_LEAST16_MIN, INTMAX_C, UINTPTR_MAX, ...
    let stdint_limit = (name.starts_with("INT") || name.starts_with("UINT"))
        && (name.ends_with("_MAX") || name.ends_with("_MIN") || name.ends_with("_C"));
    errno_like
        || stdint_limit
        || NAMES.contains(&name)
        || PREFIXES
            .iter()
            .any(|p| name.starts_with(p) && name.len() > p.len())
}

#[cfg(test)]
mod tests {
    use super::is_standard_macro;

    #[test]
    fn standard_macros_and_ordinary_names() {
        for m in [
            "NULL",
            "EOF",
            "INT_MAX",
            "errno",
            "CHAR_BIT",
            "M_PI",
            "EINVAL",
            "E2BIG",
            "SIGINT",
            "PRIu32",
            "UINT32_MAX",
            "INT64_C",
            "FLT_EPSILON",
            "LC_ALL",
        ] {
            assert!(is_standard_macro(m), "{m}");
        }
        for ok in [
            "SmemA",
            "GemmOrder",
            "Elem",
            "E",
            "Ea",
            "M",
            "MyTile",
            "SIG",
            "INTx",
            "tile_A",
        ] {
            assert!(!is_standard_macro(ok), "{ok}");
        }
    }
}
