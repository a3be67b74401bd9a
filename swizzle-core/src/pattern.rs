//! (placeholder: module being written)
