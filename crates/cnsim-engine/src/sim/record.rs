//! Recording: periodic series, the measurement window's snapshots, and an independent count of
//! the frames in the network (for the conservation invariants).

use super::{Event, Sim};
use crate::net::frame::{FrameId, FrameKind};

/// What a recorded series samples.
#[derive(Clone, Copy, Debug)]
pub enum Probe {
    /// A flow's RP: current rate CR and target rate TR.
    Cr(u32),
    Tr(u32),
    /// A port's queued bytes ÷ `simulation.frame_size` (frames of the thresholds' unit).
    Queue(u32),
    /// Throughput of receiver r of flow f over the interval since the previous sample, bit/s.
    Rx(u32, u32),
    /// A session's rate (min over its RPs).
    Session(u32),
    /// A multi-rate multicast receiver's level, its throughput (bit/s, as `Rx`) and the frames
    /// it found missing so far.
    Level(u32),
    EndpointRx(u32),
    EndpointLost(u32),
    /// Series `k` of a flow's transport (its protocol names them: `registry::transport::SERIES`).
    Transport(u32, u8),
}

#[derive(Default)]
pub struct Series {
    pub names: Vec<String>,
    pub probes: Vec<Probe>,
    pub idx: Vec<u32>,
    pub t: Vec<f64>,
    pub v: Vec<f64>,
    /// Per probe, the counter at the previous sample (rates: `Rx`, `EndpointRx`), and that sample's time.
    pub prev: Vec<f64>,
    pub prev_t: f64,
}

/// bit/s over the `dt` seconds since the previous sample, whose byte counter `prev` holds (0 at the
/// first sample).
fn rate(prev: &mut f64, bytes: u64, dt: f64) -> f64 {
    let bytes = bytes as f64;
    let r = if dt > 0.0 { (bytes - *prev) * 8.0 / dt } else { 0.0 };
    *prev = bytes;
    r
}

impl Sim {
    pub(crate) fn on_record(&mut self) {
        let now = self.now;
        const SAMPLE_BYTES: u64 = 20; // u32 index + f64 time + f64 value
        let after = (self.series.idx.len() + self.series.probes.len()) as u64 * SAMPLE_BYTES;
        if self.max_series_bytes > 0 && after > self.max_series_bytes {
            self.stopped_by = Some(format!("max_series_memory ({} B)", self.max_series_bytes));
            return;
        }
        self.deliver_all(now); // the `rx_bps` probes read receiver counts
        let t = crate::core::time::to_secs(now);
        let series = &mut self.series;
        series.prev.resize(series.probes.len(), 0.0);
        let dt = t - series.prev_t;
        for (i, probe) in series.probes.iter().enumerate() {
            let v = match *probe {
                Probe::Cr(f) => self.flows[f as usize].rp.as_ref().map_or(0.0, |r| r.rate()),
                Probe::Tr(f) => self.flows[f as usize].rp.as_ref().map_or(0.0, |r| r.target()),
                Probe::Queue(p) => self.ports[p as usize].qdisc.bytes() as f64 / self.frame_size as f64,
                Probe::Rx(f, r) => rate(&mut series.prev[i], self.flows[f as usize].receivers[r as usize].bytes, dt),
                Probe::Session(s) => self.sessions[s as usize].cr.value(),
                Probe::Level(e) => self.endpoints[e as usize].cc.level() as f64,
                Probe::EndpointRx(e) => rate(&mut series.prev[i], self.endpoints[e as usize].bytes, dt),
                Probe::EndpointLost(e) => {
                    let ep = &self.endpoints[e as usize];
                    (ep.lost_total + ep.lost) as f64
                }
                Probe::Transport(f, k) => self.flows[f as usize].transport.as_ref().map_or(f64::NAN, |t| t.series(k as usize)),
            };
            series.idx.push(i as u32);
            series.t.push(t);
            series.v.push(v);
        }
        series.prev_t = t;
        let next = now + self.record_interval;
        if next <= self.duration {
            self.queue.push_slow(next, Event::Record);
        }
    }

    pub(crate) fn on_window_start(&mut self) {
        let now = self.now;
        self.catch_up_all(now);
        self.c_w0 = self.c;
        for p in &mut self.ports {
            p.c_w0 = p.c;
            if let Some(cp) = &mut p.cp {
                cp.start_window();
            }
            p.q.reset(now);
            p.busy_window = 0;
            p.hold.start_window(now);
        }
        for s in &mut self.senders {
            s.generated_w0 = s.generated;
        }
        for e in &mut self.endpoints {
            e.bytes_w0 = e.bytes;
            e.level.reset(now);
        }
        for s in &mut self.sessions {
            s.cr.reset(now);
        }
        for f in &mut self.flows {
            if let Some(t) = &mut f.transport {
                t.start_window();
            }
            f.cr.reset(now);
            f.feedback_w0 = f.rp.as_ref().map_or(0, |r| r.feedback_received());
            f.injected_w0 = f.injected;
            f.dropped_w0 = f.dropped;
            f.replicated_w0 = f.replicated;
            for r in &mut f.receivers {
                r.bytes_w0 = r.bytes;
            }
        }
    }

    /// Frames physically in queues and on wires, counted independently of the counters:
    /// (data, feedback, MAC control, ACKs, path control).
    pub fn in_flight(&self) -> (u64, u64, u64, u64, u64) {
        let (mut data, mut fb, mut ctrl, mut ack, mut pc) = (0, 0, 0, 0, 0);
        let mut count = |fid: FrameId| match self.frames.get(fid).kind {
            FrameKind::Data => data += 1,
            FrameKind::Feedback => fb += 1,
            FrameKind::MacControl => ctrl += 1,
            FrameKind::Ack => ack += 1,
            FrameKind::PathControl => pc += 1,
        };
        for p in &self.ports {
            p.qdisc.ids().for_each(&mut count);
            p.ctrl.iter().for_each(|&f| count(f));
        }
        self.queue.for_each(|ev| {
            if let Event::Arrive { frame, .. } = ev {
                count(frame)
            }
        });
        let lazy: usize = self.ports.iter().map(|p| p.deliveries.len()).sum(); // data frames on wires to hosts
        (data + lazy as u64, fb, ctrl, ack, pc)
    }
}
