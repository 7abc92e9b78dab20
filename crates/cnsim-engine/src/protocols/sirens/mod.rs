//! SIRENS, the Simple Internet Resource Notification Scheme (Nakauchi & Kobayashi 2006 §2.2, Fig. 1; docs/protocols.md
//! §8): an in-band header on every data packet in which routers write the state of their output
//! link, one hop per packet, so that a receiver assembles the whole path hop by hop. Routers keep
//! no per-flow state: each router port keeps only its own link measurements ([`LinkMeter`]).
//!
//! The header lives in the frame's tag area (`Proto::Sirens`, docs/architecture.md "Frames"):
//!
//! | word | bits | field |
//! |---|---|---|
//! | 0 | 0–1 | `req_mode`: 0 TTL, 1 MIN, 2 MAX |
//! | 0 | 2–3 | `req_probe`: 0 LINK, 1 LOSS, 2 QUEUE |
//! | 0 | 4 | a response is present |
//! | 0 | 5–6 | `res_probe` |
//! | 0 | 8–15 | `req_ttl` |
//! | 0 | 16–23 | `res_ttl`: the IP TTL (after decrement) at the router that wrote `res_data` |
//! | 0 | 24–31 | `req_data`: which of the profile's two values MIN/MAX aggregate (0 or 1) |
//! | 2, 3 | | `res_data[0..2]` as f32 bit patterns |
//!
//! Profiles (Nakauchi & Kobayashi 2006 §2.2): LINK = (link bandwidth bit/s, available bandwidth bit/s); LOSS =
//! (packet loss rate, link error rate); QUEUE = (queue size in frames, link delay in s). The paper's
//! `res_data[≤8]` stack is for the *sender* notification (a receiver returning what it collected);
//! EMcast does not return it (Nakauchi & Kobayashi 2006 §3.2), so the header carries one hop's two values.
//!
//! TTL mode: the sender cycles `req_ttl` one step per packet over `init_ttl − 1, …, init_ttl −
//! hops` (the seed: "from the same value as TTL in the IP header to 1"; the value equal to the
//! initial TTL can match no router, since routers compare after the decrement, so it is skipped).
//! The router whose TTL after decrement equals `req_ttl` writes its output link's data; that is hop
//! `init_ttl − res_ttl` counted in routers from the sender. MIN/MAX: every router replaces the data
//! when its value of `req_data` is below (above) the one carried.
//!
//! Available bandwidth = capacity × (1 − utilisation over the last complete window); the window is
//! a parameter (default 0.2 s [assumed]: docs/protocols.md §8; the seed gives none).

pub mod slot;
pub mod spec;

use crate::core::time::{to_secs, Time};
use crate::net::frame::Frame;
use crate::slots::Proto;
use crate::slots::metrics::Metric;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Ttl,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Link,
    Loss,
    Queue,
}

impl Probe {
    fn code(self) -> u32 {
        match self {
            Probe::Link => 0,
            Probe::Loss => 1,
            Probe::Queue => 2,
        }
    }
    fn from_code(c: u32) -> Probe {
        match c & 3 {
            1 => Probe::Loss,
            2 => Probe::Queue,
            _ => Probe::Link,
        }
    }
}

/// The SIRENS header, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub req_mode: Mode,
    pub req_probe: Probe,
    pub req_ttl: u8,
    pub req_data: u8,
    /// (res_probe, res_ttl, res_data) once a router answered.
    pub res: Option<(Probe, u8, [f32; 2])>,
}

impl Header {
    pub fn write(&self, f: &mut Frame) {
        let mode = match self.req_mode {
            Mode::Ttl => 0,
            Mode::Min => 1,
            Mode::Max => 2,
        };
        let mut w = mode | self.req_probe.code() << 2 | (self.req_ttl as u32) << 8 | (self.req_data as u32 & 0xFF) << 24;
        let (mut d0, mut d1) = (0, 0);
        if let Some((p, ttl, d)) = self.res {
            w |= 1 << 4 | p.code() << 5 | (ttl as u32) << 16;
            d0 = d[0].to_bits();
            d1 = d[1].to_bits();
        }
        f.proto = Proto::Sirens;
        f.tag = [w, 0, d0, d1];
    }

    pub fn read(f: &Frame) -> Option<Header> {
        if f.proto != Proto::Sirens {
            return None;
        }
        let w = f.tag[0];
        let req_mode = match w & 3 {
            1 => Mode::Min,
            2 => Mode::Max,
            _ => Mode::Ttl,
        };
        let res = (w & 1 << 4 != 0).then(|| (Probe::from_code(w >> 5), (w >> 16) as u8, [f32::from_bits(f.tag[2]), f32::from_bits(f.tag[3])]));
        Some(Header { req_mode, req_probe: Probe::from_code(w >> 2), req_ttl: (w >> 8) as u8, req_data: (w >> 24) as u8, res })
    }
}

/// A router port's measurements over fixed windows: what it writes into SIRENS headers.
#[derive(Clone, Debug)]
pub struct LinkMeter {
    pub window: Time,
    start: Time,
    busy: Time,
    arrivals: u64,
    drops: u64,
    /// Utilisation and loss rate over the last complete window.
    pub util: f64,
    pub loss: f64,
    /// Headers this port answered.
    pub stamped: u64,
}

/// What a router port knows about its link when it stamps a header.
#[derive(Clone, Copy, Debug)]
pub struct LinkState {
    pub rate_bps: f64,
    /// Frames waiting in the output queue.
    pub queue: u64,
    pub delay: Time,
    /// The link's configured random loss (its "error rate").
    pub error_rate: f64,
}

impl LinkMeter {
    pub fn new(window: Time) -> Self {
        LinkMeter { window, start: 0, busy: 0, arrivals: 0, drops: 0, util: 0.0, loss: 0.0, stamped: 0 }
    }

    /// Close the windows that ended by `now`.
    pub fn roll(&mut self, now: Time) {
        if now < self.start + self.window {
            return;
        }
        let elapsed = (now - self.start) / self.window;
        if elapsed == 1 {
            self.util = (self.busy as f64 / self.window as f64).min(1.0);
            self.loss = if self.arrivals > 0 { self.drops as f64 / self.arrivals as f64 } else { 0.0 };
        } else {
            // The last complete window saw nothing.
            self.util = 0.0;
            self.loss = 0.0;
        }
        self.start += elapsed * self.window;
        self.busy = 0;
        self.arrivals = 0;
        self.drops = 0;
    }

    /// The transmitter starts a frame taking `wire` on the link.
    pub fn on_tx(&mut self, now: Time, wire: Time) {
        self.roll(now);
        self.busy += wire;
    }

    /// A data frame was offered to the queue (and dropped or not).
    pub fn on_offer(&mut self, now: Time, dropped: bool) {
        self.roll(now);
        self.arrivals += 1;
        self.drops += dropped as u64;
    }

    /// The two values of `probe` for this link.
    pub fn values(&mut self, probe: Probe, link: LinkState, now: Time) -> [f32; 2] {
        self.roll(now);
        match probe {
            Probe::Link => [link.rate_bps as f32, (link.rate_bps * (1.0 - self.util)) as f32],
            Probe::Loss => [self.loss as f32, link.error_rate as f32],
            Probe::Queue => [link.queue as f32, to_secs(link.delay) as f32],
        }
    }

    /// A frame leaves this router port with IP TTL `f.ttl` (already decremented): answer its
    /// SIRENS request if it is this router's to answer. No per-flow state is read or kept.
    pub fn stamp(&mut self, f: &mut Frame, link: LinkState, now: Time) {
        let Some(mut h) = Header::read(f) else { return };
        let idx = (h.req_data as usize).min(1);
        let write = match h.req_mode {
            Mode::Ttl => h.req_ttl == f.ttl,
            Mode::Min | Mode::Max => true,
        };
        if !write {
            return;
        }
        let v = self.values(h.req_probe, link, now);
        let better = match (h.req_mode, h.res) {
            (Mode::Ttl, _) | (_, None) => true,
            (Mode::Min, Some((_, _, d))) => v[idx] < d[idx],
            (Mode::Max, Some((_, _, d))) => v[idx] > d[idx],
        };
        if better {
            h.res = Some((h.req_probe, f.ttl, v));
            h.write(f);
            self.stamped += 1;
        }
    }
}

/// The sender side: writes a request into every data packet, cycling `req_ttl` (TTL mode).
#[derive(Clone, Debug)]
pub struct Sender {
    pub mode: Mode,
    pub probe: Probe,
    pub req_data: u8,
    pub init_ttl: u8,
    pub hops: u8,
    next: u8,
}

impl Sender {
    /// `hops` in 1..init_ttl.
    pub fn new(mode: Mode, probe: Probe, req_data: u8, init_ttl: u8, hops: u8) -> Self {
        Sender { mode, probe, req_data, init_ttl, hops: hops.clamp(1, init_ttl.saturating_sub(1).max(1)), next: 0 }
    }

    pub fn stamp(&mut self, f: &mut Frame) {
        f.ttl = self.init_ttl;
        let req_ttl = self.init_ttl - 1 - self.next;
        self.next = (self.next + 1) % self.hops;
        Header { req_mode: self.mode, req_probe: self.probe, req_ttl, req_data: self.req_data, res: None }.write(f);
    }
}

/// One hop's latest sample at the receiver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub data: [f32; 2],
    pub at: Time,
}

/// The receiver's table for one profile: per hop (1 = the first router after the sender), the
/// latest values and when they arrived (Nakauchi & Kobayashi 2006 §2.2: "a receiver can find out the overall path
/// status by assembling all the cumulative notifications").
#[derive(Clone, Debug)]
pub struct Table {
    pub probe: Probe,
    pub init_ttl: u8,
    /// A sample older than this is stale (default 1 s [assumed]).
    pub max_age: Time,
    pub hops: Vec<Option<Sample>>,
    /// Routers on the path, from the TTL of the last packet (init_ttl − TTL at the receiver).
    pub path_len: usize,
    /// MIN/MAX mode: the latest aggregate, with the hop that gave it.
    pub aggregate: Option<(usize, Sample)>,
}

impl Table {
    pub fn new(probe: Probe, init_ttl: u8, max_age: Time) -> Self {
        Table { probe, init_ttl, max_age, hops: vec![], path_len: 0, aggregate: None }
    }

    /// A data packet arrived with IP TTL `f.ttl`.
    pub fn on_frame(&mut self, f: &Frame, now: Time) {
        let Some(h) = Header::read(f) else { return };
        self.path_len = self.init_ttl.saturating_sub(f.ttl) as usize;
        let Some((probe, ttl, data)) = h.res else { return };
        if probe != self.probe || ttl >= self.init_ttl {
            return;
        }
        let hop = (self.init_ttl - ttl) as usize;
        let s = Sample { data, at: now };
        if h.req_mode != Mode::Ttl {
            self.aggregate = Some((hop, s));
            return;
        }
        if self.hops.len() < hop {
            self.hops.resize(hop, None);
        }
        self.hops[hop - 1] = Some(s);
    }

    /// Every router hop of the path has a sample younger than `max_age`.
    pub fn known(&self, now: Time) -> bool {
        self.path_len > 0
            && (1..=self.path_len).all(|k| matches!(self.hops.get(k - 1), Some(Some(s)) if now.saturating_sub(s.at) <= self.max_age))
    }

    /// Age of hop `k`'s sample (1-based), None without one.
    pub fn age(&self, k: usize, now: Time) -> Option<Time> {
        self.hops.get(k.checked_sub(1)?).copied().flatten().map(|s| now.saturating_sub(s.at))
    }

    /// The smallest value `i` over the path's hops that have a fresh sample (for LINK, i = 1: the
    /// path's available bandwidth, its bottleneck), with that hop.
    pub fn min_fresh(&self, i: usize, now: Time) -> Option<(usize, f64)> {
        (1..=self.path_len)
            .filter_map(|k| match self.hops.get(k - 1) {
                Some(Some(s)) if now.saturating_sub(s.at) <= self.max_age => Some((k, s.data[i] as f64)),
                _ => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
}

pub const METRICS: &[Metric] = &[
    Metric { scope: "queues", name: "sirens_stamped", unit: "frames", kind: "counter", doc: "SIRENS headers this router port answered (Nakauchi & Kobayashi 2006 §2.2)" },
    Metric { scope: "queues", name: "sirens_util", unit: "1", kind: "gauge", doc: "utilisation of the port's link over its last complete SIRENS window" },
    Metric { scope: "receivers", name: "sirens_hops", unit: "list", kind: "gauge", doc: "per router hop: [hop, value 0, value 1, age s] of the receiver's SIRENS table at the end" },
    Metric { scope: "receivers", name: "sirens_path_len", unit: "hops", kind: "gauge", doc: "routers on the path, from the IP TTL of the last packet" },
    Metric { scope: "receivers", name: "sirens_known", unit: "1", kind: "gauge", doc: "every hop of the path has a fresh sample (age ≤ max_age)" },
    Metric { scope: "receivers", name: "sirens_bottleneck_bps", unit: "bit/s", kind: "gauge", doc: "LINK profile: smallest fresh available bandwidth over the path" },
];


#[allow(non_upper_case_globals)]
impl crate::net::frame::Proto {
    /// The SIRENS header (Nakauchi & Kobayashi 2006).
    pub const Sirens: crate::net::frame::Proto = crate::net::frame::Proto(8);
}

/// SIRENS' registration (`slots::register`): its tag-area owner and metrics.
pub const PROTOCOL: crate::slots::register::Protocol = crate::slots::register::Protocol {
    owners: &[("sirens", crate::net::frame::Proto::Sirens)],
    metrics: METRICS,
    ..crate::slots::register::Protocol::named("sirens")
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};

    fn frame() -> Frame {
        Frame::new(FrameKind::Data, 1500, 0, Dest::Node(1), 0, 0)
    }
    fn link(rate: f64) -> LinkState {
        LinkState { rate_bps: rate, queue: 3, delay: 1_000_000_000, error_rate: 0.0 }
    }

    #[test]
    fn header_round_trips() {
        let mut f = frame();
        let h = Header { req_mode: Mode::Max, req_probe: Probe::Queue, req_ttl: 61, req_data: 1, res: Some((Probe::Queue, 60, [3.0, 0.5])) };
        h.write(&mut f);
        assert_eq!(Header::read(&f), Some(h));
        f.proto = Proto::Tcp;
        assert_eq!(Header::read(&f), None);
    }

    #[test]
    fn sender_cycles_req_ttl_downward() {
        let mut s = Sender::new(Mode::Ttl, Probe::Link, 1, 64, 3);
        let ttls: Vec<u8> = (0..7)
            .map(|_| {
                let mut f = frame();
                s.stamp(&mut f);
                assert_eq!(f.ttl, 64);
                Header::read(&f).unwrap().req_ttl
            })
            .collect();
        assert_eq!(ttls, [63, 62, 61, 63, 62, 61, 63]);
    }

    #[test]
    fn meter_measures_utilisation_per_window() {
        let w = 200_000_000_000; // 0.2 s
        let mut m = LinkMeter::new(w);
        m.on_tx(0, w / 4);
        m.on_tx(w / 2, w / 4);
        assert_eq!(m.util, 0.0); // window not closed yet
        m.roll(w);
        assert!((m.util - 0.5).abs() < 1e-12);
        let v = m.values(Probe::Link, link(1e8), w);
        assert_eq!(v, [1e8, 5e7]);
        // Two windows later with nothing sent: the last complete window was idle.
        m.roll(3 * w + 1);
        assert_eq!(m.util, 0.0);
        m.on_offer(3 * w + 2, false);
        m.on_offer(3 * w + 3, true);
        m.roll(4 * w);
        assert!((m.loss - 0.5).abs() < 1e-12);
    }

    #[test]
    fn ttl_mode_answers_only_at_the_matching_router() {
        let mut s = Sender::new(Mode::Ttl, Probe::Link, 1, 64, 5);
        let mut f = frame();
        s.stamp(&mut f); // req_ttl 63: the first router
        s.stamp(&mut f); // req_ttl 62: the second
        let mut r1 = LinkMeter::new(1000);
        let mut r2 = LinkMeter::new(1000);
        f.ttl -= 1;
        r1.stamp(&mut f, link(1e9), 0);
        assert_eq!(Header::read(&f).unwrap().res, None);
        f.ttl -= 1;
        r2.stamp(&mut f, link(5e7), 0);
        assert_eq!(Header::read(&f).unwrap().res, Some((Probe::Link, 62, [5e7, 5e7])));
        assert_eq!((r1.stamped, r2.stamped), (0, 1));
        let mut t = Table::new(Probe::Link, 64, 1000);
        f.ttl -= 1; // a third router, past the answering one
        t.on_frame(&f, 10);
        assert_eq!(t.path_len, 3); // TTL 61 at the receiver: three routers
        assert_eq!(t.hops[1], Some(Sample { data: [5e7, 5e7], at: 10 }));
    }

    #[test]
    fn min_mode_keeps_the_smallest() {
        let mut f = frame();
        f.ttl = 64;
        Header { req_mode: Mode::Min, req_probe: Probe::Link, req_ttl: 0, req_data: 1, res: None }.write(&mut f);
        for (rate, ttl) in [(1e9, 63u8), (3e7, 62), (1e8, 61)] {
            f.ttl = ttl;
            LinkMeter::new(1000).stamp(&mut f, link(rate), 0);
        }
        assert_eq!(Header::read(&f).unwrap().res, Some((Probe::Link, 62, [3e7, 3e7])));
        let mut t = Table::new(Probe::Link, 64, 1000);
        t.on_frame(&f, 5);
        assert_eq!(t.aggregate, Some((2, Sample { data: [3e7, 3e7], at: 5 })));
    }

    #[test]
    fn table_freshness_and_bottleneck() {
        let mut t = Table::new(Probe::Link, 64, 100);
        let mut f = frame();
        for (hop, avail, at) in [(1u8, 9e8, 0), (2, 2e7, 50), (3, 5e8, 60)] {
            Header { req_mode: Mode::Ttl, req_probe: Probe::Link, req_ttl: 64 - hop, req_data: 1, res: Some((Probe::Link, 64 - hop, [1e9, avail])) }.write(&mut f);
            f.ttl = 61;
            t.on_frame(&f, at);
        }
        assert_eq!(t.path_len, 3);
        assert!(t.known(100));
        assert!(!t.known(101)); // hop 1 is 101 old
        assert_eq!(t.min_fresh(1, 100), Some((2, 2e7 as f32 as f64)));
        assert_eq!(t.age(2, 100), Some(50));
        assert_eq!(t.age(4, 100), None);
    }
}
