//! One case of the hardware-counted bank-conflict samples (`tests/data/bank_*.json`): the instruction and the 32
//! lanes' byte addresses. The truth test and the model's benchmark read them the same way; each includes this with
//! `#[path]`.
use swizzle_core::bank::Op;

/// The `op` and `addrs` of a case object.
pub fn op_and_addrs(case: &serde_json::Value) -> (Op, Vec<u32>) {
    let op: Op = case["op"].as_str().unwrap().parse().unwrap();
    let addrs = case["addrs"].as_array().unwrap().iter();
    (op, addrs.map(|a| a.as_u64().unwrap() as u32).collect())
}
