//! A check makes each workload flow as a run's build does, checks it and drops it
//! (`build/check.rs`): what it reports — the resolved scenario, every warning in its order, or the
//! error — is what the build of the run and its `lint` report, on workloads that warn (reaction
//! points no queue marks, congestion points no reaction point hears, queues smaller than a
//! workload's frames, with ECMP spreading flows by their index) and that fail.

fn run_build(text: &str) -> Result<(String, Vec<String>), String> {
    let sim = cnsim_engine::simulation(text, "w.toml", &[], None).map_err(|e| e.to_string())?;
    Ok((sim.resolved_toml.clone(), sim.lint()))
}

fn check(text: &str) -> Result<(String, Vec<String>), String> {
    cnsim_engine::check_and_lint(text, "w.toml", &[]).map_err(|e| e.to_string())
}

/// Hosts H1..H4 and D1..D4 on two edge switches joined by two cores (two equal-cost paths).
const DIAMOND: &str = r#"
[simulation]
duration = "1ms"
[routing]
ecmp = true
[defaults]
link = { rate = "10Gbps", delay = "1us" }
[[switch]]
names = ["E1", "E2", "C1", "C2"]
[[host]]
names = ["H1..H4", "D1..D4"]
[[link]]
between = ["H1..H4", "E1"]
[[link]]
between = ["D1..D4", "E2"]
[[link]]
between = ["E1", "C1..C2"]
[[link]]
between = ["E2", "C1..C2"]
"#;

fn workload(name: &str, extra: &str) -> String {
    format!("[[workload]]\nname = \"{name}\"\nhosts = [\"H1..H4\", \"D1..D4\"]\nsizes = \"web-search\"\nload = 0.5\nstop = \"50ms\"\n{extra}\n")
}

fn same(text: &str) -> (String, Vec<String>) {
    let (built, checked) = (run_build(text), check(text));
    assert_eq!(checked, built, "check and the run's build differ on\n{text}");
    built.unwrap_or_default()
}

#[test]
fn reaction_points_no_queue_marks_warn_per_flow_as_the_build_does() {
    let (_, warnings) = same(&format!("{DIAMOND}{}", workload("w", "rp = { dcqcn = {} }")));
    assert!(warnings.len() > 10 && warnings.iter().all(|w| w.contains("its rate is never cut")), "{warnings:?}");
}

#[test]
fn congestion_points_and_small_queues_warn_as_the_build_does() {
    // A congestion point on every queue; one [[flow]] with a reaction point, the workload without:
    // which ports are fed depends on each flow's equal-cost choice, by its index.
    let flow = "[[flow]]\nfrom = \"H1\"\nto = \"D1\"\ntraffic = { kind = \"cbr\", rate = \"1Gbps\" }\nrp = { qcn = {} }\n";
    let (_, warnings) = same(&format!("{DIAMOND}[cp.qcn]\n{flow}{}", workload("w", "")));
    assert!(warnings.iter().any(|w| w.contains("has no reaction point to notify")), "{warnings:?}");
    // The workload's frames (larger than the run's) decide "less than one frame".
    let text = format!("{DIAMOND}{}", workload("w", "frame = \"4000B\""));
    let (_, warnings) = same(&text.replace("[defaults]\n", "[defaults]\nqueue = { capacity = \"3000B\" }\n"));
    assert!(warnings.iter().any(|w| w.contains("4000 B")), "{warnings:?}");
    // Two tables, one with a reaction point.
    same(&format!("{DIAMOND}[cp.qcn]\n{}{}", workload("a", ""), workload("b", "rp = { qcn = {} }")));
}

#[test]
fn errors_are_the_build_s() {
    // A host no path reaches.
    let cut = format!("{DIAMOND}[[host]]\nnames = [\"X\"]\n[[switch]]\nnames = [\"EX\"]\n[[link]]\nbetween = [\"X\", \"EX\"]\n{}", workload("w", "").replace("\"D1..D4\"]", "\"D1..D4\", \"X\"]"));
    assert!(same_err(&cut).contains("not reachable"));
    // A name a [[flow]] table took.
    let flow = "[[flow]]\nname = \"w#3\"\nfrom = \"H1\"\nto = \"D1\"\ntraffic = { kind = \"cbr\", rate = \"1Gbps\" }\n";
    assert!(same_err(&format!("{DIAMOND}{flow}{}", workload("w", ""))).contains("duplicate flow name"));
    // Over max_flows, over the memory budget, and a flow's own error (a transfer with a stop).
    assert!(same_err(&format!("{DIAMOND}{}", workload("w", "max_flows = 5"))).contains("max_flows"));
    assert!(same_err(&format!("{DIAMOND}{}", workload("w", "")).replace("duration = \"1ms\"", "duration = \"1ms\"\nmax_memory = \"300kB\"")).contains("memory"));
    assert!(same_err(&format!("{DIAMOND}{}", workload("w", "rp = { dcqcn = { min_rate = \"100Gbps\" } }"))).contains("min_rate"));
}

fn same_err(text: &str) -> String {
    let (built, checked) = (run_build(text), check(text));
    assert_eq!(checked, built, "check and the run's build differ on\n{text}");
    built.expect_err("an error")
}
