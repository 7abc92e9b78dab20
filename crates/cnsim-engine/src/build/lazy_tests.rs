//! Which ports deliver lazily (`sim/switch.rs`): only host-facing ports, and only when some flow's
//! receivers are passive, so that `deliver_all` visits no port of a run without such a flow.

use crate::sim::Sim;

fn star(flow: &str) -> Sim {
    let text = format!(
        "[simulation]\nduration = \"1ms\"\n[[switch]]\nnames = \"SW\"\n[[host]]\nnames = \"H1..H4\"\n\
         [[link]]\nbetween = [\"SW\", \"H1..H4\"]\n{flow}"
    );
    Sim::build(&crate::scenario::load(&text, "star.toml", &[], None).unwrap()).unwrap()
}

#[test]
fn without_a_passive_flow_no_port_is_lazy() {
    let s = star("");
    assert!(s.lazy_ports.is_empty() && s.ports.iter().all(|p| !p.lazy_rx));
}

#[test]
fn with_a_passive_flow_the_host_facing_ports_are_lazy_in_id_order() {
    let s = star("[[flow]]\nfrom = \"H1\"\nto = \"H2\"\ntraffic = { kind = \"cbr\", rate = \"1Mbps\" }\n");
    let host_facing: Vec<u32> = (0..s.ports.len() as u32)
        .filter(|&i| s.nodes[s.ports[i as usize].peer_node as usize].kind == crate::net::node::NodeKind::Host)
        .collect();
    assert_eq!(host_facing.len(), 4);
    assert_eq!(s.lazy_ports, host_facing);
}
