//! Multicast groups with run-time membership (docs/protocols.md §8: "group membership, join/leave with
//! a configurable leave latency"), as IGMP gives a router: a member asks to join or leave; the
//! request takes effect after the join (graft) or leave latency, and only if it is still what the
//! member wants then (a leave followed by a re-join before the leave latency ran out prunes
//! nothing). The effect updates the member's branch in every multicast tree of the group
//! (`routing::McastTable::member`).

use crate::core::time::Time;

pub struct Group {
    pub name: String,
    /// Potential members (hosts): every tree covers them all.
    pub members: Vec<u32>,
    /// (host, its index in `members`), sorted: `member_index` is a binary search (`by_host`).
    pub by_host: Vec<(u32, u32)>,
    /// Multicast flows sent to the group.
    pub flows: Vec<u32>,
    /// Per member: in the trees now, and what it last asked for.
    pub joined: Vec<bool>,
    pub want: Vec<bool>,
    pub join_latency: Time,
    pub leave_latency: Time,
    /// Membership changes that took effect.
    pub joins: u64,
    pub leaves: u64,
}

impl Group {
    /// The sorted (host, index) pairs of `members`, for `by_host`.
    pub fn by_host(members: &[u32]) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = members.iter().enumerate().map(|(i, &h)| (h, i as u32)).collect();
        v.sort_unstable();
        v
    }

    /// The index of `host` in `members` (its first, if listed twice).
    pub fn member_index(&self, host: u32) -> Option<usize> {
        let i = self.by_host.partition_point(|x| x.0 < host);
        self.by_host.get(i).filter(|x| x.0 == host).map(|x| x.1 as usize)
    }

    /// Member `m` asks to join or leave: when the change would take effect (None: nothing to do).
    pub fn request(&mut self, m: usize, join: bool, now: Time) -> Option<Time> {
        if self.want[m] == join {
            return None;
        }
        self.want[m] = join;
        Some(now.saturating_add(if join { self.join_latency } else { self.leave_latency }))
    }

    /// The latency of member `m`'s last request ran out: Some(join) when its state changes.
    pub fn settle(&mut self, m: usize) -> Option<bool> {
        if self.want[m] == self.joined[m] {
            return None;
        }
        self.joined[m] = self.want[m];
        if self.want[m] {
            self.joins += 1;
        } else {
            self.leaves += 1;
        }
        Some(self.want[m])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group() -> Group {
        Group { name: "G".into(), members: vec![5, 6], by_host: Group::by_host(&[5, 6]), flows: vec![0], joined: vec![true, false], want: vec![true, false], join_latency: 0, leave_latency: 100, joins: 0, leaves: 0 }
    }

    #[test]
    fn leave_takes_effect_after_the_latency_unless_rejoined() {
        let mut g = group();
        assert_eq!(g.request(0, false, 10), Some(110));
        assert_eq!(g.request(0, false, 20), None); // already leaving
        assert_eq!(g.settle(0), Some(false));
        assert_eq!((g.joined[0], g.leaves), (false, 1));
        // Leave, then join again before the leave latency runs out: nothing is pruned.
        let mut g = group();
        g.request(0, false, 10);
        assert_eq!(g.request(0, true, 50), Some(50));
        assert_eq!(g.settle(0), None); // the join's settle: still joined
        assert_eq!(g.settle(0), None); // the leave's settle at 110: wants to stay
        assert!(g.joined[0]);
        assert_eq!((g.member_index(6), g.member_index(5), g.member_index(7)), (Some(1), Some(0), None));
        assert_eq!(g.request(1, true, 7), Some(7));
        assert_eq!(g.settle(1), Some(true));
    }
}
