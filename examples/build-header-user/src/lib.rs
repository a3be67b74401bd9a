//! A dependent crate: its build script received the header's directory from `swizzle-build-header`.

/// The include directory `DEP_SWZ_EXAMPLE_INCLUDE` named when this crate was built.
pub const SWZ_INCLUDE_DIR: &str = env!("SWZ_INCLUDE_DIR");

#[cfg(test)]
mod tests {
    #[test]
    fn the_dependency_exports_its_include_directory() {
        assert_eq!(super::SWZ_INCLUDE_DIR, swizzle_build_header::INCLUDE_DIR);
        let h = std::path::Path::new(super::SWZ_INCLUDE_DIR).join("swz.h");
        assert_eq!(
            std::fs::read_to_string(h).unwrap(),
            swizzle_build_header::SWZ_H
        );
    }
}
