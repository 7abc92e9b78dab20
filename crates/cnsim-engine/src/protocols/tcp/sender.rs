//! The TCP sender: congestion control (RFC 5681), NewReno (RFC 6582), SACK loss recovery
//! (RFC 6675) and the retransmission timer (RFC 6298), counted in segments as ns-2 counts them.

use super::{Ack, EcnMode, Segment, TcpParams, Variant, CWR};
use crate::core::time::Time;
use crate::net::frame::ECN_ECT0;
use std::collections::VecDeque;

/// Back-off exponent cap: 2^30 × any RTO is far beyond `max_rto`'s useful range.
const MAX_BACKOFF: u32 = 30;

/// One TCP connection's sending side (sans-IO; see the module documentation of `tcp`).
///
/// Sequence state, all in segment indices: `snd_una` (oldest unacknowledged), `snd_nxt` (next to
/// send; pulled back to `snd_una` by a timeout, go-back-N as ns-2 and RFC 5681 §3.1 do), `snd_max`
/// (one past the highest ever sent, RFC 6675's HighData + 1).
#[derive(Clone, Debug)]
pub struct TcpSender {
    pub p: TcpParams,
    // Application data.
    bulk: bool,
    /// Segments the application has handed over so far (`u32::MAX` for bulk).
    segs: u32,
    /// Segments shorter than `mss` (the tail of each application message), increasing `seq`.
    short: VecDeque<(u32, u32)>,
    // Sequence space.
    snd_una: u32,
    snd_nxt: u32,
    snd_max: u32,
    // Congestion control (RFC 5681).
    cwnd: u32,
    /// Segments acknowledged since cwnd last grew in congestion avoidance (RFC 5681 §3.1's
    /// byte-counting method, in segments).
    cwnd_cnt: u32,
    ssthresh: u32,
    dupacks: u32,
    /// Segments sent by limited transmit since the last new ACK (left out of FlightSize when
    /// ssthresh is computed, RFC 5681 §3.2 step 2).
    lt_sent: u32,
    in_recovery: bool,
    /// RFC 6582's `recover` / RFC 6675's RecoveryPoint, as one past the highest segment sent when
    /// it was set (so "the ACK covers more than recover" reads `ack >= recover`).
    recover: u32,
    /// NewReno: no partial ACK seen yet in this recovery (RFC 6582 §3.2 step 5, "Impatient").
    first_partial: bool,
    /// The last window reduction was a timeout (ns-2 Reno's `last_cwnd_action_`).
    last_cut_timeout: bool,
    /// `snd_una` at the last timeout: a further timeout of the same segment keeps ssthresh
    /// (RFC 5681 §3.1, note after eq. 4).
    rto_seq: Option<u32>,
    /// A retransmission to send before anything else (fast retransmit, NewReno partial ACK).
    pending_rtx: Option<u32>,
    // SACK scoreboard (RFC 6675 §3): SACKed flag of every segment in [snd_una, snd_max).
    sacked: VecDeque<bool>,
    /// RFC 6675's HighRxt: the highest segment retransmitted in this recovery.
    high_rxt: Option<u32>,
    // Round-trip time (RFC 6298).
    srtt: Option<Time>,
    rttvar: Time,
    backoff: u32,
    /// The one segment being timed and when it was sent (one sample per RTT, as ns-2 and BSD).
    timing: Option<(u32, Time)>,
    deadline: Option<Time>,
    // ECN (RFC 3168, RFC 8257).
    /// No ECN-triggered reduction until an ACK acknowledges beyond this segment (one past the
    /// highest sent at the last window reduction, ECN or loss): at most one per window of data.
    ecn_high: u32,
    /// Set CWR on the next new data segment (RFC 3168 §6.1.2).
    cwr_pending: bool,
    /// DCTCP's α (RFC 8257 §3.3), initially 1.
    alpha: f64,
    /// DCTCP's observation window: bytes acknowledged and bytes acknowledged with ECE so far, and
    /// the window's end (`DCTCP.WindowEnd`, a segment index: SND.NXT when the window began).
    dctcp_acked: u64,
    dctcp_marked: u64,
    dctcp_window_end: u32,
    // Statistics.
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub bytes_acked: u64,
    /// Window reductions in response to ECE (RFC 3168 halvings or DCTCP cuts).
    pub ecn_reductions: u64,
}

impl TcpSender {
    pub fn new(p: TcpParams) -> Self {
        assert!(p.mss > 0 && p.rwnd > 0 && p.init_cwnd > 0 && p.dupack_threshold > 0, "TCP: mss, rwnd, init_cwnd and dupack_threshold must be positive");
        TcpSender {
            p,
            bulk: false,
            segs: 0,
            short: VecDeque::new(),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cwnd: p.init_cwnd,
            cwnd_cnt: 0,
            ssthresh: p.init_ssthresh,
            dupacks: 0,
            lt_sent: 0,
            in_recovery: false,
            recover: 0,
            first_partial: false,
            last_cut_timeout: false,
            rto_seq: None,
            pending_rtx: None,
            sacked: VecDeque::new(),
            high_rxt: None,
            srtt: None,
            rttvar: 0,
            backoff: 0,
            timing: None,
            deadline: None,
            ecn_high: 0,
            cwr_pending: false,
            alpha: 1.0,
            dctcp_acked: 0,
            dctcp_marked: 0,
            dctcp_window_end: 0,
            segments_sent: 0,
            retransmissions: 0,
            fast_retransmits: 0,
            timeouts: 0,
            bytes_acked: 0,
            ecn_reductions: 0,
        }
    }

    // ---------------------------------------------------------------- application

    /// The application hands over one message of `bytes` bytes: ⌈bytes / mss⌉ segments, the last
    /// one possibly short (messages are never coalesced: Nagle off, as ns-2's agents).
    /// `u64::MAX` means bulk (unlimited full segments, ns-2's FTP).
    pub fn push(&mut self, bytes: u64) {
        if bytes == 0 || self.bulk {
            return;
        }
        if bytes == u64::MAX {
            self.bulk = true;
            self.segs = u32::MAX;
            return;
        }
        let mss = self.p.mss as u64;
        let n = bytes.div_ceil(mss);
        let last = (bytes - (n - 1) * mss) as u32;
        let first = self.segs;
        self.segs = self.segs.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        if last < self.p.mss && first.checked_add((n - 1) as u32).is_some_and(|s| s < u32::MAX) {
            self.short.push_back((first + (n - 1) as u32, last));
        }
    }

    /// Payload bytes of segment `seq`.
    pub fn seg_len(&self, seq: u32) -> u32 {
        match self.short.binary_search_by_key(&seq, |&(s, _)| s) {
            Ok(i) => self.short[i].1,
            Err(_) => self.p.mss,
        }
    }

    // ---------------------------------------------------------------- sending

    /// The next segment the windows and the loss recovery allow, or `None`. Call it repeatedly
    /// (whenever the flow's port can take a frame, and after each ACK or timeout) until `None`.
    pub fn poll_send(&mut self, now: Time) -> Option<Segment> {
        // Fast retransmit (RFC 5681 §3.2 step 2, RFC 6675 §5 step 4.3) and NewReno's partial-ACK
        // retransmission (RFC 6582 §3.2 step 5) go out whatever the window.
        if let Some(seq) = self.pending_rtx.take() {
            if seq >= self.snd_una && seq < self.snd_max {
                return Some(self.emit(seq, now));
            }
        }
        if self.p.sack && self.in_recovery {
            return self.next_seg(now);
        }
        if self.p.sack {
            // Going back after a timeout: skip what the receiver has SACKed since.
            while self.snd_nxt < self.snd_max && self.is_sacked(self.snd_nxt) {
                self.snd_nxt += 1;
            }
        }
        // RFC 5681 §3 / ns-2 `window()`: at most min(cwnd, rwnd) segments beyond snd_una; limited
        // transmit allows one more new segment per duplicate ACK, up to two (RFC 3042 §2).
        let out = self.snd_nxt - self.snd_una;
        let lt = if self.p.limited_transmit && self.snd_nxt == self.snd_max { self.dupacks.min(2) } else { 0 };
        if out >= (self.cwnd + lt).min(self.p.rwnd) || self.snd_nxt >= self.segs {
            return None;
        }
        if out >= self.cwnd {
            self.lt_sent += 1;
        }
        let seq = self.snd_nxt;
        self.snd_nxt += 1;
        Some(self.emit(seq, now))
    }

    /// Put segment `seq` on the wire: bookkeeping shared by every kind of transmission.
    fn emit(&mut self, seq: u32, now: Time) -> Segment {
        let retransmission = seq < self.snd_max;
        if retransmission {
            self.retransmissions += 1;
            // Karn's rule (RFC 6298 §3): no sample from retransmitted data; like BSD, a
            // retransmission also abandons the running measurement, whose ACK it may trigger.
            self.timing = None;
            if self.in_recovery {
                self.high_rxt = Some(self.high_rxt.map_or(seq, |h| h.max(seq)));
            }
        } else {
            debug_assert_eq!(seq, self.snd_max);
            self.snd_max = seq + 1;
            self.sacked.push_back(false);
            if self.timing.is_none() {
                self.timing = Some((seq, now));
            }
        }
        // RFC 6298 §5.1: start the timer when data is sent and it is not running.
        if self.deadline.is_none() {
            self.deadline = Some(now.saturating_add(self.rto()));
        }
        self.segments_sent += 1;
        // RFC 3168 §6.1.5: retransmissions are not ECT; CWR goes on the first new segment after
        // a reduction (§6.1.2).
        let mut ecn = 0;
        if self.p.ecn != EcnMode::Off && !retransmission {
            ecn = ECN_ECT0;
            if std::mem::take(&mut self.cwr_pending) {
                ecn |= CWR;
            }
        }
        Segment { seq, len: self.seg_len(seq), retransmission, ecn }
    }

    /// RFC 6675 §4 `NextSeg()` after the pipe check of §5 step (C): send while cwnd − pipe ≥ 1.
    fn next_seg(&mut self, now: Time) -> Option<Segment> {
        let (lost_below, high_sacked) = self.scan();
        if self.pipe_with(lost_below) >= self.cwnd {
            return None;
        }
        let from = self.high_rxt.map_or(self.snd_una, |h| h + 1).max(self.snd_una);
        // (1) the lowest unSACKed segment above HighRxt that IsLost() (hence below HighSACKed).
        if let Some(s) = (from..lost_below).find(|&s| !self.is_sacked(s)) {
            return Some(self.emit(s, now));
        }
        // (2) new data, if the receiver window allows.
        if self.snd_nxt < self.segs && self.snd_nxt - self.snd_una < self.p.rwnd {
            let seq = self.snd_nxt;
            self.snd_nxt += 1;
            return Some(self.emit(seq, now));
        }
        // (3) the lowest unSACKed segment above HighRxt and below HighSACKed, lost or not.
        if let Some(hs) = high_sacked {
            if let Some(s) = (from..hs).find(|&s| !self.is_sacked(s)) {
                return Some(self.emit(s, now));
            }
        }
        None
    }

    fn is_sacked(&self, seq: u32) -> bool {
        seq >= self.snd_una && self.sacked.get((seq - self.snd_una) as usize).copied().unwrap_or(false)
    }

    /// One pass over the scoreboard: (T, HighSACKed) where `IsLost(s)` (RFC 6675 §4: at least
    /// DupThresh SACKed segments above s) holds exactly for s < T, T being the DupThresh-th SACKed
    /// segment from the top (`snd_una` when fewer are SACKed).
    fn scan(&self) -> (u32, Option<u32>) {
        let mut count = 0;
        let mut high = None;
        for (i, &s) in self.sacked.iter().enumerate().rev() {
            if s {
                let seq = self.snd_una + i as u32;
                high.get_or_insert(seq);
                count += 1;
                if count == self.p.dupack_threshold {
                    return (seq, high);
                }
            }
        }
        (self.snd_una, high)
    }

    /// RFC 6675 §4 `SetPipe()`: over unSACKed segments, +1 if not lost, +1 if at or below HighRxt.
    fn pipe_with(&self, lost_below: u32) -> u32 {
        let mut pipe = 0;
        for (i, &s) in self.sacked.iter().enumerate() {
            let seq = self.snd_una + i as u32;
            if !s {
                pipe += (seq >= lost_below) as u32 + self.high_rxt.is_some_and(|h| seq <= h) as u32;
            }
        }
        pipe
    }

    // ---------------------------------------------------------------- acknowledgements

    /// An ACK arrived at `now`. Call [`poll_send`](Self::poll_send) afterwards.
    pub fn on_ack(&mut self, a: &Ack, now: Time) {
        if a.ack > self.snd_max || a.ack < self.snd_una {
            return; // acknowledges unsent data (RFC 9293 §3.10.7.4) or an old, reordered ACK
        }
        let mut newly_sacked = 0;
        if self.p.sack {
            for (s, e) in a.blocks() {
                for seq in s.max(self.snd_una)..e.min(self.snd_max) {
                    let f = &mut self.sacked[(seq - self.snd_una) as usize];
                    newly_sacked += !*f as u32;
                    *f = true;
                }
            }
        }
        // ECN: react to ECE at most once per window of data, not during loss recovery (the loss
        // already reduced the window), and not from ACKs of data sent before the last reduction.
        let ecn_cut = a.ece && self.p.ecn != EcnMode::Off && !self.in_recovery && a.ack > self.ecn_high;
        if a.ack > self.snd_una {
            let before = self.bytes_acked;
            self.new_ack(a.ack, now, ecn_cut);
            if self.p.ecn == EcnMode::Dctcp {
                self.dctcp_observe(self.bytes_acked - before, a.ece);
            }
        } else if self.snd_max > self.snd_una && (!self.p.sack || newly_sacked > 0) {
            // A duplicate ACK: RFC 5681 §2 (same ACK, data outstanding); with SACK, RFC 6675 §2
            // (it SACKs data not SACKed before).
            self.dup_ack(now);
        }
        if ecn_cut && !self.in_recovery {
            self.ecn_reduce();
        }
    }

    /// RFC 8257 §3.3 for an ACK of `acked` new bytes: count them (as marked when the ACK has ECE);
    /// once SND.UNA passes the window's end, α ← (1 − g)·α + g·F with F the marked fraction of
    /// the window's bytes, and a new window begins, ending at SND.NXT.
    fn dctcp_observe(&mut self, acked: u64, ece: bool) {
        self.dctcp_acked += acked;
        if ece {
            self.dctcp_marked += acked;
        }
        if self.snd_una <= self.dctcp_window_end {
            return;
        }
        if self.dctcp_acked > 0 {
            let f = self.dctcp_marked as f64 / self.dctcp_acked as f64;
            let g = self.p.dctcp_g;
            self.alpha = (1.0 - g) * self.alpha + g * f;
        }
        self.dctcp_window_end = self.snd_nxt.max(self.snd_una);
        self.dctcp_acked = 0;
        self.dctcp_marked = 0;
    }

    /// The window reduction for an ECE (once per window, checked by the caller): RFC 3168 §6.1.2
    /// halves cwnd (ssthresh = max(cwnd/2, 2), cwnd = ssthresh, as fast retransmit without the
    /// retransmission); DCTCP (RFC 8257 §3.4) cuts cwnd by ⌊cwnd·α/2⌋ segments (Linux's
    /// `dctcp_ssthresh` rounding), floor 2 (never raising cwnd). ssthresh follows, so growth resumes in congestion
    /// avoidance. CWR goes on the next new segment.
    fn ecn_reduce(&mut self) {
        let target = match self.p.ecn {
            EcnMode::Off => return,
            EcnMode::Classic => self.cwnd / 2,
            EcnMode::Dctcp => self.cwnd - ((self.cwnd as f64 * self.alpha / 2.0).floor() as u32).min(self.cwnd),
        };
        self.ssthresh = target.max(2);
        self.cwnd = self.ssthresh.min(self.cwnd); // the floor of 2 never raises cwnd
        self.cwnd_cnt = 0;
        self.ecn_high = self.snd_max;
        self.cwr_pending = true;
        self.ecn_reductions += 1;
    }

    /// `ecn_cut`: the ACK carries an ECE the sender will react to; cwnd does not grow on it
    /// (RFC 3168 §6.1.2).
    fn new_ack(&mut self, ack: u32, now: Time, ecn_cut: bool) {
        let acked = ack - self.snd_una;
        self.lt_sent = 0;
        self.bytes_acked += self.bytes_upto(ack);
        if let Some((seq, sent)) = self.timing {
            if ack > seq {
                self.rtt_sample(now.saturating_sub(sent));
                self.timing = None;
            }
        }
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        self.sacked.drain(..(acked as usize).min(self.sacked.len()));
        let mut restart = true;
        if self.in_recovery {
            if ack >= self.recover {
                // Full ACK: deflate to ssthresh (RFC 5681 §3.2 step 6; RFC 6582 §3.2 step 3
                // option 2, ns-2's NewReno; under RFC 6675 cwnd already equals ssthresh).
                self.exit_recovery();
            } else if self.p.sack {
                // RFC 6675: partial ACKs keep recovery going; the scoreboard drives NextSeg.
            } else if self.p.variant == Variant::Reno {
                // RFC 5681 §3.2 step 6: the next new ACK ends fast recovery.
                self.exit_recovery();
            } else {
                // RFC 6582 §3.2 step 5: retransmit the next hole, deflate by what was acked and
                // add back one segment; reset the timer on the first partial ACK only.
                self.pending_rtx = Some(ack);
                self.cwnd = self.cwnd.saturating_sub(acked) + 1;
                restart = self.first_partial;
                self.first_partial = false;
            }
        } else {
            self.dupacks = 0;
            if !ecn_cut {
                self.grow(acked);
            }
        }
        // RFC 6298 §5.2–5.3.
        if self.snd_una >= self.snd_max {
            self.deadline = None;
        } else if restart {
            self.deadline = Some(now.saturating_add(self.rto()));
        }
    }

    fn exit_recovery(&mut self) {
        self.in_recovery = false;
        self.cwnd = self.ssthresh;
        self.cwnd_cnt = 0;
        self.dupacks = 0;
        self.high_rxt = None;
    }

    /// Slow start and congestion avoidance (RFC 5681 §3.1) for an ACK of `acked` new segments.
    /// cwnd does not grow past the receiver window (it could not be used; Linux grows cwnd only
    /// when cwnd-limited, RFC 7661 §4.1); ns-2 lets it grow, which changes nothing sent.
    fn grow(&mut self, acked: u32) {
        if self.cwnd >= self.p.rwnd {
            return;
        }
        if self.cwnd < self.ssthresh {
            self.cwnd += 1; // eq. (2): cwnd += min(N, SMSS), one segment per ACK
        } else {
            // "cwnd += SMSS each time the bytes acknowledged reach cwnd" (§3.1, byte counting).
            self.cwnd_cnt += acked;
            if self.cwnd_cnt >= self.cwnd {
                self.cwnd_cnt -= self.cwnd;
                self.cwnd += 1;
            }
        }
    }

    fn dup_ack(&mut self, now: Time) {
        if self.in_recovery {
            if !self.p.sack {
                self.cwnd += 1; // window inflation, RFC 5681 §3.2 step 4
            }
            return;
        }
        self.dupacks += 1;
        let trigger = self.dupacks >= self.p.dupack_threshold || (self.p.sack && self.scan().0 > self.snd_una);
        // Not again for data sent before the last recovery or timeout: RFC 6582 §3.2 step 2
        // (NewReno), RFC 6675 §5.1 (RecoveryPoint after an RTO). ns-2's Reno applies the guard only
        // after a timeout (`last_cwnd_action_`), so plain Reno may halve again for a second loss.
        let allowed = self.snd_una >= self.recover || (self.p.variant == Variant::Reno && !self.p.sack && !self.last_cut_timeout);
        if trigger && allowed {
            self.enter_recovery(now);
        }
    }

    /// Fast retransmit: RFC 5681 §3.2 steps 2–3, RFC 6582 §3.2 step 2, RFC 6675 §5 step 4.
    fn enter_recovery(&mut self, now: Time) {
        // eq. (4), without the segments limited transmit sent (RFC 5681 §3.2 step 2).
        let flight = self.snd_max - self.snd_una - self.lt_sent;
        self.ssthresh = (flight / 2).max(2);
        self.lt_sent = 0;
        self.cwnd = if self.p.sack { self.ssthresh } else { self.ssthresh + self.p.dupack_threshold };
        self.cwnd_cnt = 0;
        self.in_recovery = true;
        self.recover = self.snd_max;
        self.ecn_high = self.snd_max;
        self.first_partial = true;
        self.last_cut_timeout = false;
        self.high_rxt = None;
        self.pending_rtx = Some(self.snd_una);
        self.fast_retransmits += 1;
        // The timer restarts with the fast retransmit, as ns-2's `reset_rtx_timer` does.
        self.deadline = Some(now.saturating_add(self.rto()));
    }

    /// Application bytes of the segments in [snd_una, ack), dropping their short-segment records.
    fn bytes_upto(&mut self, ack: u32) -> u64 {
        let mss = self.p.mss as u64;
        let mut b = (ack - self.snd_una) as u64 * mss;
        while let Some(&(s, len)) = self.short.front() {
            if s >= ack {
                break;
            }
            if s >= self.snd_una {
                b -= mss - len as u64;
            }
            self.short.pop_front();
        }
        b
    }

    // ---------------------------------------------------------------- retransmission timer

    /// The RTO deadline the engine should arm (`None`: nothing outstanding, cancel the timer).
    pub fn timer(&self) -> Option<Time> {
        self.deadline
    }

    /// The retransmission timer fired at `now` (a firing before the current deadline is stale and
    /// ignored). RFC 6298 §5.4–5.6 and RFC 5681 §3.1: ssthresh = max(FlightSize/2, 2) (held on a
    /// repeated timeout of the same segment), cwnd = 1 (the loss window), back off the RTO, go
    /// back to `snd_una`. Call [`poll_send`](Self::poll_send) afterwards.
    pub fn on_timeout(&mut self, now: Time) {
        match self.deadline {
            Some(d) if now >= d => {}
            _ => return,
        }
        if self.snd_una >= self.snd_max {
            self.deadline = None;
            return;
        }
        self.timeouts += 1;
        if self.rto_seq != Some(self.snd_una) {
            self.ssthresh = ((self.snd_max - self.snd_una) / 2).max(2);
        }
        self.rto_seq = Some(self.snd_una);
        self.cwnd = 1;
        self.cwnd_cnt = 0;
        self.backoff = (self.backoff + 1).min(MAX_BACKOFF);
        // RFC 6582 §3.2 step 4 / RFC 6675 §5.1: recover = HighData.
        self.recover = self.snd_max;
        self.ecn_high = self.snd_max;
        self.in_recovery = false;
        self.last_cut_timeout = true;
        self.dupacks = 0;
        self.lt_sent = 0;
        self.high_rxt = None;
        self.pending_rtx = None;
        self.snd_nxt = self.snd_una;
        self.timing = None;
        // RFC 2018 §8: after a timeout the sender SHOULD turn off the SACKed bits (the receiver
        // may have reneged); ns-2's Sack1 clears its scoreboard.
        self.sacked.iter_mut().for_each(|s| *s = false);
        self.deadline = Some(now.saturating_add(self.rto()));
    }

    /// RFC 6298 §2.2–2.3 with one sample `r`; a new sample ends the back-off (§5.7 and ns-2).
    fn rtt_sample(&mut self, r: Time) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(s) => {
                // β = 1/4, α = 1/8; RTTVAR first, from the old SRTT. u128: no overflow.
                self.rttvar = ((3 * self.rttvar as u128 + s.abs_diff(r) as u128) / 4) as Time;
                self.srtt = Some(((7 * s as u128 + r as u128) / 8) as Time);
            }
        }
        self.backoff = 0;
    }

    /// The current RTO: SRTT + max(G, 4·RTTVAR) (the initial RTO before any sample), raised to
    /// `min_rto` (RFC 6298 §2.4), doubled per back-off (§5.5), capped at `max_rto` (§2.5) — the
    /// order of ns-2's `rtt_timeout()`.
    pub fn rto(&self) -> Time {
        let base = match self.srtt {
            None => self.p.initial_rto,
            Some(s) => s.saturating_add(self.p.granularity.max(self.rttvar.saturating_mul(4))),
        };
        base.max(self.p.min_rto).saturating_mul(1 << self.backoff).min(self.p.max_rto)
    }

    // ---------------------------------------------------------------- statistics

    pub fn cwnd(&self) -> u32 {
        self.cwnd
    }
    /// `u32::MAX` until the first loss ("arbitrarily high", RFC 5681 §3.1).
    pub fn ssthresh(&self) -> u32 {
        self.ssthresh
    }
    pub fn srtt(&self) -> Option<Time> {
        self.srtt
    }
    /// The value of recorded series `k` (`super::SERIES[k]`): the congestion window in segments,
    /// the smoothed RTT in seconds (NaN before the first sample).
    pub fn series(&self, k: usize) -> f64 {
        match k {
            0 => self.cwnd as f64,
            1 => self.srtt.map_or(f64::NAN, crate::core::time::to_secs),
            _ => f64::NAN,
        }
    }
    pub fn rttvar(&self) -> Time {
        self.rttvar
    }
    pub fn backoff(&self) -> u32 {
        self.backoff
    }
    /// DCTCP's α (1 until the first observation window ends; meaningful with `ecn = Dctcp`).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }
    /// FlightSize (RFC 5681 §2): segments sent and not cumulatively acknowledged.
    pub fn flight_size(&self) -> u32 {
        self.snd_max - self.snd_una
    }
    /// RFC 6675's pipe (meaningful with SACK; computed over the scoreboard).
    pub fn pipe(&self) -> u32 {
        self.pipe_with(self.scan().0)
    }
    pub fn snd_una(&self) -> u32 {
        self.snd_una
    }
    pub fn snd_nxt(&self) -> u32 {
        self.snd_nxt
    }
    pub fn snd_max(&self) -> u32 {
        self.snd_max
    }
    /// Every byte handed over has been acknowledged (never for bulk).
    pub fn all_acked(&self) -> bool {
        !self.bulk && self.snd_una >= self.segs
    }
}
