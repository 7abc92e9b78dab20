//! Property tests over random small networks (issue 8): whatever the topology, traffic, queue
//! sizes and protocols (QCN, E-QCN, BCN, ECM, QCN probes, PAUSE, PFC), frames are conserved — every copy generated is
//! dropped at the source, injected or still waiting; every copy in the network is delivered,
//! dropped or still in flight; every CNM, probe and PAUSE frame likewise — and no queue ever holds more
//! than its capacity.

use proptest::prelude::*;
use serde_json::Value;

#[derive(Debug, Clone)]
struct Net {
    parents: Vec<usize>, // switch i+2 hangs off switch parents[i]+1 (a random tree)
    hosts: Vec<usize>,   // the switch each host is attached to
    fast: Vec<bool>,     // per link: 10 Gb/s or 1 Gb/s
    capacity: String,
    flows: Vec<FlowSpec>,
    cp: u8,
    fc: u8,
    seed: u64,
}

#[derive(Debug, Clone)]
struct FlowSpec {
    src: usize,
    dst: usize,
    mode: u8,
    kind: u8,
    rate_mbps: u32,
    prio: u8,
    rp: u8,
}

fn net() -> impl Strategy<Value = Net> {
    (1usize..=4, 3usize..=6).prop_flat_map(|(n_sw, n_h)| {
        (
            (1..n_sw).map(|i| 0..i).collect::<Vec<_>>(),
            prop::collection::vec(0..n_sw, n_h),
            prop::collection::vec(any::<bool>(), n_sw + n_h),
            prop_oneof![(1u32..=60).prop_map(|n| format!("{n} frames")), (1500u32..=90_000).prop_map(|b| format!("{b}B"))],
            prop::collection::vec(
                (0..n_h, 0..n_h, 0u8..3, 0u8..3, 50u32..=6000, 0u8..8, 0u8..6)
                    .prop_map(|(src, dst, mode, kind, rate_mbps, prio, rp)| FlowSpec { src, dst, mode, kind, rate_mbps, prio, rp }),
                1..=4,
            ),
            0u8..5,
            0u8..4,
            any::<u64>(),
        )
            .prop_map(|(parents, hosts, fast, capacity, flows, cp, fc, seed)| Net { parents, hosts, fast, capacity, flows, cp, fc, seed })
    })
}

fn toml(n: &Net) -> String {
    let n_sw = n.parents.len() + 1;
    let mut s = format!(
        "[simulation]\nduration = \"2ms\"\nrecord_interval = \"0s\"\nseed = {}\n[defaults]\nqueue = {{ capacity = \"{}\" }}\n",
        n.seed >> 1,
        n.capacity
    );
    // A CP's Qeq lies below the queue's capacity (the engine refuses it otherwise).
    let cap = match n.capacity.strip_suffix(" frames") {
        Some(f) => f.parse::<u64>().unwrap() * 1500,
        None => n.capacity.trim_end_matches('B').parse::<u64>().unwrap(),
    };
    let qeq = |frames: u64| format!("{}B", (frames * 1500).min(cap / 2));
    match n.cp {
        1 => s += &format!("[cp.qcn]\nqeq = \"{}\"\nsampling = \"every-frame\"\n", qeq(5)),
        2 => s += &format!("[cp.qcn]\nqeq = \"{}\"\n", qeq(5)),
        3 => s += &format!("[cp.bcn]\nqeq = \"{}\"\nqsc = \"10 frames\"\npm = 0.2\n", qeq(4)),
        4 => s += &format!("[cp.ecm]\nqeq = \"{}\"\nqsc = \"8 frames\"\nqmc = \"12 frames\"\nsample_interval = \"3000B\"\n", qeq(4)),
        _ => {}
    }
    match n.fc {
        1 => s += "[flow_control.pause]\nxoff = \"4 frames\"\nxon = \"2 frames\"\n",
        2 => s += "[flow_control.pfc]\nxoff = \"4 frames\"\nxon = \"2 frames\"\n",
        // An egress XOFF lies below the queue's capacity too (the engine refuses it otherwise).
        3 => {
            let xoff = (6 * 1500u64).min(cap / 2).max(2);
            s += &format!("[flow_control.pause]\ntrigger = \"egress\"\nxoff = \"{xoff}B\"\nxon = \"{}B\"\n", 1500u64.min(xoff / 2));
        }
        _ => {}
    }
    s += &format!("[[switch]]\nnames = \"W1..W{n_sw}\"\n[[host]]\nnames = \"H1..H{}\"\n", n.hosts.len());
    let rate = |i: usize| if n.fast[i] { "10Gbps" } else { "1Gbps" };
    for (i, &p) in n.parents.iter().enumerate() {
        s += &format!("[[link]]\nbetween = [\"W{}\", \"W{}\"]\nrate = \"{}\"\n", i + 2, p + 1, rate(i));
    }
    for (h, &w) in n.hosts.iter().enumerate() {
        s += &format!("[[link]]\nbetween = [\"H{}\", \"W{}\"]\nrate = \"{}\"\n", h + 1, w + 1, rate(n_sw + h));
    }
    s += "[[group]]\nname = \"G\"\nmembers = [\"H1\", \"H2\", \"H3\"]\n";
    for (i, f) in n.flows.iter().enumerate() {
        let dst = if f.dst == f.src { (f.src + 1) % n.hosts.len() } else { f.dst };
        let (to, mode) = match f.mode {
            0 => (format!("H{}", dst + 1), "unicast"),
            1 => ("G".to_string(), "multicast"),
            _ => ("G".to_string(), "multiple-unicast"),
        };
        let traffic = match f.kind {
            0 => format!("{{ kind = \"cbr\", rate = \"{}Mbps\" }}", f.rate_mbps),
            1 => format!("{{ kind = \"poisson\", rate = \"{}Mbps\" }}", f.rate_mbps),
            _ => format!("{{ kind = \"bernoulli\", load = {} }}", f.rate_mbps as f64 / 6000.0),
        };
        // Probes need a unicast flow: other modes get plain QCN.
        let probe = if f.mode == 0 { "{ qcn = { probe = \"path\", bc_limit = \"15000B\" } }" } else { "{ qcn = {} }" };
        let rp = ["\"none\"", "{ qcn = {} }", "{ eqcn = {} }", "{ bcn = { stop_max = \"100us\" } }", "{ ecm = { rtt_drop = true } }", probe][f.rp as usize];
        s += &format!(
            "[[flow]]\nname = \"f{i}\"\nfrom = \"H{}\"\nto = \"{to}\"\nmode = \"{mode}\"\ntraffic = {traffic}\npriority = {}\nrp = {rp}\nlimiter = {{ buffer = 20 }}\n",
            f.src + 1,
            f.prio
        );
    }
    s
}

fn u(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} missing in {v}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn frames_are_conserved_and_queues_bounded(n in net()) {
        let text = toml(&n);
        let mut sim = cnsim_engine::simulation(&text, "prop.toml", &[], None).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        sim.run_until(sim.duration, 0);
        let st = sim.stats();
        let f = &st["frames"];
        prop_assert_eq!(u(f, "data_generated"), u(f, "data_source_dropped") + u(f, "data_injected") + u(f, "data_in_limiters"), "{}", text);
        prop_assert_eq!(u(f, "data_injected") + u(f, "data_replicated"), u(f, "data_delivered") + u(f, "data_dropped") + u(f, "data_in_flight"), "{}", text);
        prop_assert_eq!(u(f, "feedback_sent"), u(f, "feedback_delivered") + u(f, "feedback_dropped") + u(f, "feedback_in_flight"), "{}", text);
        if n.fc != 0 {
            prop_assert_eq!(u(f, "pause_sent"), u(f, "pause_delivered") + u(f, "pause_in_flight"), "{}", text);
        }
        if f.get("probe_sent").is_some() {
            prop_assert_eq!(u(f, "probe_sent"), u(f, "probe_answered") + u(f, "probe_unanswered") + u(f, "probe_dropped") + u(f, "probe_in_flight"), "{}", text);
        }
        for q in st["queues"].as_array().unwrap() {
            let cap = q["capacity"].as_str().unwrap();
            // Under strict priority (the default with PFC) each of the 8 classes has the capacity.
            let classes = if n.fc == 2 { 8 } else { 1 };
            if let Some(frames) = cap.strip_suffix(" frames") {
                prop_assert!(u(q, "peak_frames") <= classes * frames.parse::<u64>().unwrap(), "{} {}", q, text);
            } else {
                let bytes: u64 = cap.trim_end_matches('B').parse().unwrap();
                prop_assert!(u(q, "peak_bytes") <= classes * bytes, "{} {}", q, text);
            }
        }
    }
}

/// The property above is not vacuous: the random networks do drop frames, send CNMs and pause.
#[test]
fn random_networks_exercise_drops_cnms_and_pauses() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut drops, mut cnms, mut pauses, mut probes) = (0, 0, 0, 0);
    for _ in 0..64 {
        let n = net().new_tree(&mut runner).unwrap().current();
        let mut sim = cnsim_engine::simulation(&toml(&n), "prop.toml", &[], None).unwrap();
        sim.run_until(sim.duration, 0);
        let f = &sim.stats()["frames"];
        drops += (u(f, "data_dropped") > 0) as u32;
        cnms += (u(f, "feedback_sent") > 0) as u32;
        pauses += (f["pause_sent"].as_u64().unwrap_or(0) > 0) as u32;
        probes += (f["probe_sent"].as_u64().unwrap_or(0) > 0) as u32;
    }
    assert!(drops >= 8 && cnms >= 8 && pauses >= 8 && probes >= 1, "drops {drops}, cnms {cnms}, pauses {pauses}, probes {probes} of 64");
}
