//! SIRENS in the router-feedback slot (`slots::router_feedback`): its link meter at every router
//! output port, its request writer at a flow's source, its table at each receiver.

use super::{LinkMeter, LinkState, Probe, Sender, Table};
use crate::core::time::{to_secs, Time};
use crate::net::frame::Frame;
use crate::slots::router_feedback::{MeterMachine, PortView, RfSenderMachine, RfTableMachine};
use serde_json::{json, Value};

impl MeterMachine for LinkMeter {
    /// Count the offer, then answer the frame's request from the port's link (§2.2).
    fn on_offer(&mut self, f: &mut Frame, port: PortView, dropped: bool) {
        let link = LinkState { rate_bps: port.rate_bps as f64, queue: port.queue_frames, delay: port.delay, error_rate: port.loss };
        LinkMeter::on_offer(self, port.now, dropped);
        self.stamp(f, link, port.now);
    }
    fn on_tx(&mut self, now: Time, wire: Time) {
        LinkMeter::on_tx(self, now, wire)
    }
    fn report(&self) -> Value {
        json!({"sirens_stamped": self.stamped, "sirens_util": self.util})
    }
}

impl RfSenderMachine for Sender {
    fn stamp(&mut self, f: &mut Frame) {
        Sender::stamp(self, f)
    }
}

impl RfTableMachine for Table {
    fn on_frame(&mut self, f: &Frame, now: Time) {
        Table::on_frame(self, f, now)
    }
    /// LINK's second value is the hop's available bandwidth: the path's is its freshest minimum.
    fn available_bps(&self, now: Time) -> Option<f64> {
        (self.probe == Probe::Link).then(|| self.min_fresh(1, now)).flatten().map(|(_, v)| v)
    }
    fn report(&self, now: Time) -> Value {
        let hops: Vec<Value> = (1..=self.path_len.max(self.hops.len()))
            .map(|k| match self.hops.get(k - 1).copied().flatten() {
                Some(s) => json!([k, s.data[0], s.data[1], to_secs(now.saturating_sub(s.at))]),
                None => json!([k, null, null, null]),
            })
            .collect();
        json!({"sirens_hops": hops, "sirens_path_len": self.path_len, "sirens_known": self.known(now), "sirens_bottleneck_bps": self.available_bps(now)})
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Header, Mode, Sample};
    use super::*;
    use crate::net::frame::{Dest, FrameKind};

    fn frame() -> Frame {
        Frame::new(FrameKind::Data, 1500, 0, Dest::Node(1), 0, 0)
    }

    #[test]
    fn the_meter_counts_the_offer_then_answers_from_the_port() {
        let mut m = LinkMeter::new(1000);
        let mut f = frame();
        Sender::new(Mode::Ttl, Probe::Queue, 1, 64, 1).stamp(&mut f);
        f.ttl -= 1;
        let port = PortView { rate_bps: 10_000_000, queue_bytes: 4500, queue_frames: 3, delay: 2 * crate::core::time::PS_PER_S, loss: 0.01, now: 0 };
        MeterMachine::on_offer(&mut m, &mut f, port, true);
        assert_eq!(Header::read(&f).unwrap().res, Some((Probe::Queue, 63, [3.0, 2.0])));
        MeterMachine::on_tx(&mut m, 0, 500);
        m.roll(1000); // the window closes: half busy, its one offer dropped
        assert_eq!((m.util, m.loss), (0.5, 1.0));
        assert_eq!(m.report(), json!({"sirens_stamped": 1, "sirens_util": 0.5}));
    }

    #[test]
    fn only_a_link_table_gives_the_available_bandwidth() {
        let sample = |data| Some(Sample { data, at: 0 });
        let mut t = Table::new(Probe::Link, 64, 100);
        t.path_len = 2;
        t.hops = vec![sample([1e9, 4e8]), sample([1e8, 3e7])];
        assert_eq!(t.available_bps(100), Some(3e7 as f32 as f64));
        assert_eq!(t.available_bps(101), None); // every sample stale
        let r = t.report(50);
        assert_eq!(r["sirens_bottleneck_bps"], json!(3e7 as f32 as f64));
        assert_eq!(r["sirens_hops"][1], json!([2, 1e8 as f32, 3e7 as f32, 5e-11]));
        // LOSS's second value is the link's error rate, QUEUE's its delay: no bandwidth.
        for probe in [Probe::Loss, Probe::Queue] {
            let t = Table { probe, ..t.clone() };
            assert_eq!(t.available_bps(50), None);
            assert_eq!(t.report(50)["sirens_bottleneck_bps"], Value::Null);
        }
    }
}
