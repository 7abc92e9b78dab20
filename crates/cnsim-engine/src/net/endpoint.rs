//! Multi-rate multicast receivers (simulcast channels, or cumulative layers): a host, the groups
//! of its levels, its congestion control (its `McastCc` slot), the router-feedback table it
//! reads the path's available bandwidth from, and its loss counts.

use crate::core::stats::TimeAvg;
use crate::core::time::Time;
use crate::core::timer::TimerId;
use super::Slots;

pub struct Endpoint<S: Slots> {
    pub host: u32,
    /// Group index per level (level l = index l − 1), and this host's member index in each.
    pub groups: Vec<u32>,
    pub member: Vec<u32>,
    /// Simulcast (one group at a time: EMcast) or cumulative layers (RLM).
    pub cumulative: bool,
    pub cc: S::McastCc,
    /// Evaluation period (EMcast's Interval, RLM's tick) and its timer.
    pub tick: Time,
    pub timer: TimerId,
    /// Endpoints of the same session (RLM's control group: shared learning).
    pub session: u32,
    pub rf: Option<Box<S::RfTable>>,
    /// Since the last tick, and in total.
    pub lost: u64,
    pub received: u64,
    pub lost_total: u64,
    pub received_total: u64,
    pub bytes: u64,
    pub bytes_w0: u64,
    /// When the level last changed.
    pub since: Time,
    pub level: TimeAvg,
}

impl<S: Slots> Endpoint<S> {
    /// The levels whose groups are joined at `level`.
    pub fn joined_levels(&self, level: usize) -> std::ops::RangeInclusive<usize> {
        if self.cumulative { 1..=level } else { level..=level }
    }
}
