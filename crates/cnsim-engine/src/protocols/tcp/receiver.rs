//! The TCP receiver: cumulative ACKs, an out-of-order buffer, SACK blocks (RFC 2018) and delayed
//! ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2), counted in segments.

use super::{ce, Ack, EcnMode, TcpParams, CWR};
use crate::core::time::Time;
use std::collections::VecDeque;

/// Recently reported SACK blocks remembered (by one segment inside each), most recent first.
const HISTORY: usize = 4;

/// One TCP connection's receiving side (sans-IO; see the module documentation of `tcp`).
#[derive(Clone, Debug)]
pub struct TcpReceiver {
    pub p: TcpParams,
    /// The next segment expected (the cumulative ACK).
    rcv_nxt: u32,
    /// Payload length of segment `rcv_nxt + i` held out of order (0: not held); `rwnd` entries,
    /// the receive window: segments at or beyond `rcv_nxt + rwnd` are dropped.
    buf: VecDeque<u32>,
    /// Segments held out of order (the entries of `buf` past the first that are not 0), so that
    /// an in-order arrival knows whether it fills a gap without scanning the window.
    held: u32,
    /// A segment inside each of the most recently reported SACK blocks, most recent first.
    recent: VecDeque<u32>,
    /// In-order segments received and not yet acknowledged (delayed ACK).
    unacked: u32,
    deadline: Option<Time>,
    bytes: u64,
    /// The ECE the next ACK carries: classic ECN's latch (RFC 3168 §6.1.3), or DCTCP's CE state,
    /// the CE bit of the last segment received (RFC 8257 §3.2).
    ece: bool,
    // Statistics.
    pub segments: u64,
    pub duplicates: u64,
    pub out_of_window: u64,
    pub acks_sent: u64,
}

impl TcpReceiver {
    /// Bytes `new` allocates for a window of `rwnd` segments: the window and the SACK history.
    pub fn heap_bytes(rwnd: u32) -> usize {
        (rwnd as usize).saturating_add(HISTORY + 1).saturating_mul(std::mem::size_of::<u32>())
    }

    pub fn new(p: TcpParams) -> Self {
        assert!(p.rwnd > 0, "TCP: rwnd must be positive");
        TcpReceiver {
            p,
            rcv_nxt: 0,
            buf: std::iter::repeat_n(0, p.rwnd as usize).collect(),
            held: 0,
            recent: VecDeque::with_capacity(HISTORY + 1),
            unacked: 0,
            deadline: None,
            bytes: 0,
            ece: false,
            segments: 0,
            duplicates: 0,
            out_of_window: 0,
            acks_sent: 0,
        }
    }

    /// Segments held out of order.
    #[cfg(test)]
    pub(super) fn held(&self) -> u32 {
        self.held
    }

    /// Data segment `seq` of `len` payload bytes arrived at `now`. Returns the ACK to send now, or
    /// `None` when it is delayed (then arm [`timer`](Self::timer)). An out-of-order, duplicate or
    /// gap-filling segment is acknowledged at once (RFC 5681 §4.2).
    pub fn on_segment(&mut self, seq: u32, len: u32, now: Time) -> Option<Ack> {
        self.on_segment_ecn(seq, len, 0, now)
    }

    /// [`on_segment`](Self::on_segment) for a segment whose frame carried `ecn` (the IP ECN
    /// codepoint and the [`CWR`] flag, `Segment::ecn`). With ECN on, ACKs carry ECE:
    /// * classic (RFC 3168 §6.1.3): set from a CE segment on, cleared by a segment with CWR (a
    ///   segment with both clears, then sets it again);
    /// * DCTCP (RFC 8257 §3.2): the CE bit of the last segment received; when it differs from the
    ///   previous segment's while an ACK is delayed, that ACK goes at once with the old ECE and the
    ///   new segment starts a fresh delayed ACK (if the new segment is itself acknowledged at
    ///   once, that later ACK is the one returned and covers the earlier one).
    pub fn on_segment_ecn(&mut self, seq: u32, len: u32, ecn: u8, now: Time) -> Option<Ack> {
        let marked = ce(ecn);
        let mut early = None;
        match self.p.ecn {
            EcnMode::Off => {}
            EcnMode::Classic => {
                if ecn & CWR != 0 {
                    self.ece = false;
                }
                self.ece |= marked;
            }
            EcnMode::Dctcp => {
                if marked != self.ece {
                    if self.unacked > 0 {
                        early = Some(self.ack_now());
                    }
                    self.ece = marked;
                }
            }
        }
        let a = self.segment(seq, len, now);
        if a.is_some() && early.is_some() {
            self.acks_sent -= 1; // the earlier ACK is superseded, not sent
        }
        a.or(early)
    }

    fn segment(&mut self, seq: u32, len: u32, now: Time) -> Option<Ack> {
        self.segments += 1;
        if seq < self.rcv_nxt {
            self.duplicates += 1;
            return Some(self.ack_now());
        }
        let idx = (seq - self.rcv_nxt) as usize;
        if idx >= self.buf.len() {
            self.out_of_window += 1; // beyond the window: dropped, and acknowledged (RFC 9293 §3.10.7.4)
            return Some(self.ack_now());
        }
        if idx > 0 {
            if self.buf[idx] != 0 {
                self.duplicates += 1;
            } else {
                self.buf[idx] = len.max(1);
                self.held += 1;
            }
            self.recent.retain(|&a| a != seq);
            self.recent.push_front(seq);
            return Some(self.ack_now());
        }
        // In order: deliver it and whatever it joins up with.
        let gap_filled = self.held > 0;
        self.buf[0] = len.max(1);
        let mut delivered = 0;
        while self.buf[0] != 0 {
            if delivered > 0 {
                self.held -= 1; // a held segment joins the in-order data
            }
            self.bytes += if delivered == 0 { len as u64 } else { self.buf[0] as u64 };
            delivered += 1;
            self.buf.pop_front();
            self.buf.push_back(0);
            self.rcv_nxt += 1;
        }
        if gap_filled || !self.p.delayed_ack {
            return Some(self.ack_now());
        }
        // RFC 1122 §4.2.3.2 / RFC 5681 §4.2: an ACK for at least every second segment, and
        // none later than `delack_timeout` after the first unacknowledged one (ns-2's DelAck
        // sink counts segments, whatever their size).
        self.unacked += 1;
        if self.unacked >= 2 {
            return Some(self.ack_now());
        }
        if self.deadline.is_none() {
            self.deadline = Some(now.saturating_add(self.p.delack_timeout));
        }
        None
    }

    /// The delayed-ACK timer fired at `now`: the pending ACK, if any (stale firings give `None`).
    pub fn on_delack_timeout(&mut self, now: Time) -> Option<Ack> {
        match self.deadline {
            Some(d) if now >= d => Some(self.ack_now()),
            _ => None,
        }
    }

    /// The delayed-ACK deadline the engine should arm (`None`: no ACK pending).
    pub fn timer(&self) -> Option<Time> {
        self.deadline
    }

    /// The ACK for the current state; clears any delayed ACK.
    fn ack_now(&mut self) -> Ack {
        self.unacked = 0;
        self.deadline = None;
        self.acks_sent += 1;
        let mut a = Ack { ack: self.rcv_nxt, sack: [(0, 0); 2], ece: self.ece };
        if self.p.sack {
            // RFC 2018 §4: the first block holds the most recently received segment, then the
            // most recently reported other blocks; blocks already acknowledged drop out.
            // Kept in a fixed array and copied back into `recent` (within its capacity): no
            // allocation per acknowledgement.
            let mut kept = [0u32; HISTORY];
            let mut len = 0;
            let mut n = 0;
            for &anchor in &self.recent {
                let Some(b) = self.block(anchor) else { continue };
                if kept[..len].iter().any(|&k| self.block(k) == Some(b)) || len == HISTORY {
                    continue;
                }
                kept[len] = anchor;
                len += 1;
                if n < 2 {
                    a.sack[n] = b;
                    n += 1;
                }
            }
            self.recent.clear();
            self.recent.extend(&kept[..len]);
        }
        a
    }

    /// The held block `[start, end)` containing segment `seq`, if `seq` is held above `rcv_nxt`.
    fn block(&self, seq: u32) -> Option<(u32, u32)> {
        let i = seq.checked_sub(self.rcv_nxt)? as usize;
        if i == 0 || *self.buf.get(i)? == 0 {
            return None;
        }
        let mut s = i;
        while s > 1 && self.buf[s - 1] != 0 {
            s -= 1;
        }
        let mut e = i + 1;
        while e < self.buf.len() && self.buf[e] != 0 {
            e += 1;
        }
        Some((self.rcv_nxt + s as u32, self.rcv_nxt + e as u32))
    }

    /// Application bytes delivered in order so far.
    pub fn bytes_delivered(&self) -> u64 {
        self.bytes
    }
    /// The next segment expected.
    pub fn rcv_nxt(&self) -> u32 {
        self.rcv_nxt
    }
}
