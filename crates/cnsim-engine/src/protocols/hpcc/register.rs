//! HPCC's registration (`slots::register`): its tag-area owner, and its flows' data frames
//! collect in-band telemetry at every forwarding port (`net::telemetry`), echoed in the ACKs.

use crate::net::frame::Proto;
use crate::slots::register::Protocol;

#[allow(non_upper_case_globals)]
impl Proto {
    /// HPCC's data frames and ACKs.
    pub const Hpcc: Proto = Proto(12);
}

pub const PROTOCOL: Protocol = Protocol { owners: &[("hpcc", Proto::Hpcc)], telemetry: true, ..Protocol::named("hpcc") };
