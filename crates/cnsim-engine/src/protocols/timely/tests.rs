//! TIMELY's rate laws against hand-computed updates, and its connection in the transport slot.

use super::slot::TimelyFlow;
use super::*;
use crate::net::frame::{Dest, Frame, FrameKind};
use crate::slots::transport::{App, TransportMachine, TransportTimer};

const US: Time = 1_000_000;

fn params(variant: Variant) -> TimelyParams {
    TimelyParams {
        variant,
        alpha: 0.5,
        beta: 0.8,
        delta: 10e6,
        t_low: 50 * US,
        t_high: 500 * US,
        min_rtt: 20 * US,
        hai_threshold: 5,
        hai_factor: 5.0,
        segment: 1,
        min_rate: 10e6,
        max_rate: 10e9,
        patched_beta: 0.008,
        rtt_ref: 50 * US,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn algorithm_1_takes_each_branch() {
    let mut t = Timely::new(params(Variant::Timely), 5e9);
    // First sample: no difference yet, g = 0 → additive increase.
    t.on_completion(100 * US);
    assert!(close(t.rate, 5.01e9), "{}", t.rate);
    // +20 µs: rtt_diff = 0.5·20 µs = 10 µs, g = 10/20 = 0.5 → rate·(1 − 0.8·0.5).
    t.on_completion(120 * US);
    assert!(close(t.rate, 5.01e9 * 0.6), "{}", t.rate);
    // Below T_low: + δ whatever the gradient.
    t.on_completion(40 * US);
    assert!(close(t.rate, 3.006e9 + 10e6), "{}", t.rate);
    // Above T_high: rate·(1 − β·(1 − T_high/rtt)) = rate·(1 − 0.8·0.5).
    t.on_completion(1000 * US);
    assert!(close(t.rate, 3.016e9 * 0.6), "{}", t.rate);
    assert_eq!(t.updates, 4);
}

#[test]
fn hyper_active_increase_after_five_non_positive_gradients() {
    let mut t = Timely::new(params(Variant::Timely), 1e9);
    for _ in 0..6 {
        t.on_completion(100 * US);
    }
    // Four increases of δ, then the fifth and sixth of 5·δ.
    assert!(close(t.rate, 1e9 + 4.0 * 10e6 + 2.0 * 50e6), "{}", t.rate);
}

#[test]
fn the_rate_stays_within_its_bounds() {
    let mut t = Timely::new(params(Variant::Timely), 20e9);
    assert_eq!(t.rate, 10e9);
    t.on_completion(100 * US);
    assert_eq!(t.rate, 10e9);
    let mut t = Timely::new(params(Variant::Timely), 11e6);
    t.on_completion(100 * US);
    t.on_completion(10_000_000 * US); // far above T_high: the cut stops at min_rate
    assert_eq!(t.rate, 10e6);
}

#[test]
fn the_patched_law_weights_the_rtt_error_by_the_gradient() {
    let mut t = Timely::new(params(Variant::Patched), 5e9);
    // g = 0 → w = 1/2; error = (100 − 50)/50 = 1: δ/2 + rate·(1 − 0.008·0.5·1).
    t.on_completion(100 * US);
    assert!(close(t.rate, 5e6 + 5e9 * 0.996), "{}", t.rate);
    t.on_completion(100 * US);
    assert!(close(t.rate, 5e6 + (5e6 + 5e9 * 0.996) * 0.996), "{}", t.rate);
    // A steep rise (g ≥ 1/4): w = 1, no additive part.
    t.on_completion(200 * US);
    let r = t.rate;
    assert!(r < 4.96e9);
}

#[test]
fn the_patched_law_has_one_fixed_point_the_original_none_at_a_steady_rtt() {
    // A steady RTT of 100 µs: the patch settles where δ(1 − w) = β'·w·e·rate, i.e. at
    // 10 Mb/s · 0.5 / (0.008 · 0.5 · 1) = 1.25 Gb/s, from above or below.
    for start in [0.3e9, 4e9] {
        let mut t = Timely::new(params(Variant::Patched), start);
        for _ in 0..20_000 {
            t.on_completion(100 * US);
        }
        assert!((t.rate - 1.25e9).abs() < 1e6, "from {start}: {}", t.rate);
    }
    // The original only reads the gradient: at a steady RTT it increases without end.
    let mut t = Timely::new(params(Variant::Timely), 0.3e9);
    for _ in 0..20_000 {
        t.on_completion(100 * US);
    }
    assert_eq!(t.rate, 10e9);
}

#[test]
fn a_completion_event_is_segment_bytes_acknowledged() {
    let mut t = Timely::new(TimelyParams { segment: 16_384, ..params(Variant::Timely) }, 5e9);
    for _ in 0..11 {
        assert!(!t.on_ack(1448, 100 * US));
    }
    assert!(t.on_ack(1448, 100 * US)); // 12 · 1448 = 17 376 ≥ 16 384
    assert_eq!((t.updates, t.last_rtt), (1, Some(100 * US)));
    assert!(!t.on_ack(1448, 100 * US));
}

#[test]
fn the_gap_is_the_frame_at_the_rate() {
    let t = Timely::new(params(Variant::Timely), 8e9);
    assert_eq!(t.gap(1000), US); // 8000 bit at 8 Gb/s
}

#[test]
fn a_connection_paces_its_frames_and_measures_the_echoed_rtt() {
    let mut c = TimelyFlow::new(params(Variant::Timely), 1e9, 1448, 1000 * US, App::Transfer { size: 3 * 1448 }, 64);
    c.on_app(0);
    let d = c.poll_send(0).expect("the first frame goes at once");
    assert_eq!((d.seq, d.size), (0, 1500));
    assert!(c.poll_send(0).is_none());
    // 1500 B at 1 Gb/s: the next frame may go 12 µs later.
    assert_eq!(c.timer(TransportTimer::Pace), Some(12 * US));
    let mut f = Frame::new(FrameKind::Data, d.size, 0, Dest::Node(1), 0, 0);
    f.seq = d.seq;
    c.stamp(&mut f, 0);
    assert_eq!(c.on_data(&f, 7 * US), Some(true));
    let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, 7 * US);
    c.write_ack(&mut a, 7 * US);
    assert_eq!((a.size, a.ack), (64, 1));
    let acked = c.on_ack(&a, 30 * US);
    assert!(!acked.completed);
    assert_eq!((c.cc.last_rtt, c.rel.bytes_acked()), (Some(30 * US), 1448));
    // A frame of another protocol is not TIMELY's data.
    let other = Frame::new(FrameKind::Data, 1500, 0, Dest::Node(1), 0, 0);
    assert_eq!(c.on_data(&other, 0), None);
}

#[test]
fn the_transfer_completes_on_its_last_acknowledgement() {
    let mut c = TimelyFlow::new(params(Variant::Timely), 10e9, 1000, 1000 * US, App::Transfer { size: 2500 }, 64);
    c.on_app(0);
    let mut now = 0;
    let mut done = false;
    while !done {
        let Some(d) = c.poll_send(now) else {
            now = c.timer(TransportTimer::Pace).expect("paced");
            continue;
        };
        let mut f = Frame::new(FrameKind::Data, d.size, 0, Dest::Node(1), 0, now);
        f.seq = d.seq;
        c.stamp(&mut f, now);
        c.on_data(&f, now);
        let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, now);
        c.write_ack(&mut a, now);
        done = c.on_ack(&a, now + 10 * US).completed;
    }
    assert_eq!((c.rel.bytes_acked(), c.rel.delivered(), c.timer(TransportTimer::Pace)), (2500, 2500, None));
}

#[test]
fn pcap_shows_the_send_time_and_its_echo_in_the_timestamps_option() {
    use crate::slots::wire::{checksum, ipv4, mac, Ctx};
    let c = Ctx { src: mac(1), dst: mac(2), ip_src: ipv4(1), ip_dst: ipv4(2), mss: 1448, segment: Some(wire::segment), ..Default::default() };
    let mut d = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
    d.seq = 2;
    wire::stamp(&mut d, 5_000_000); // 5 µs
    let mut b = vec![];
    let payload = wire::segment(&d, &c, &mut b);
    assert_eq!((payload, b.len()), (1448, 52));
    assert_eq!(checksum(&b[..20]), 0);
    assert_eq!(&b[22..24], &wire::PORT.to_be_bytes());
    assert_eq!(u32::from_be_bytes([b[24], b[25], b[26], b[27]]), 2 * 1448);
    assert_eq!(b[32] >> 4, 8); // 32-B TCP header: 20 + the 12-B timestamps option
    assert_eq!(&b[40..44], &[1, 1, 8, 10]);
    assert_eq!(u32::from_be_bytes([b[44], b[45], b[46], b[47]]), 5000); // TSval: 5000 ns
    let mut a = Frame::new(FrameKind::Ack, 64, 2, Dest::Node(1), 3, 9_000_000);
    wire::write_ack(&mut a, 3, 5_000_000);
    let mut b = vec![];
    let len = wire::pcap_ack(&a, &c, &mut b);
    assert_eq!((len, &b[16..18]), (70, &[0x08, 0x00][..])); // 18 + 52 B, then IPv4
    let hdr = &b[38..];
    assert_eq!(&hdr[0..2], &wire::PORT.to_be_bytes()); // from the receiver's port
    assert_eq!(u32::from_be_bytes([hdr[8], hdr[9], hdr[10], hdr[11]]), 3 * 1448);
    assert_eq!(u32::from_be_bytes([hdr[24], hdr[25], hdr[26], hdr[27]]), 9000); // TSval: the ACK's time
    assert_eq!(u32::from_be_bytes([hdr[28], hdr[29], hdr[30], hdr[31]]), 5000); // TSecr: the echo
}
