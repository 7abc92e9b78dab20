//! E-QCN's registration (`slots::register`): its tag-area owner, the tag it writes into data
//! frames' on-wire bytes (F̂b and its CPID), the CP that tag elects (Algorithm 2, run by QCN's CP)
//! and the key of older scenario files its table replaced.

use super::{is_representative, read_tag, wire};
use crate::net::frame::{Frame, Proto};
use crate::slots::register::{DataTag, Elect, OldKey, Protocol};

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
    elects: &[Elect { owner: Proto::Eqcn, answers }],
    ..Protocol::named("eqcn")
};

/// Algorithm 2 at a CP: only the representative CP answers a frame carrying (F̂b, CPID).
fn answers(f: &Frame, qntz_fb: u8, cpid: u32, tie_break: bool) -> bool {
    read_tag(f).is_none_or(|(fb_hat, sel)| is_representative(qntz_fb, cpid, fb_hat, sel, tie_break))
}
