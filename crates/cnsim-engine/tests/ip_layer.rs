//! The IP layer end to end (issue 13): routers with TTL, RED under Poisson overload, routers and
//! switches in one topology, and SIRENS tables converging to the true per-hop available bandwidth.

use serde_json::Value;

fn run(text: &str) -> Value {
    let mut sim = cnsim_engine::simulation(text, "ip.toml", &[], None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    sim.run_until(u64::MAX, 0);
    sim.stats()
}

fn queue<'a>(s: &'a Value, name: &str) -> &'a Value {
    s["queues"].as_array().unwrap().iter().find(|q| q["name"] == name).unwrap_or_else(|| panic!("no queue {name}"))
}

/// Poisson frames at ρ = 1.2 into a 100 Mb/s router port running RED (min 50, max 100, max_p 0.2,
/// room for 300 frames so drop-tail never acts): the transmitter stays busy, so RED must drop the
/// excess 1 − 1/ρ = 1/6 of the arrivals; RED's inter-drop gaps, uniform on 1..1/p_b − 1, give a
/// drop fraction ≈ 2·p_b, so the average settles where p_b = 1/12: avg = 50 + 50·(1/12)/0.2 ≈ 70.8.
#[test]
fn red_holds_the_average_between_the_thresholds_under_poisson_overload() {
    let s = run(r#"
[simulation]
duration = "30s"
measure_from = "5s"
record_interval = "0s"
[defaults.link]
overhead = "0B"
[[router]]
names = "R1"
[[host]]
names = ["H1", "H2"]
[[link]]
between = ["H1", "R1"]
rate = "1Gbps"
[[link]]
between = ["R1", "H2"]
rate = "100Mbps"
queue = { capacity = "300 frames", discipline = "red", red = { min_th = 50, max_th = 100, max_p = 0.2 } }
[[flow]]
from = "H1"
to = "H2"
traffic = { kind = "poisson", rate = "120Mbps" }
"#);
    let q = queue(&s, "R1>H2");
    let arrivals = q["arrivals_window"].as_f64().unwrap();
    let drops = q["drops_window"].as_f64().unwrap();
    let frac = drops / arrivals;
    assert!((frac - 1.0 / 6.0).abs() < 0.01, "drop fraction {frac}");
    let mean = q["q_mean_frames"].as_f64().unwrap();
    assert!(mean > 50.0 && mean < 100.0, "time-average queue {mean}");
    assert!((mean - 70.8).abs() < 6.0, "time-average queue {mean}");
    assert!((q["red_avg_packets"].as_f64().unwrap() - 70.8).abs() < 8.0);
    let avg = q["red_avg_packets"].as_f64().unwrap();
    assert!(avg > 50.0 && avg < 100.0, "RED average {avg}");
    assert_eq!(q["red_forced_drops"], 0);
    assert!(q["peak_frames"].as_u64().unwrap() < 300);
}

/// Routers decrement the TTL and drop at 0, counted; switches do not touch it.
#[test]
fn routers_decrement_ttl_and_switches_do_not() {
    let topo = |ttl: u32| {
        format!(
            r#"
[simulation]
duration = "100ms"
record_interval = "0s"
[[switch]]
names = ["S1", "S2"]
[[router]]
names = ["R1", "R2", "R3"]
[[host]]
names = ["H1", "H2"]
[[link]]
between = ["H1", "S1"]
[[link]]
between = ["S1", "R1"]
[[link]]
between = ["R1", "R2"]
[[link]]
between = ["R2", "S2"]
[[link]]
between = ["S2", "R3"]
[[link]]
between = ["R3", "H2"]
[[flow]]
from = "H1"
to = "H2"
traffic = {{ kind = "cbr", rate = "12Mbps" }}
sirens = {{ init_ttl = {ttl} }}
"#
        )
    };
    // Three routers: TTL 4 arrives with 1; TTL 3 dies at the third router.
    let ok = run(&topo(4));
    assert_eq!(ok["frames"]["ttl_expired"], 0);
    let rx = &ok["flows"][0]["receivers"][0];
    assert!(rx["frames"].as_u64().unwrap() >= 99);
    assert_eq!(rx["sirens_path_len"], 3);
    let dead = run(&topo(3));
    let sent = dead["flows"][0]["injected"].as_u64().unwrap();
    let expired = dead["frames"]["ttl_expired"].as_u64().unwrap();
    assert!(expired + 1 >= sent && expired <= sent, "{expired} of {sent}"); // the last may be in flight
    assert_eq!(dead["flows"][0]["receivers"][0]["frames"], 0);
    assert_eq!(dead["flows"][0]["dropped"].as_u64().unwrap(), expired);
}

/// Five routers R1..R5 in a line from H1 to H2, output links of known capacity, and cross traffic of
/// known rate on some of them (entering and leaving through side hosts): the receiver's SIRENS
/// table holds, per hop, the output link's capacity and capacity − load within the window's
/// measurement error, every hop fresh, and the bottleneck is the hop with the least room.
#[test]
fn sirens_table_converges_to_the_per_hop_available_bandwidth() {
    // Output link of router k: capacity, and cross traffic on it (Mb/s).
    let caps = [100.0, 50.0, 80.0, 200.0, 40.0];
    let cross = [30.0, 0.0, 60.0, 50.0, 0.0];
    let probe = 1.2; // the probing flow itself, Mb/s
    let mut t = String::from(
        r#"
[simulation]
duration = "3s"
record_interval = "0s"
[defaults.link]
overhead = "0B"
rate = "1Gbps"
delay = "1ms"
[sirens]
window = "200ms"
[[router]]
names = "R1..R5"
[[host]]
names = ["H1", "H2", "X1..X5", "Y1..Y4"]
[[link]]
between = ["H1", "R1"]
"#,
    );
    for k in 1..=5 {
        let next = if k == 5 { "H2".to_string() } else { format!("R{}", k + 1) };
        t += &format!("[[link]]\nbetween = [\"R{k}\", \"{next}\"]\nrate = \"{}Mbps\"\n", caps[k - 1]);
        // Cross traffic for link k: X_k → R_k, over the link, and out at the next node to Y_k.
        t += &format!("[[link]]\nbetween = [\"X{k}\", \"R{k}\"]\n");
        if k < 5 {
            t += &format!("[[link]]\nbetween = [\"R{}\", \"Y{k}\"]\n", k + 1);
        }
        if cross[k - 1] > 0.0 {
            t += &format!("[[flow]]\nfrom = \"X{k}\"\nto = \"Y{k}\"\ntraffic = {{ kind = \"cbr\", rate = \"{}Mbps\" }}\n", cross[k - 1]);
        }
    }
    t += &format!("[[flow]]\nname = \"probe\"\nfrom = \"H1\"\nto = \"H2\"\ntraffic = {{ kind = \"cbr\", rate = \"{probe}Mbps\" }}\nsirens = {{ hops = 5, init_ttl = 64 }}\n");
    let s = run(&t);
    let flow = s["flows"].as_array().unwrap().iter().find(|f| f["name"] == "probe").unwrap();
    let rx = &flow["receivers"][0];
    assert_eq!(rx["sirens_path_len"], 5);
    assert_eq!(rx["sirens_known"], true);
    let hops = rx["sirens_hops"].as_array().unwrap();
    assert_eq!(hops.len(), 5);
    for (k, h) in hops.iter().enumerate() {
        let cap = h[1].as_f64().unwrap() / 1e6;
        let avail = h[2].as_f64().unwrap() / 1e6;
        let age = h[3].as_f64().unwrap();
        let truth = caps[k] - cross[k] - probe;
        assert!((cap - caps[k]).abs() < 1e-6, "hop {} capacity {cap}", k + 1);
        // One 1500-B frame more or less in a 0.2 s window is 0.06 Mb/s.
        assert!((avail - truth).abs() < 0.5, "hop {} available {avail} vs {truth}", k + 1);
        // The probe sends 100 frames/s and cycles over 5 hops: a hop is refreshed every 50 ms.
        assert!(age <= 0.06, "hop {} age {age}", k + 1);
    }
    // The bottleneck: hop 3 has 80 − 60 − 1.2 = 18.8 Mb/s left, the least.
    let b = rx["sirens_bottleneck_bps"].as_f64().unwrap() / 1e6;
    assert!((b - 18.8).abs() < 0.5, "bottleneck {b}");
}

/// A multicast tree over routers and a switch; R2 joins late and R1 leaves with a 100 ms leave
/// latency: frames reach a member only while it is joined (plus the leave latency), and stop
/// flowing down the pruned branch.
#[test]
fn membership_changes_prune_and_graft_branches() {
    let s = |leave_latency: &str| {
        run(&format!(
            r#"
[simulation]
duration = "1s"
record_interval = "0s"
[defaults.link]
overhead = "0B"
[[switch]]
names = "S1"
[[router]]
names = ["RA", "RB", "RC"]
[[host]]
names = ["H", "R1", "R2"]
[[link]]
between = ["H", "RA"]
[[link]]
between = ["RA", "S1"]
[[link]]
between = ["S1", "RB"]
[[link]]
between = ["S1", "RC"]
[[link]]
between = ["RB", "R1"]
[[link]]
between = ["RC", "R2"]
[[group]]
name = "G"
members = ["R1", "R2"]
joined = ["R1"]
leave_latency = "{leave_latency}"
[[group.change]]
at = "300ms"
join = "R2"
[[group.change]]
at = "600ms"
leave = "R1"
[[flow]]
from = "H"
to = "G"
traffic = {{ kind = "cbr", rate = "12Mbps" }}
"#
        ))
    };
    // 1000 frames/s: R1 gets 600 (+100 during the leave latency), R2 400, ±1 at the edges.
    let near = |v: &Value, x: u64| {
        let n = v.as_u64().unwrap();
        assert!(n + 2 >= x && n <= x + 2, "{n} frames, expected {x}");
    };
    let r = s("100ms");
    let rx = &r["flows"][0]["receivers"];
    near(&rx[0]["frames"], 700);
    near(&rx[1]["frames"], 700);
    assert_eq!(r["groups"][0]["joins"], 1);
    assert_eq!(r["groups"][0]["leaves"], 1);
    assert_eq!(r["groups"][0]["joined"], serde_json::json!(["R2"]));
    // Nothing is dropped: the pruned branch simply gets no copies.
    assert_eq!(r["frames"]["data_dropped"], 0);
    let r = s("0s");
    near(&r["flows"][0]["receivers"][0]["frames"], 600);
    // The branch to RB is pruned: the RB>R1 port carried R1's frames only while joined.
    let q = queue(&r, "RB>R1");
    near(&q["arrivals"], 600);
}

/// Bad values of the new tables are errors that name the place, never a panic.
#[test]
fn bad_inputs_are_errors() {
    let base = r#"
[simulation]
duration = "10ms"
[[router]]
names = "R"
[[host]]
names = ["A", "B"]
[[link]]
between = ["A", "R"]
[[link]]
between = ["R", "B"]
"#;
    let bad = [
        ("[[port]]\nat = \"R>B\"\nqueue = { discipline = \"red\", red = { min_th = 10, max_th = 5 } }\n", "queue.red.min_th must be in [0, queue.red.max_th"),
        ("[[port]]\nat = \"R>B\"\nqueue = { red = { min_th = 1 } }\n", "needs queue.discipline"),
        ("[[port]]\nat = \"R>B\"\nqueue = { discipline = \"red\", red = { w_q = 0 } }\n", "w_q"),
        ("[[flow]]\nfrom = \"A\"\nto = \"B\"\ntraffic = { kind = \"cbr\", rate = \"1Mbps\" }\nsirens = { init_ttl = 4, hops = 4 }\n", "sirens.hops"),
        ("[sirens]\nwindow = \"0s\"\n", "sirens.window must be positive, got "),
        ("[[flow]]\nfrom = \"A\"\nto = \"B\"\ntraffic = { kind = \"tcp-bulk\" }\nsirens = {}\n", "sirens is for open-loop traffic"),
        ("[[group]]\nname = \"G\"\nmembers = \"B\"\njoined = \"A\"\n", "not a member"),
        ("[[group]]\nname = \"G\"\nmembers = \"B\"\n[[mcast_receiver]]\nhosts = \"B\"\ngroups = [\"G\"]\ncc = { rlm = {} }\n", "no multicast flow"),
        ("[[group]]\nname = \"G\"\nmembers = \"B\"\n[[flow]]\nfrom = \"A\"\nto = \"G\"\ntraffic = { kind = \"cbr\", rate = \"1Mbps\" }\n[[mcast_receiver]]\nhosts = \"B\"\ngroups = [\"G\"]\ncc = { emcast = {} }\n", "router feedback: give the channels' flows a `sirens` table"),
        ("[[group]]\nname = \"G\"\nmembers = \"B\"\n[[flow]]\nfrom = \"A\"\nto = \"G\"\ntraffic = { kind = \"cbr\", rate = \"1Mbps\" }\n[[mcast_receiver]]\nhosts = \"B\"\ngroups = [\"G\"]\ninitial_level = 2\ncc = { rlm = {} }\n", "initial_level"),
    ];
    for (extra, want) in bad {
        let text = format!("{base}{extra}");
        match cnsim_engine::simulation(&text, "bad.toml", &[], None) {
            Ok(_) => panic!("accepted:\n{extra}"),
            Err(e) => assert!(e.to_string().contains(want), "{e} (wanted {want:?})"),
        }
    }
}
