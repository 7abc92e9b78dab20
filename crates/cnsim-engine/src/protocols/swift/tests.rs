//! Swift's Algorithm 1 and target against hand-computed values, and its connection in the slot.

use super::slot::SwiftFlow;
use super::*;
use crate::net::frame::{Dest, Frame, FrameKind};
use crate::slots::transport::{App, TransportMachine, TransportTimer};

const US: Time = 1_000_000;

fn params() -> SwiftParams {
    SwiftParams {
        ai: 1.0,
        beta: 0.8,
        max_mdf: 0.5,
        base_target: 25 * US,
        hop_scale: US,
        fs_range: 0,
        fs_min_cwnd: 0.1,
        fs_max_cwnd: 100.0,
        endpoint_target: 10 * US,
        min_cwnd: 0.001,
        max_cwnd: 1000.0,
        retx_reset_threshold: 5,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn flow_scaling_spans_its_range_between_its_windows() {
    let p = SwiftParams { fs_range: 25 * US, ..params() };
    // α = 25 µs / (1/√0.1 − 1/√100), β_fs = −α/10: fs(100) = 0, fs(0.1) = 25 µs, fs(1) = 0.9·α.
    let alpha = 25e6 / (1.0 / 0.1f64.sqrt() - 0.1);
    assert!(p.flow_scaling(100.0).abs() < 1e-3);
    assert!(close(p.flow_scaling(0.1), 25e6));
    assert!(close(p.flow_scaling(1.0), 0.9 * alpha));
    assert_eq!(p.flow_scaling(1000.0), 0.0); // clamped at 0
    assert_eq!(p.flow_scaling(0.01), 25e6); // clamped at fs_range
    // The target grows by h per hop.
    assert!(close(p.fabric_target(3, 100.0) - p.fabric_target(1, 100.0), 2e6));
    assert!(close(p.fabric_target(3, 1.0), 25e6 + 3e6 + 0.9 * alpha));
}

#[test]
fn below_target_the_window_grows_additively() {
    let mut s = Swift::new(params(), 10.0);
    s.on_ack(100 * US, 20 * US, 0, 0, 1.0);
    assert!(close(s.fcwnd, 10.1), "{}", s.fcwnd);
    let mut s = Swift::new(params(), 0.5);
    s.on_ack(100 * US, 20 * US, 0, 0, 1.0);
    assert!(close(s.fcwnd, 1.5), "{}", s.fcwnd);
}

#[test]
fn above_target_the_window_shrinks_once_per_rtt_by_at_most_max_mdf() {
    let mut s = Swift::new(params(), 10.0);
    // delay 50 µs, target 25 µs: 1 − 0.8·25/50 = 0.6.
    s.on_ack(100 * US, 50 * US, 0, 0, 1.0);
    assert!(close(s.fcwnd, 6.0), "{}", s.fcwnd);
    // Within one RTT of that decrease: no second one.
    s.on_ack(120 * US, 500 * US, 0, 0, 1.0);
    assert!(close(s.fcwnd, 6.0), "{}", s.fcwnd);
    // 500 µs later: 1 − 0.8·475/500 = 0.24, bounded by 1 − max_mdf = 0.5.
    s.on_ack(700 * US, 500 * US, 0, 0, 1.0);
    assert!(close(s.fcwnd, 3.0), "{}", s.fcwnd);
    assert_eq!(s.decreases, 2);
}

#[test]
fn the_endpoint_window_follows_the_endpoint_delay() {
    let mut s = Swift::new(params(), 10.0);
    // RTT 30 µs of which 20 µs at the receiver: fabric 10 µs (below 25), endpoint 20 µs (above 10).
    s.on_ack(100 * US, 30 * US, 20 * US, 0, 1.0);
    assert!(close(s.fcwnd, 10.1));
    assert!(close(s.ecwnd, 10.0 * (1.0 - 0.8 * 10.0 / 20.0)));
    assert!(close(s.cwnd(), 6.0));
    assert_eq!(s.delay, Some(10 * US));
}

#[test]
fn timeouts_cut_then_reset_the_window() {
    let mut s = Swift::new(params(), 10.0);
    s.on_timeout(0);
    assert!(close(s.cwnd(), 5.0));
    for t in 1..5 {
        s.on_timeout(t * 1000 * US);
    }
    assert_eq!(s.cwnd(), 0.001);
}

#[test]
fn below_one_packet_the_sender_paces_at_rtt_over_cwnd() {
    let mut s = Swift::new(params(), 0.5);
    assert_eq!(s.pacing_gap(), Some(50 * US)); // no RTT sample yet: base_target / 0.5
    s.on_ack(0, 20 * US, 0, 0, 0.0);
    assert_eq!(s.pacing_gap(), Some(40 * US));
    let s = Swift::new(params(), 2.0);
    assert_eq!(s.pacing_gap(), None);
}

#[test]
fn a_connection_sends_its_window_and_echoes_delay_and_hops() {
    let mut c = SwiftFlow::new(params(), 2.0, 1436, 1000 * US, App::Bulk, 64);
    c.on_app(0);
    let d0 = c.poll_send(0).expect("window open");
    assert!(c.poll_send(0).is_some());
    assert!(c.poll_send(0).is_none()); // two in flight: the window is full
    assert_eq!((d0.size, c.timer(TransportTimer::Pace)), (1500, None));
    let mut f = Frame::new(FrameKind::Data, d0.size, 0, Dest::Node(1), 0, 0);
    c.stamp(&mut f, 0);
    f.ttl = 61; // three routers
    assert_eq!(c.on_data(&f, 12 * US), Some(true));
    let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, 15 * US);
    c.write_ack(&mut a, 15 * US);
    assert_eq!(wire::read_ack(&a).map(|(n, e)| (n, e.endpoint_delay, e.hops)), Some((1, 3 * US, 3)));
    c.on_ack(&a, 20 * US);
    assert_eq!((c.cc.rtt, c.cc.delay, c.cc.hops), (Some(20 * US), Some(17 * US), 3));
    assert!(close(c.cc.fcwnd, 2.5));
    assert!(c.poll_send(20 * US).is_some()); // the ACK freed one and the window grew
}

#[test]
fn below_one_packet_a_connection_waits_for_its_pacing_timer() {
    let mut c = SwiftFlow::new(params(), 0.5, 1436, 1000 * US, App::Bulk, 64);
    c.on_app(0);
    let ack = |c: &mut SwiftFlow, sent: Time, at: Time| {
        let mut f = Frame::new(FrameKind::Data, 1500, 0, Dest::Node(1), 0, sent);
        f.seq = c.rel.expected();
        c.stamp(&mut f, sent);
        c.on_data(&f, at);
        let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, at);
        c.write_ack(&mut a, at);
        c.on_ack(&a, at);
    };
    assert!(c.poll_send(0).is_some());
    assert!(c.poll_send(0).is_none());
    assert_eq!(c.timer(TransportTimer::Pace), None); // one in flight: its ACK reopens the window
    // RTT 100 µs, target 25 µs: 0.5 · max(1 − 0.8·75/100, 0.5) = 0.25 packets.
    ack(&mut c, 0, 100 * US);
    assert!(close(c.cc.cwnd(), 0.25));
    assert!(c.poll_send(100 * US).is_some()); // paced after the first at its cwnd of 0.5: due at 50 µs
    // RTT 50 µs: 0.25 · max(1 − 0.8·25/50, 0.5) = 0.15; the next frame is due 100 µs/0.25 after 100 µs.
    ack(&mut c, 100 * US, 150 * US);
    assert!(close(c.cc.cwnd(), 0.15));
    assert!(c.poll_send(150 * US).is_none());
    assert_eq!(c.timer(TransportTimer::Pace), Some(500 * US));
    assert!(c.poll_send(500 * US).is_some());
}

#[test]
fn pcap_carries_the_echo_endpoint_delay_and_hops_in_header_options() {
    use crate::slots::wire::{checksum, ipv4, mac, Ctx};
    let c = Ctx { src: mac(1), dst: mac(2), ip_src: ipv4(2), ip_dst: ipv4(1), mss: 1436, segment: Some(wire::segment), ..Default::default() };
    let mut a = Frame::new(FrameKind::Ack, 64, 2, Dest::Node(1), 3, 9 * US);
    wire::write_ack(&mut a, 4, wire::Echo { sent: 5 * US, endpoint_delay: 2 * US, hops: 3 });
    let mut b = vec![];
    let len = wire::pcap_ack(&a, &c, &mut b);
    assert_eq!(len, 18 + 64);
    assert_eq!(checksum(&b[18..38]), 0);
    let hdr = &b[38..];
    assert_eq!(hdr[12] >> 4, 11); // 44-B header: 20 + 12 (timestamps) + 12 (experimental)
    assert_eq!(u32::from_be_bytes([hdr[28], hdr[29], hdr[30], hdr[31]]), 5000); // TSecr: 5 µs in ns
    assert_eq!(&hdr[32..36], &[1, 1, 253, 10]);
    assert_eq!(&hdr[36..38], &wire::EXID.to_be_bytes());
    assert_eq!(u32::from_be_bytes([hdr[38], hdr[39], hdr[40], hdr[41]]), 2000); // endpoint delay, ns
    assert_eq!(hdr[42], 3); // hops
    let mut d = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
    wire::stamp(&mut d, 0);
    let mut b = vec![];
    assert_eq!((wire::segment(&d, &c, &mut b), b.len()), (1436, 64));
}
