//! Run-time multicast membership: requests (scheduled or from a receiver protocol) and their
//! effect on the trees after the join or leave latency (`net/group.rs`).

use super::{Event, Sim, MEMBERSHIP_JOIN, MEMBERSHIP_REQUEST};

impl Sim {
    pub(crate) fn on_membership(&mut self, group: u32, member: u32) {
        let m = (member & !(MEMBERSHIP_REQUEST | MEMBERSHIP_JOIN)) as usize;
        if member & MEMBERSHIP_REQUEST != 0 {
            self.request_membership(group, m, member & MEMBERSHIP_JOIN != 0);
            return;
        }
        let g = &mut self.groups[group as usize];
        if let Some(join) = g.settle(m) {
            let host = g.members[m];
            for &f in &g.flows {
                self.mcast.member(f as usize, host, join);
            }
        }
    }

    /// Member `m` of `group` asks to join or leave; the change follows after the latency.
    pub(crate) fn request_membership(&mut self, group: u32, m: usize, join: bool) {
        let now = self.now;
        if let Some(at) = self.groups[group as usize].request(m, join, now) {
            if at == now {
                self.on_membership(group, m as u32);
            } else {
                self.queue.push_slow(at, Event::Membership { group, member: m as u32 });
            }
        }
    }
}
