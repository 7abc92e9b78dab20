//! The run's statistics as a JSON document (schema: docs/internals/core-api.md).

use crate::net::NodeKind;
use crate::sim::{Counters, Sim};
use crate::time::to_secs;
use serde_json::{json, Value};

fn counters(c: &Counters, in_flight: Option<(u64, u64)>) -> Value {
    let mut v = json!({
        "data_generated": c.data_generated,
        "data_source_dropped": c.data_source_dropped,
        "data_injected": c.data_injected,
        "data_replicated": c.data_replicated,
        "data_delivered": c.data_delivered,
        "data_dropped": c.data_dropped,
        "cnm_sent": c.cnm_sent,
        "cnm_delivered": c.cnm_delivered,
        "cnm_dropped": c.cnm_dropped,
    });
    if let Some((d, m)) = in_flight {
        v["data_in_flight"] = json!(d);
        v["cnm_in_flight"] = json!(m);
    }
    v
}

fn diff(a: &Counters, b: &Counters) -> Counters {
    Counters {
        data_generated: a.data_generated - b.data_generated,
        data_source_dropped: a.data_source_dropped - b.data_source_dropped,
        data_injected: a.data_injected - b.data_injected,
        data_replicated: a.data_replicated - b.data_replicated,
        data_delivered: a.data_delivered - b.data_delivered,
        data_dropped: a.data_dropped - b.data_dropped,
        cnm_sent: a.cnm_sent - b.cnm_sent,
        cnm_delivered: a.cnm_delivered - b.cnm_delivered,
        cnm_dropped: a.cnm_dropped - b.cnm_dropped,
    }
}

impl Sim {
    pub fn stats(&self) -> Value {
        let now = self.now;
        let in_window = now >= self.measure_from;
        let w0 = if in_window { self.c_w0 } else { self.c };
        let window_s = to_secs(now.saturating_sub(self.measure_from));
        let name = |i: u32| self.nodes[i as usize].name.clone();
        let rps: Vec<Value> = self
            .flows
            .iter()
            .filter_map(|f| {
                let rp = f.rp.as_ref()?;
                let (mean, std) = f.cr.mean_std(now);
                Some(json!({
                    "name": f.name, "flow": f.name, "source": name(f.src),
                    "protocol": if f.eqcn.is_some() { "eqcn" } else { "qcn" },
                    "fb_hat": f.eqcn.map(|e| e.fb_hat),
                    "cr_mean_bps": mean, "cr_std_bps": std, "cr_min_bps": f.cr.min, "cr_final_bps": rp.cr,
                    "tr_final_bps": rp.tr,
                    "first_cnm_s": rp.first_cnm.map(to_secs),
                    "cnms_received": rp.cnms_received,
                    "cnms_received_window": if in_window { rp.cnms_received - f.cnms_w0 } else { 0 },
                    "limiters_created": rp.limiters_created,
                }))
            })
            .collect();
        let queues: Vec<Value> = self
            .ports
            .iter()
            .filter(|p| self.nodes[p.node as usize].kind == NodeKind::Switch)
            .map(|p| {
                let (mean, std) = p.q.mean_std(now);
                let w = if in_window { p.c_w0 } else { p.c };
                json!({
                    "name": format!("{}>{}", name(p.node), name(p.peer_node)),
                    "node": name(p.node), "peer": name(p.peer_node),
                    "cp": p.cp.is_some(),
                    "qeq_frames": p.cp.as_ref().map(|c| c.cp.p.qeq as f64 / self.frame_size as f64),
                    "capacity": p.capacity.to_string(),
                    "q_mean_frames": mean, "q_std_frames": std, "q_max_frames": p.q.max,
                    "arrivals": p.c.arrivals, "arrivals_window": p.c.arrivals - w.arrivals,
                    "drops": p.c.drops, "drops_window": p.c.drops - w.drops,
                    "cnms_sent": p.c.cnms_sent, "cnms_sent_window": p.c.cnms_sent - w.cnms_sent,
                    "busy_s_window": to_secs(p.busy_window), "rate_bps": p.rate_bps,
                    "peak_frames": p.peak_frames, "peak_bytes": p.peak_bytes,
                })
            })
            .collect();
        let flows: Vec<Value> = self
            .flows
            .iter()
            .map(|f| {
                let s = &self.senders[f.sender as usize];
                let gw = if in_window { s.generated - s.generated_w0 } else { 0 };
                let receivers: Vec<Value> = f
                    .receivers
                    .iter()
                    .map(|r| {
                        let bw = if in_window { r.bytes - r.bytes_w0 } else { 0 };
                        json!({"host": name(r.host), "frames": r.frames, "bytes_window": bw,
                               "throughput_bps": if window_s > 0.0 { bw as f64 * 8.0 / window_s } else { 0.0 }})
                    })
                    .collect();
                json!({"name": f.name, "source": name(f.src), "mode": f.mode, "group": f.group,
                       "frames_generated": s.generated, "frames_generated_window": gw,
                       "source_dropped": s.source_dropped,
                       "injected": f.injected, "dropped": f.dropped, "replicated": f.replicated,
                       "replicated_window": if in_window { f.replicated - f.replicated_w0 } else { 0 },
                       "injected_window": if in_window { f.injected - f.injected_w0 } else { 0 },
                       "dropped_window": if in_window { f.dropped - f.dropped_w0 } else { 0 },
                       "cnms_received_window": f.rp.as_ref().map_or(0, |r| if in_window { r.cnms_received - f.cnms_w0 } else { 0 }),
                       "receivers": receivers})
            })
            .collect();
        // Sessions: one per sender with RPs; the session rate is min over its RPs (seed 000 §3).
        let sessions: Vec<Value> = self
            .senders
            .iter()
            .filter(|s| self.flows[s.flows.start as usize].rp.is_some())
            .map(|s| {
                let (mean, std) = s.cr.mean_std(now);
                let flows: Vec<&str> = (s.flows.clone()).map(|f| self.flows[f as usize].name.as_str()).collect();
                json!({"name": flows.join("+"), "source": name(s.host), "flows": flows,
                       "cr_mean_bps": mean, "cr_std_bps": std, "cr_min_bps": s.cr.min, "cr_final_bps": s.cr.value()})
            })
            .collect();
        let mut frames = counters(&self.c, Some(self.in_flight()));
        let waiting: u64 = self.senders.iter().map(|s| (s.buf.len() * s.flows.len()) as u64).sum();
        frames["data_in_limiters"] = json!(waiting);
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "seed": self.seed,
            "scenario": self.scenario_path,
            "time": {"end_s": to_secs(now), "duration_s": to_secs(self.duration),
                     "measure_from_s": to_secs(self.measure_from), "window_s": window_s},
            "events": self.events,
            "stopped_by": self.stopped_by,
            "frames": frames,
            "window": counters(&diff(&self.c, &w0), None),
            "rps": rps, "sessions": sessions, "queues": queues, "flows": flows,
        })
    }
}
