//! Hand-computed checks of the TCP sender and receiver, and closed loops through a fixed-delay pipe.

use super::*;
use crate::net::frame::Dest;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const US: Time = 1_000_000;

fn ack(n: u32) -> Ack {
    Ack { ack: n, sack: [(0, 0); 2], ece: false }
}
fn sack(n: u32, b: &[(u32, u32)]) -> Ack {
    let mut a = ack(n);
    for (i, &x) in b.iter().enumerate() {
        a.sack[i] = x;
    }
    a
}
/// Everything the sender may send now, as (seq, retransmission).
fn drain(s: &mut TcpSender, now: Time) -> Vec<(u32, bool)> {
    std::iter::from_fn(|| s.poll_send(now)).map(|g| (g.seq, g.retransmission)).collect()
}
fn new_segs(r: std::ops::Range<u32>) -> Vec<(u32, bool)> {
    r.map(|s| (s, false)).collect()
}
/// Reno without SACK, bulk data, no RTO interference.
fn plain(init_cwnd: u32, init_ssthresh: u32, rwnd: u32, variant: Variant) -> TcpSender {
    let p = TcpParams { variant, sack: false, init_cwnd, init_ssthresh, rwnd, limited_transmit: false, ..TcpParams::default() };
    let mut s = TcpSender::new(p);
    s.push(u64::MAX);
    s
}

#[test]
fn defaults_are_the_documented_values() {
    let p = TcpParams::default();
    assert_eq!((p.variant, p.sack, p.mss, p.init_cwnd, p.rwnd, p.dupack_threshold), (Variant::Reno, true, 1460, 3, 44, 3));
    assert_eq!((p.min_rto, p.max_rto, p.initial_rto, p.delack_timeout), (200 * MS, 60_000 * MS, 1000 * MS, 100 * MS));
    assert_eq!(TcpParams::seed002().max_rto, MS);
    // With Jiang & Jain 2007's settings every RTO is 1 ms: min 200 ms, then the 1 ms cap.
    assert_eq!(TcpSender::new(TcpParams::seed002()).rto(), MS);
}

#[test]
fn slow_start_doubles_per_rtt() {
    let mut s = plain(1, u32::MAX, 100, Variant::Reno);
    let mut now = 0;
    let mut next = 0;
    for round in 0..5u32 {
        let sent = drain(&mut s, now);
        assert_eq!(sent, new_segs(next..next + (1 << round)), "round {round}");
        next += 1 << round;
        now += 10 * US;
        for seq in sent.iter().map(|x| x.0) {
            s.on_ack(&ack(seq + 1), now); // one ACK per segment: +1 each (RFC 5681 eq. 2)
        }
        assert_eq!(s.cwnd(), 2 << round);
    }
}

#[test]
fn congestion_avoidance_adds_one_segment_per_rtt() {
    let mut s = plain(4, 4, 100, Variant::Reno);
    let mut now = 0;
    for cwnd in 4..9u32 {
        let sent = drain(&mut s, now);
        assert_eq!(sent.len() as u32, cwnd);
        now += 10 * US;
        for (i, &(seq, _)) in sent.iter().enumerate() {
            s.on_ack(&ack(seq + 1), now);
            // cwnd grows once cwnd segments have been acknowledged, not before.
            assert_eq!(s.cwnd(), if i as u32 + 1 == cwnd { cwnd + 1 } else { cwnd });
        }
    }
    assert_eq!(s.ssthresh(), 4);
}

#[test]
fn cwnd_stops_at_the_receiver_window() {
    let mut s = plain(1, u32::MAX, 6, Variant::Reno);
    let mut now = 0;
    for _ in 0..5 {
        let sent = drain(&mut s, now);
        assert!(sent.len() <= 6);
        now += 10 * US;
        for (seq, _) in sent {
            s.on_ack(&ack(seq + 1), now);
        }
    }
    assert_eq!((s.cwnd(), s.flight_size()), (6, 0));
    assert_eq!(drain(&mut s, now).len(), 6);
}

/// cwnd 10 in congestion avoidance, rwnd 20; segments 0..10 out, then ACKs 1 and 2 send 10, 11
/// (cwnd stays 10: two of the ten segments counted). Flight = 10 (2..11).
fn ten_in_flight(variant: Variant) -> TcpSender {
    let mut s = plain(10, 10, 20, variant);
    assert_eq!(drain(&mut s, 0), new_segs(0..10));
    s.on_ack(&ack(1), 10 * US);
    s.on_ack(&ack(2), 10 * US);
    assert_eq!(drain(&mut s, 10 * US), new_segs(10..12));
    assert_eq!((s.cwnd(), s.flight_size()), (10, 10));
    s
}

#[test]
fn three_dupacks_fast_retransmit_inflation_and_exit() {
    for variant in [Variant::Reno, Variant::NewReno] {
        // Segment 2 is lost: segments 3.. bring duplicate ACKs for 2.
        let mut s = ten_in_flight(variant);
        let t = 11 * US;
        s.on_ack(&ack(2), t);
        s.on_ack(&ack(2), t);
        assert!(drain(&mut s, t).is_empty() && !s.in_recovery());
        s.on_ack(&ack(2), t);
        // ssthresh = max(FlightSize/2, 2) = 5, cwnd = ssthresh + 3 = 8 (RFC 5681 §3.2).
        assert!(s.in_recovery());
        assert_eq!((s.ssthresh(), s.cwnd()), (5, 8));
        assert_eq!(drain(&mut s, t), vec![(2, true)]);
        // Dupacks from 6..11 inflate cwnd 9 … 14; new data once cwnd exceeds the 10 outstanding.
        let mut sent = vec![];
        for _ in 6..12 {
            s.on_ack(&ack(2), t);
            sent.extend(drain(&mut s, t));
        }
        assert_eq!(s.cwnd(), 14);
        assert_eq!(sent, new_segs(12..16));
        // The retransmission arrives: ACK 12 covers recover (12) → exit, cwnd = ssthresh.
        s.on_ack(&ack(12), 20 * US);
        assert!(!s.in_recovery());
        assert_eq!((s.cwnd(), s.ssthresh(), s.retransmissions, s.fast_retransmits), (5, 5, 1, 1));
        // Outstanding 12..15 (4) < cwnd 5: one new segment.
        assert_eq!(drain(&mut s, 20 * US), new_segs(16..17));
    }
}

#[test]
fn limited_transmit_sends_on_the_first_two_dupacks() {
    for sack_on in [false, true] {
        let p = TcpParams { sack: sack_on, init_cwnd: 10, init_ssthresh: 10, rwnd: 20, ..TcpParams::default() };
        assert!(p.limited_transmit);
        let mut s = TcpSender::new(p);
        s.push(u64::MAX);
        assert_eq!(drain(&mut s, 0), new_segs(0..10));
        // Segment 0 lost: 1, 2, 3 bring duplicate ACKs (SACKing 1, 1–2, 1–3).
        s.on_ack(&sack(0, &[(1, 2)]), US);
        assert_eq!(drain(&mut s, US), new_segs(10..11));
        s.on_ack(&sack(0, &[(1, 3)]), US);
        assert_eq!(drain(&mut s, US), new_segs(11..12));
        assert_eq!((s.cwnd(), s.flight_size()), (10, 12));
        s.on_ack(&sack(0, &[(1, 4)]), US);
        // ssthresh from FlightSize without the two limited-transmit segments: (12 − 2)/2 = 5.
        assert!(s.in_recovery());
        assert_eq!(s.ssthresh(), 5);
        assert_eq!(s.cwnd(), if sack_on { 5 } else { 8 });
        assert_eq!(drain(&mut s, US)[0], (0, true));
    }
}

#[test]
fn partial_ack_reno_exits_newreno_retransmits() {
    // Segments 2 and 5 lost; 3 and 4 give two dupacks, 6 the third.
    for variant in [Variant::Reno, Variant::NewReno] {
        let mut s = ten_in_flight(variant);
        let t = 11 * US;
        for _ in 0..3 {
            s.on_ack(&ack(2), t);
        }
        assert_eq!(drain(&mut s, t), vec![(2, true)]);
        // 7..11: five more dupacks, cwnd 8 → 13, new segments 12, 13, 14.
        let mut sent = vec![];
        for _ in 7..12 {
            s.on_ack(&ack(2), t);
            sent.extend(drain(&mut s, t));
        }
        assert_eq!((s.cwnd(), sent), (13, new_segs(12..15)));
        // The retransmitted 2 arrives: ACK 5 is partial (recover = 12).
        let t = 20 * US;
        s.on_ack(&ack(5), t);
        match variant {
            Variant::Reno => {
                // RFC 5681 §3.2 step 6: out of recovery, cwnd = ssthresh = 5; flight 10 ≥ 5.
                assert!(!s.in_recovery());
                assert_eq!(s.cwnd(), 5);
                assert!(drain(&mut s, t).is_empty());
                // 12, 13, 14 bring three dupacks for 5: a second fast retransmit (ns-2 Reno),
                // ssthresh = FlightSize (5..15)/2 = 5.
                for _ in 0..3 {
                    s.on_ack(&ack(5), t);
                }
                assert!(s.in_recovery());
                assert_eq!((s.cwnd(), s.ssthresh(), s.fast_retransmits), (8, 5, 2));
                assert_eq!(drain(&mut s, t), vec![(5, true)]);
            }
            Variant::NewReno => {
                // RFC 6582 §3.2 step 5: retransmit 5 at once; cwnd = 13 − 3 + 1 = 11, so with 10
                // outstanding (5..15) one new segment, 15.
                assert!(s.in_recovery());
                assert_eq!(s.cwnd(), 11);
                assert_eq!(drain(&mut s, t), vec![(5, true), (15, false)]);
                // Dupacks for 5 (from 12, 13, 14) still inflate: 12, 13, 14 → 16, 17, 18.
                let mut sent = vec![];
                for _ in 0..3 {
                    s.on_ack(&ack(5), t);
                    sent.extend(drain(&mut s, t));
                }
                assert_eq!(sent, new_segs(16..19));
                // 5 arrives: ACK 15 ≥ recover 12 → full ACK, cwnd = ssthresh.
                s.on_ack(&ack(15), 30 * US);
                assert!(!s.in_recovery());
                assert_eq!((s.cwnd(), s.fast_retransmits, s.retransmissions), (5, 1, 2));
            }
        }
    }
}

#[test]
fn rto_from_samples_clamps_backoff_and_karn() {
    let p = TcpParams { sack: false, limited_transmit: false, init_cwnd: 1, min_rto: 290 * US, max_rto: 1000 * US, initial_rto: 1_000_000 * US, ..TcpParams::default() };
    let mut s = TcpSender::new(p);
    s.push(u64::MAX);
    // Before any sample: the initial RTO (1 s) capped by max_rto.
    assert_eq!(s.rto(), 1000 * US);
    assert_eq!(s.timer(), None);
    assert_eq!(drain(&mut s, 0), new_segs(0..1));
    assert_eq!(s.timer(), Some(1000 * US));
    // First sample R = 100 µs: SRTT 100, RTTVAR 50, RTO = 100 + 4·50 = 300 µs (RFC 6298 §2.2).
    s.on_ack(&ack(1), 100 * US);
    assert_eq!((s.srtt(), s.rttvar(), s.rto()), (Some(100 * US), 50 * US, 300 * US));
    assert_eq!(drain(&mut s, 100 * US), new_segs(1..3)); // timing segment 1
    // R = 60 µs: RTTVAR = ¾·50 + ¼·|100 − 60| = 47.5, SRTT = ⅞·100 + ⅛·60 = 95,
    // RTO = 95 + 190 = 285 → min_rto 290 (§2.4).
    s.on_ack(&ack(2), 160 * US);
    assert_eq!((s.srtt(), s.rttvar(), s.rto()), (Some(95 * US), 47_500_000, 290 * US));
    assert_eq!(drain(&mut s, 160 * US), new_segs(3..5));
    assert_eq!(s.timer(), Some(450 * US)); // restarted by the ACK of new data (§5.3)
    // A stale firing is ignored.
    s.on_timeout(449 * US);
    assert_eq!(s.timeouts, 0);
    // Timeout: ssthresh = max(3/2, 2) = 2, cwnd 1, RTO doubles to 580 µs (§5.5), go back to 2.
    s.on_timeout(450 * US);
    assert_eq!((s.timeouts, s.cwnd(), s.ssthresh(), s.backoff(), s.rto()), (1, 1, 2, 1, 580 * US));
    assert_eq!(s.timer(), Some(1030 * US));
    assert_eq!(drain(&mut s, 450 * US), vec![(2, true)]);
    // Again: 1160 µs capped at max_rto 1000 µs; ssthresh held (same segment, RFC 5681 §3.1).
    s.on_timeout(1030 * US);
    assert_eq!((s.timeouts, s.ssthresh(), s.backoff(), s.rto()), (2, 2, 2, 1000 * US));
    assert_eq!(drain(&mut s, 1030 * US), vec![(2, true)]);
    // ACK 3 for the retransmission: Karn, no sample, back-off kept; slow start cwnd 2; go-back-N
    // resends 3 and 4.
    s.on_ack(&ack(3), 2200 * US);
    assert_eq!((s.srtt(), s.backoff(), s.cwnd()), (Some(95 * US), 2, 2));
    assert_eq!(drain(&mut s, 2200 * US), vec![(3, true), (4, true)]);
    s.on_ack(&ack(5), 2300 * US);
    assert_eq!((s.srtt(), s.backoff(), s.cwnd()), (Some(95 * US), 2, 3)); // CA: 2 acked ≥ cwnd 2
    assert_eq!(drain(&mut s, 2300 * US), new_segs(5..8)); // timing segment 5
    // R = 50 µs: RTTVAR = ¾·47.5 + ¼·45 = 46.875, SRTT = ⅞·95 + ⅛·50 = 89.375; back-off reset,
    // RTO = 89.375 + 187.5 = 276.875 → 290.
    s.on_ack(&ack(6), 2350 * US);
    assert_eq!((s.srtt(), s.rttvar(), s.backoff(), s.rto()), (Some(89_375_000), 46_875_000, 0, 290 * US));
    // Everything acknowledged: no timer.
    s.on_ack(&ack(8), 2400 * US);
    let more = drain(&mut s, 2400 * US);
    for (seq, _) in &more {
        s.on_ack(&ack(seq + 1), 2500 * US);
    }
    s.on_ack(&ack(s.snd_max()), 2500 * US);
    assert_eq!(s.flight_size(), 0);
    assert_eq!(s.timer(), None);
}

#[test]
fn sack_scoreboard_retransmits_lost_first_and_counts_pipe() {
    // cwnd 10, rwnd 20, SACK; segments 0, 2 and 3 of 0..10 are lost.
    let p = TcpParams { sack: true, init_cwnd: 10, rwnd: 20, limited_transmit: false, ..TcpParams::default() };
    let mut s = TcpSender::new(p);
    let mut r = TcpReceiver::new(p);
    s.push(u64::MAX);
    assert_eq!(drain(&mut s, 0), new_segs(0..10));
    let t = 10 * US;
    let mut deliver = |s: &mut TcpSender, seq: u32| {
        let a = r.on_segment(seq, 1460, t).unwrap();
        s.on_ack(&a, t);
        a
    };
    assert_eq!(deliver(&mut s, 1), sack(0, &[(1, 2)]));
    assert_eq!(deliver(&mut s, 4), sack(0, &[(4, 5), (1, 2)]));
    assert!(!s.in_recovery() && s.dupacks() == 2);
    // Third SACK dupack: ssthresh = cwnd = 10/2 = 5 (RFC 6675 §5 step 4.2), retransmit 0.
    assert_eq!(deliver(&mut s, 5), sack(0, &[(4, 6), (1, 2)]));
    assert!(s.in_recovery());
    assert_eq!((s.ssthresh(), s.cwnd()), (5, 5));
    assert_eq!(drain(&mut s, t), vec![(0, true)]);
    // SACKed {1,4,5}: IsLost only below 1 → lost {0}. pipe = 0 (lost, ≤ HighRxt: 1)
    // + 2, 3, 6, 7, 8, 9 (not lost: 1 each) = 7 ≥ cwnd 5: nothing more.
    assert_eq!(s.pipe(), 7);
    assert_eq!(drain(&mut s, t), vec![]);
    // 6 SACKed: lost = unSACKed below 4 = {0, 2, 3}; pipe = 1 (0) + 7, 8, 9 = 4 → NextSeg rule 1: 2.
    deliver(&mut s, 6);
    assert_eq!(drain(&mut s, t), vec![(2, true)]);
    assert_eq!(s.pipe(), 5);
    // 7 SACKed: pipe = 0, 2 (retransmitted) + 8, 9 = 4 → 3.
    deliver(&mut s, 7);
    assert_eq!(drain(&mut s, t), vec![(3, true)]);
    // 8 SACKed: pipe = 0, 2, 3 + 9 = 4 → no lost segment left: rule 2, new segment 10.
    deliver(&mut s, 8);
    assert_eq!(drain(&mut s, t), vec![(10, false)]);
    deliver(&mut s, 9);
    assert_eq!(drain(&mut s, t), vec![(11, false)]);
    assert_eq!(s.pipe(), 5);
    // The retransmissions arrive: ACK 2 and 3 are partial (recovery continues, RFC 6675), ACK 10
    // reaches RecoveryPoint (10): recovery ends with cwnd = ssthresh = 5.
    assert_eq!(deliver(&mut s, 0), sack(2, &[(4, 10)]));
    assert!(s.in_recovery());
    assert_eq!(deliver(&mut s, 2), sack(3, &[(4, 10)]));
    assert_eq!(deliver(&mut s, 3), ack(10));
    assert!(!s.in_recovery());
    assert_eq!((s.cwnd(), s.retransmissions, s.fast_retransmits, s.timeouts), (5, 3, 1, 0));
}

#[test]
fn sack_is_lost_triggers_before_three_dupacks() {
    // One ACK SACKing three segments above a hole (IsLost(HighACK+1), RFC 6675 §5 step 2).
    let p = TcpParams { sack: true, init_cwnd: 8, rwnd: 20, ..TcpParams::default() };
    let mut s = TcpSender::new(p);
    s.push(u64::MAX);
    drain(&mut s, 0);
    s.on_ack(&sack(0, &[(1, 4)]), US);
    assert!(s.in_recovery() && s.dupacks() == 1);
    assert_eq!(drain(&mut s, US)[0], (0, true));
}

#[test]
fn message_lengths_and_bytes_are_exact() {
    let p = TcpParams { sack: false, init_cwnd: 10, ..TcpParams::default() };
    let mut s = TcpSender::new(p);
    let mut r = TcpReceiver::new(p);
    s.push(10_000); // Jiang & Jain 2007's 10 kB transaction: 6 × 1460 + 1240
    s.push(100);
    let segs: Vec<Segment> = std::iter::from_fn(|| s.poll_send(0)).collect();
    assert_eq!(segs.iter().map(|g| g.len).collect::<Vec<_>>(), vec![1460, 1460, 1460, 1460, 1460, 1460, 1240, 100]);
    for g in &segs[..7] {
        s.on_ack(&r.on_segment(g.seq, g.len, 0).unwrap(), US);
    }
    assert_eq!((s.bytes_acked, r.bytes_delivered()), (10_000, 10_000));
    assert!(!s.all_acked());
    s.on_ack(&r.on_segment(7, 100, 0).unwrap(), US);
    assert_eq!((s.bytes_acked, r.bytes_delivered()), (10_100, 10_100));
    assert!(s.all_acked());
    assert_eq!((s.timer(), s.poll_send(US)), (None, None));
}

#[test]
fn receiver_cumulative_ack_and_sack_block_order() {
    let mut r = TcpReceiver::new(TcpParams::default());
    assert_eq!(r.on_segment(0, 1460, 0), Some(ack(1)));
    assert_eq!(r.on_segment(2, 1460, 0), Some(sack(1, &[(2, 3)])));
    assert_eq!(r.on_segment(4, 1460, 0), Some(sack(1, &[(4, 5), (2, 3)])));
    // Only two blocks fit: the newest, then the most recently reported other one.
    assert_eq!(r.on_segment(6, 1460, 0), Some(sack(1, &[(6, 7), (4, 5)])));
    // 3 joins 2 and 4: the block holding it comes first, then the next most recent (6).
    assert_eq!(r.on_segment(3, 1460, 0), Some(sack(1, &[(2, 5), (6, 7)])));
    // A duplicate of a held segment: ACK at once, its block first.
    assert_eq!(r.on_segment(6, 1460, 0), Some(sack(1, &[(6, 7), (2, 5)])));
    // 1 fills the hole: cumulative ACK 5, the remaining block.
    assert_eq!(r.on_segment(1, 1460, 0), Some(sack(5, &[(6, 7)])));
    assert_eq!(r.on_segment(5, 1460, 0), Some(ack(7)));
    assert_eq!(r.bytes_delivered(), 7 * 1460);
    // An old duplicate.
    assert_eq!(r.on_segment(2, 1460, 0), Some(ack(7)));
    // Beyond the window (rcv_nxt 7 + 44): dropped, acknowledged.
    assert_eq!(r.on_segment(51, 1460, 0), Some(ack(7)));
    assert_eq!(r.on_segment(50, 1460, 0), Some(sack(7, &[(50, 51)])));
    assert_eq!((r.duplicates, r.out_of_window, r.rcv_nxt()), (2, 1, 7));
    // Without SACK: no blocks.
    let mut r = TcpReceiver::new(TcpParams { sack: false, ..TcpParams::default() });
    assert_eq!(r.on_segment(1, 1460, 0), Some(ack(0)));
}

#[test]
fn delayed_ack_timing() {
    let p = TcpParams { delayed_ack: true, delack_timeout: 1000 * US, ..TcpParams::default() };
    let mut r = TcpReceiver::new(p);
    assert_eq!((r.on_segment(0, 1460, 0), r.timer()), (None, Some(1000 * US)));
    // Every second segment: at once.
    assert_eq!((r.on_segment(1, 1460, 200 * US), r.timer()), (Some(ack(2)), None));
    assert_eq!((r.on_segment(2, 1460, 500 * US), r.timer()), (None, Some(1500 * US)));
    assert_eq!(r.on_delack_timeout(1400 * US), None);
    assert_eq!((r.on_delack_timeout(1500 * US), r.timer()), (Some(ack(3)), None));
    assert_eq!(r.on_delack_timeout(1600 * US), None);
    // Out of order and gap filling: at once.
    assert_eq!(r.on_segment(4, 1460, 2000 * US), Some(sack(3, &[(4, 5)])));
    assert_eq!(r.on_segment(3, 1460, 2100 * US), Some(ack(5)));
    // An out-of-order segment also carries a pending delayed ACK.
    assert_eq!(r.on_segment(5, 1460, 3000 * US), None);
    assert_eq!((r.on_segment(7, 1460, 3100 * US), r.timer()), (Some(sack(6, &[(7, 8)])), None));
}

#[test]
fn frames_round_trip() {
    let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 7, 0);
    let g = Segment { seq: 41, len: 1240, retransmission: false, ecn: 0 };
    g.write(&mut f);
    assert_eq!((f.proto, f.seq, f.size), (Proto::None, 41, 1280)); // the tag area stays free
    assert_eq!((Segment::read(&f), Ack::read(&f)), (Some(g), None));
    let a = sack(9, &[(12, 15), (20, 21)]);
    let mut f = Frame::new(FrameKind::Data, 64, 2, Dest::Node(1), 7, 0);
    a.write(&mut f);
    assert_eq!((f.kind, f.ack), (FrameKind::Ack, 9));
    assert_eq!((Ack::read(&f), Segment::read(&f)), (Some(a), None));
    assert_eq!(Ack::read(&Frame::new(FrameKind::Feedback, 64, 2, Dest::Node(1), 7, 0)), None);
}

// ------------------------------------------------------------------------ closed loops

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ev {
    Data(u32, u32),
    Ack(Ack),
}
impl PartialOrd for Ack {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ack {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.ack, self.sack).cmp(&(o.ack, o.sack))
    }
}

struct Loop {
    s: TcpSender,
    r: TcpReceiver,
    /// One-way delay; no serialisation, FIFO in each direction.
    delay: Time,
    q: BinaryHeap<Reverse<(Time, u64, Ev)>>,
    n: u64,
    /// First transmissions of these segments are lost.
    lose: Vec<u32>,
    max_flight: u32,
}

impl Loop {
    fn new(p: TcpParams, rtt: Time, lose: &[u32]) -> Self {
        Loop { s: TcpSender::new(p), r: TcpReceiver::new(p), delay: rtt / 2, q: BinaryHeap::new(), n: 0, lose: lose.to_vec(), max_flight: 0 }
    }
    fn at(&mut self, t: Time, e: Ev) {
        self.n += 1;
        self.q.push(Reverse((t, self.n, e)));
    }
    fn send(&mut self, now: Time) {
        while let Some(g) = self.s.poll_send(now) {
            self.max_flight = self.max_flight.max(self.s.flight_size());
            if !g.retransmission && self.lose.contains(&g.seq) {
                continue;
            }
            self.at(now + self.delay, Ev::Data(g.seq, g.len));
        }
    }
    /// Run until `end`; returns the time of the last event.
    fn run(&mut self, end: Time) -> Time {
        let mut now = 0;
        self.send(0);
        loop {
            let ev = self.q.peek().map(|Reverse((t, _, _))| *t);
            let rto = self.s.timer();
            let dack = self.r.timer();
            let t = [ev, rto, dack].into_iter().flatten().min();
            let Some(t) = t.filter(|&t| t <= end) else { return now };
            now = t;
            if rto == Some(t) {
                self.s.on_timeout(t);
                self.send(t);
            } else if dack == Some(t) {
                if let Some(a) = self.r.on_delack_timeout(t) {
                    self.at(t + self.delay, Ev::Ack(a));
                }
            } else {
                let Reverse((_, _, e)) = self.q.pop().unwrap();
                match e {
                    Ev::Data(seq, len) => {
                        if let Some(a) = self.r.on_segment(seq, len, t) {
                            self.at(t + self.delay, Ev::Ack(a));
                        }
                    }
                    Ev::Ack(a) => {
                        self.s.on_ack(&a, t);
                        self.send(t);
                    }
                }
            }
        }
    }
}

#[test]
fn closed_loop_lossless_reaches_the_receiver_window() {
    for delayed_ack in [false, true] {
        let p = TcpParams { delayed_ack, delack_timeout: 50 * US, ..TcpParams::seed002() };
        let mut l = Loop::new(p, 10 * US, &[]);
        l.s.push(u64::MAX);
        l.run(2000 * US);
        assert_eq!((l.s.cwnd(), l.max_flight), (44, 44), "delayed_ack {delayed_ack}");
        assert_eq!((l.s.retransmissions, l.s.timeouts), (0, 0));
        assert_eq!(l.s.srtt(), Some(10 * US));
        // Window-limited: 44 segments per 10 µs RTT once open.
        assert!(l.r.bytes_delivered() > 150 * 44 * 1460, "{}", l.r.bytes_delivered());
        assert!(l.r.bytes_delivered() >= l.s.bytes_acked);
    }
}

#[test]
fn closed_loop_sack_recovers_several_losses_without_timeout() {
    let p = TcpParams::seed002();
    let mut l = Loop::new(p, 10 * US, &[60, 62, 65, 70]);
    l.s.push(300 * 1460);
    let end = l.run(10_000 * US);
    assert!(l.s.all_acked());
    assert_eq!(l.r.bytes_delivered(), 300 * 1460);
    assert_eq!((l.s.timeouts, l.s.fast_retransmits, l.s.retransmissions), (0, 1, 4));
    assert!(end < 200 * US, "{end}");
}

#[test]
fn closed_loop_newreno_recovers_reno_times_out() {
    let lose = [60, 62, 65, 70];
    let run = |variant| {
        let p = TcpParams { variant, sack: false, ..TcpParams::seed002() };
        let mut l = Loop::new(p, 10 * US, &lose);
        l.s.push(300 * 1460);
        let end = l.run(100_000 * US);
        assert!(l.s.all_acked());
        assert_eq!(l.r.bytes_delivered(), 300 * 1460);
        (l.s.timeouts, l.s.fast_retransmits, end)
    };
    // NewReno: one fast retransmit, one hole per RTT, no timeout.
    let (timeouts, frs, end) = run(Variant::NewReno);
    assert_eq!((timeouts, frs), (0, 1));
    assert!(end < 200 * US, "{end}");
    // Reno: a partial ACK ends recovery; with four holes it runs out of dupacks and waits for
    // the (1 ms) retransmission timeout.
    let (timeouts, _, end) = run(Variant::Reno);
    assert!(timeouts >= 1, "{timeouts}");
    assert!(end > 1000 * US, "{end}");
}

#[test]
fn closed_loop_tail_loss_needs_the_timer() {
    // The last segment lost: no dupacks, the RTO (1 ms) resends it.
    let mut l = Loop::new(TcpParams::seed002(), 10 * US, &[9]);
    l.s.push(10 * 1460);
    let end = l.run(100_000 * US);
    assert!(l.s.all_acked());
    assert_eq!((l.s.timeouts, l.s.retransmissions), (1, 1));
    assert!((1000 * US..1100 * US).contains(&end), "{end}");
}

// ------------------------------------------------------------------------ ECN and DCTCP

use crate::net::frame::{ECN_CE, ECN_ECT0};

fn ece(n: u32) -> Ack {
    Ack { ece: true, ..ack(n) }
}

/// A bulk sender with cwnd = ssthresh = 10 (congestion avoidance from the start), rwnd 100.
fn ecn_sender(ecn: EcnMode) -> TcpSender {
    let mut s = TcpSender::new(TcpParams { ecn, init_cwnd: 10, init_ssthresh: 10, rwnd: 100, ..TcpParams::default() });
    s.push(u64::MAX);
    s
}

#[test]
fn ecn_off_sends_not_ect_and_ignores_ece() {
    let mut s = ecn_sender(EcnMode::Off);
    assert_eq!(s.poll_send(0).unwrap().ecn, 0);
    s.on_ack(&ece(1), US);
    assert_eq!((s.cwnd(), s.ecn_reductions), (10, 0));
}

#[test]
fn classic_ecn_halves_once_per_window_and_sets_cwr() {
    let mut s = ecn_sender(EcnMode::Classic);
    let segs: Vec<Segment> = std::iter::from_fn(|| s.poll_send(0)).collect();
    assert_eq!(segs.len(), 10);
    assert!(segs.iter().all(|g| g.ecn == ECN_ECT0), "new data is ECT(0), no CWR yet");
    // ECE on the ACK of segment 0: ssthresh = cwnd/2 = 5, cwnd = 5, no growth on that ACK.
    s.on_ack(&ece(1), US);
    assert_eq!((s.cwnd(), s.ssthresh(), s.ecn_reductions), (5, 5, 1));
    assert!(!s.in_recovery(), "no retransmission");
    // More ECE from the same window (ACKs up to segment 10, the highest sent at the cut): ignored.
    s.on_ack(&ece(2), 2 * US);
    assert_eq!((s.cwnd(), s.ecn_reductions), (5, 1));
    // ACK 10 (8 segments, congestion avoidance: cwnd 5 → 6). The next new segment carries CWR.
    s.on_ack(&ece(10), 3 * US);
    assert_eq!((s.cwnd(), s.ecn_reductions), (6, 1));
    let segs: Vec<Segment> = std::iter::from_fn(|| s.poll_send(3 * US)).collect();
    assert_eq!(segs.iter().map(|g| (g.seq, g.ecn)).collect::<Vec<_>>(), [(10, ECN_ECT0 | CWR), (11, ECN_ECT0), (12, ECN_ECT0), (13, ECN_ECT0), (14, ECN_ECT0), (15, ECN_ECT0)]);
    // ECE acknowledging data sent after the cut: a new window, a new halving 6 → 3.
    s.on_ack(&ece(11), 4 * US);
    assert_eq!((s.cwnd(), s.ssthresh(), s.ecn_reductions), (3, 3, 2));
    // A loss-free fast retransmit path is untouched: no retransmission was sent.
    assert_eq!(s.retransmissions, 0);
}

#[test]
fn dctcp_alpha_over_a_window_and_one_cut_per_window() {
    let g = 1.0 / 16.0;
    let mut s = ecn_sender(EcnMode::Dctcp);
    assert_eq!(s.p.dctcp_g, g);
    assert_eq!(s.alpha(), 1.0, "RFC 8257: α starts at 1");
    assert_eq!(std::iter::from_fn(|| s.poll_send(0)).count(), 10);
    // ACK 1 ends the first observation window (WindowEnd = SND.NXT = 0 at the start): F = 0,
    // α = 15/16; the next window ends at SND.NXT = 10.
    s.on_ack(&ack(1), US);
    assert!((s.alpha() - 15.0 / 16.0).abs() < 1e-12);
    assert_eq!(s.cwnd(), 10);
    // ACK 2 with ECE: cut cwnd − ⌊cwnd·α/2⌋ = 10 − ⌊4.6875⌋ = 6; ssthresh 6.
    s.on_ack(&ece(2), 2 * US);
    assert_eq!((s.cwnd(), s.ssthresh(), s.ecn_reductions), (6, 6, 1));
    // ACKs 3, 4 with ECE, 5..10 without: no second cut in this window; congestion avoidance
    // grows cwnd 6 → 7 after 6 ACKed segments (ACKs 3..8), 2 counted after.
    for n in 3..=10 {
        s.on_ack(&if n <= 4 { ece(n) } else { ack(n) }, n as Time * US);
    }
    assert_eq!((s.cwnd(), s.ecn_reductions), (7, 1));
    // α is not updated until SND.UNA passes WindowEnd = 10.
    assert!((s.alpha() - 15.0 / 16.0).abs() < 1e-12);
    let segs: Vec<Segment> = std::iter::from_fn(|| s.poll_send(10 * US)).collect();
    assert_eq!(segs.len(), 7);
    assert_eq!((segs[0].ecn, segs[1].ecn), (ECN_ECT0 | CWR, ECN_ECT0));
    // ACK 11 closes the window of segments 1..=10: 3 of 10 equal segments ECE-marked, F = 0.3;
    // α = (15/16)·(15/16) + 0.3/16 = 0.87890625 + 0.01875 = 0.89765625.
    s.on_ack(&ack(11), 11 * US);
    assert!((s.alpha() - 0.897_656_25).abs() < 1e-12, "alpha {}", s.alpha());
    assert!((s.alpha() - ((1.0 - g) * (15.0 / 16.0) + g * 0.3)).abs() < 1e-12);
    // ECE on data sent after the cut: a new cut with the new α: 7 − ⌊7·0.8977/2⌋ = 7 − 3 = 4.
    s.on_ack(&ece(12), 12 * US);
    assert_eq!((s.cwnd(), s.ssthresh(), s.ecn_reductions), (4, 4, 2));
}

#[test]
fn classic_receiver_latches_ece_until_cwr() {
    let mut r = TcpReceiver::new(TcpParams { ecn: EcnMode::Classic, ..TcpParams::default() });
    let e = |a: Option<Ack>| a.map(|a| (a.ack, a.ece));
    assert_eq!(e(r.on_segment_ecn(0, 1460, ECN_ECT0, 0)), Some((1, false)));
    assert_eq!(e(r.on_segment_ecn(1, 1460, ECN_CE, 0)), Some((2, true)));
    assert_eq!(e(r.on_segment_ecn(2, 1460, ECN_ECT0, 0)), Some((3, true)), "latched");
    assert_eq!(e(r.on_segment_ecn(3, 1460, ECN_ECT0 | CWR, 0)), Some((4, false)), "CWR clears");
    assert_eq!(e(r.on_segment_ecn(4, 1460, ECN_CE | CWR, 0)), Some((5, true)), "CWR and CE: set again");
    assert_eq!(e(r.on_segment_ecn(5, 1460, ECN_ECT0, 0)), Some((6, true)));
    // ECN off: CE is not echoed.
    let mut r = TcpReceiver::new(TcpParams::default());
    assert_eq!(e(r.on_segment_ecn(0, 1460, ECN_CE, 0)), Some((1, false)));
}

#[test]
fn dctcp_receiver_echoes_each_segment_and_acks_at_once_on_a_ce_change() {
    // Without delayed ACKs, each ACK's ECE is the CE bit of the segment it acknowledges.
    let mut r = TcpReceiver::new(TcpParams { ecn: EcnMode::Dctcp, ..TcpParams::default() });
    let e = |a: Option<Ack>| a.map(|a| (a.ack, a.ece));
    assert_eq!(e(r.on_segment_ecn(0, 1460, ECN_ECT0, 0)), Some((1, false)));
    assert_eq!(e(r.on_segment_ecn(1, 1460, ECN_CE, 0)), Some((2, true)));
    assert_eq!(e(r.on_segment_ecn(2, 1460, ECN_CE, 0)), Some((3, true)));
    assert_eq!(e(r.on_segment_ecn(3, 1460, ECN_ECT0 | CWR, 0)), Some((4, false)), "CWR plays no part");
    // With delayed ACKs (every second segment, RFC 8257 §3.2's state machine).
    let mut r = TcpReceiver::new(TcpParams { ecn: EcnMode::Dctcp, delayed_ack: true, delack_timeout: 1000 * US, ..TcpParams::default() });
    assert_eq!(e(r.on_segment_ecn(0, 1460, ECN_ECT0, 0)), None);
    // CE changes 0 → 1 with segment 0 unacknowledged: ACK 1 at once with ECE = 0; segment 1 waits.
    assert_eq!(e(r.on_segment_ecn(1, 1460, ECN_CE, US)), Some((1, false)));
    assert_eq!(r.timer(), Some(1001 * US));
    // Same state: the second segment sends the delayed ACK, ECE = 1.
    assert_eq!(e(r.on_segment_ecn(2, 1460, ECN_CE, 2 * US)), Some((3, true)));
    // Change 1 → 0 with nothing pending: no extra ACK; the next two segments share one.
    assert_eq!(e(r.on_segment_ecn(3, 1460, ECN_ECT0, 3 * US)), None);
    assert_eq!(e(r.on_segment_ecn(4, 1460, ECN_ECT0, 4 * US)), Some((5, false)));
    assert_eq!(e(r.on_segment_ecn(5, 1460, ECN_CE, 5 * US)), None);
    // 1 → 0 with segment 5 pending: ACK 6 at once with ECE = 1; segment 6 is acknowledged by
    // the delayed-ACK timer, ECE = 0.
    assert_eq!(e(r.on_segment_ecn(6, 1460, ECN_ECT0, 6 * US)), Some((6, true)));
    assert_eq!(r.timer(), Some(1006 * US));
    assert_eq!(e(r.on_delack_timeout(1006 * US)), Some((7, false)));
}

#[test]
fn ecn_bits_round_trip_through_frames() {
    let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 7, 0);
    let g = Segment { seq: 3, len: 1460, retransmission: false, ecn: ECN_ECT0 | CWR };
    g.write(&mut f);
    assert_eq!(f.ecn, ECN_ECT0 | CWR);
    assert!(!Segment::read(&f).unwrap().ce());
    f.ecn |= ECN_CE; // what a marking switch does
    let r = Segment::read(&f).unwrap();
    assert!(r.ce() && r.ecn & CWR != 0);
    let a = Ack { ece: true, ..sack(9, &[(12, 15)]) };
    let mut f = Frame::new(FrameKind::Data, 64, 2, Dest::Node(1), 7, 0);
    a.write(&mut f);
    assert_eq!(f.ecn & 0b11, 0, "an ACK is Not-ECT");
    assert_eq!(Ack::read(&f), Some(a));
    ack(9).write(&mut f);
    assert!(!Ack::read(&f).unwrap().ece);
}

#[test]
fn ecn_cut_never_raises_a_small_window() {
    // cwnd = 1 (initial window of one segment): an ECE halves to 0, floored at 2 for ssthresh,
    // and cwnd stays 1; then slow start up to ssthresh = 2 and congestion avoidance.
    for mode in [EcnMode::Classic, EcnMode::Dctcp] {
        let mut s = TcpSender::new(TcpParams { ecn: mode, init_cwnd: 1, rwnd: 100, ..TcpParams::default() });
        s.push(u64::MAX);
        assert_eq!(drain(&mut s, 0), new_segs(0..1));
        s.on_ack(&ece(1), US);
        assert_eq!((s.cwnd(), s.ssthresh(), s.ecn_reductions), (1, 2, 1), "{mode:?}");
        let g = s.poll_send(US).unwrap();
        assert_eq!((g.seq, g.ecn), (1, ECN_ECT0 | CWR));
    }
}

/// The count of segments held out of order follows the window through holes, duplicates, gap
/// fills and segments beyond the window, and a gap fill is still acknowledged at once (delayed
/// ACKs on), whatever the window's size: the receiver no longer scans its window to find out.
#[test]
fn held_segments_are_counted_not_scanned() {
    let p = TcpParams { delayed_ack: true, rwnd: 8, ..TcpParams::default() };
    let mut r = TcpReceiver::new(p);
    assert_eq!(r.on_segment(0, 1460, 0), None); // in order, delayed
    for (seq, held) in [(3, 1), (5, 2), (3, 2), (9, 2), (2, 3)] {
        r.on_segment(seq, 1460, 0); // 9 is beyond the window (1 + 8): dropped
        assert_eq!(r.held(), held, "after {seq}");
    }
    // 1 fills the gap: 1, 2, 3 delivered, 5 still held, and the ACK goes at once.
    assert_eq!(r.on_segment(1, 1460, 0), Some(sack(4, &[(5, 6)])));
    assert_eq!(r.held(), 1);
    assert_eq!(r.on_segment(4, 1460, 0), Some(ack(6)));
    assert_eq!(r.held(), 0);
    // In order with nothing held: delayed again.
    assert_eq!(r.on_segment(6, 1460, 0), None);
}
