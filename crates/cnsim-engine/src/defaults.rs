//! Defaults shared by the scenario tables (docs/scenarios.md): the scenario's own tables
//! (`scenario/model.rs`) and each protocol's (`protocols/<name>/spec.rs`) name them in
//! `#[serde(default = "…")]`, so that one value is documented once.

use crate::units::{Amount, Bytes};

/// `fn name() -> T { value }` for each line, the form serde's `default = "…"` asks for.
macro_rules! default_fns {
    ($($name:ident: $t:ty = $e:expr;)*) => { $(pub(crate) fn $name() -> $t { $e })* };
}
pub(crate) use default_fns;

default_fns! {
    d_frame: Bytes = Bytes(1500);
    d_w: f64 = 2.0;
    d_sample_base: Amount = Amount::Bytes(150_000);
    d_true: bool = true;
    // A minimum-size Ethernet frame: the default size of feedback messages, probes and ACKs.
    d_min_frame: Bytes = Bytes(64);
    d_min_dec: f64 = 0.5;
}
