//! The recorded series: names and probes (docs/internals/core-api.md lists the names). A name is
//! `QUANTITY_UNIT.ENTITY`: the part before the first `.` ends with the unit (`_bps`, `_frames`,
//! `_s`, `_segments`; `level` has none), the entity after it may contain dots.

use crate::net::flow::Session;
use crate::net::node::Node;
use crate::registry::{Endpoint, Flow, Port};
use crate::sim::{Probe, Series};

pub fn series(nodes: &[Node], ports: &[Port], flows: &[Flow], sessions: &[Session], endpoints: &[Endpoint]) -> Series {
    let mut s = Series::default();
    let mut add = |name: String, probe: Probe| {
        s.names.push(name);
        s.probes.push(probe);
    };
    for (i, f) in flows.iter().enumerate() {
        if f.rp.is_some() {
            add(format!("rp_cr_bps.{}", f.name), Probe::Cr(i as u32));
            add(format!("rp_tr_bps.{}", f.name), Probe::Tr(i as u32));
        }
    }
    for (i, sess) in sessions.iter().enumerate() {
        if sess.flows.len() > 1 && flows[sess.flows.start as usize].rp.is_some() {
            add(format!("session_cr_bps.{}", nodes[sess.host as usize].name), Probe::Session(i as u32));
        }
    }
    for (p, port) in ports.iter().enumerate() {
        if nodes[port.node as usize].kind.forwards() {
            add(format!("q_frames.{}>{}", nodes[port.node as usize].name, nodes[port.peer_node as usize].name), Probe::Queue(p as u32));
        }
    }
    for (i, f) in flows.iter().enumerate() {
        if let Some(t) = &f.transport {
            for (k, name) in t.series_names().iter().enumerate() {
                add(format!("{name}.{}", f.name), Probe::Transport(i as u32, k as u8));
            }
        }
    }
    for (i, e) in endpoints.iter().enumerate() {
        add(format!("level.{}", nodes[e.host as usize].name), Probe::Level(i as u32));
        add(format!("mrx_bps.{}", nodes[e.host as usize].name), Probe::EndpointRx(i as u32));
        add(format!("mlost_frames.{}", nodes[e.host as usize].name), Probe::EndpointLost(i as u32));
    }
    for (i, f) in flows.iter().enumerate() {
        for (j, r) in f.receivers.iter().enumerate() {
            add(format!("rx_bps.{}>{}", f.name, nodes[r.host as usize].name), Probe::Rx(i as u32, j as u32));
        }
    }
    s
}
