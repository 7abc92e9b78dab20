//! E-QCN's registration (`slots::register`): its tag-area owner and the tag it writes into data
//! frames' on-wire bytes (F̂b and its CPID).

use super::wire;
use crate::net::frame::Proto;
use crate::slots::register::{DataTag, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A data frame carrying E-QCN's F̂b and its CPID (`wire::tag`).
    pub const Eqcn: Proto = Proto(2);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("eqcn", Proto::Eqcn)],
    data_tags: &[DataTag { owner: Proto::Eqcn, write: wire::tag }],
    ..Protocol::named("eqcn")
};
