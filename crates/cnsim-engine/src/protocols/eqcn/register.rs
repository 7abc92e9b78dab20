//! E-QCN's registration (`slots::register`): its tag-area owner and the tag it writes into data
//! frames' on-wire bytes (F̂b and its CPID).

use super::wire;
use crate::net::frame::Proto;
use crate::slots::register::{DataTag, OldKey, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A data frame carrying E-QCN's F̂b and its CPID (`wire::tag`).
    pub const Eqcn: Proto = Proto(2);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("eqcn", Proto::Eqcn)],
    data_tags: &[DataTag { owner: Proto::Eqcn, write: wire::tag }],
    old_keys: &[OldKey {
        table: "flow.rp",
        key: "eqcn_decrease",
        hint: "`rp = { {key} = ... }` is the old syntax: the reaction point is `rp = { eqcn = { ... } }`, with `decrease` for the old `eqcn_decrease` (docs/scenarios.md)",
    }],
    ..Protocol::named("eqcn")
};
