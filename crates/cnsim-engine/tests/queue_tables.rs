//! A queue's discipline and its queue-management tables (`queue.red`, `queue.threshold`,
//! `queue.dcqcn`), whose checks the build writes from the registry: a table beside another
//! discipline is refused, the last-registered first; the chosen discipline's table, or its
//! defaults, builds its queue management.

const BASE: &str = r#"
[simulation]
duration = "1ms"
[[switch]]
names = "S"
[[host]]
names = ["A", "B"]
[[link]]
between = ["A", "S"]
[[link]]
between = ["S", "B"]
[[port]]
at = "S>B"
"#;

fn build(queue: &str) -> Result<(), String> {
    let text = format!("{BASE}queue = {{ {queue} }}\n");
    cnsim_engine::simulation(&text, "q.toml", &[], None).map(|_| ()).map_err(|e| e.to_string())
}

fn refused(queue: &str, want: &str) {
    match build(queue) {
        Ok(()) => panic!("accepted: {queue}"),
        Err(e) => assert!(e.contains(want), "{e} (wanted {want:?})"),
    }
}

#[test]
fn a_table_beside_another_discipline_is_refused_last_registered_first() {
    refused("discipline = \"red\", threshold = { k = \"5 frames\" }", "queue.threshold needs queue.discipline = \"threshold\"");
    refused("discipline = \"fifo\", red = {}, dcqcn = {}", "queue.dcqcn needs queue.discipline = \"dcqcn\"");
    refused("red = {}", "queue.red needs queue.discipline = \"red\"");
    // A table registered before the chosen discipline's is not read.
    build("discipline = \"threshold\", threshold = { k = \"5 frames\" }, red = {}").unwrap();
}

#[test]
fn each_discipline_builds_with_its_table_or_its_defaults() {
    for q in ["discipline = \"red\"", "discipline = \"dcqcn\"", "discipline = \"prio\"", "capacity = \"50 frames\""] {
        build(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    }
    refused("discipline = \"threshold\"", "queue.discipline = \"threshold\" needs queue.threshold = { k = \"… frames\" }");
    refused("discipline = \"threshold\", capacity = \"5 frames\", threshold = { k = \"5 frames\" }", "is not below the queue's capacity");
    refused("discipline = \"dcqcn\", capacity = \"4000B\", dcqcn = { kmin = \"5KB\" }", "queue.dcqcn.kmin");
    refused("discipline = \"red\", red = { w_q = 0 }", "queue.red.w_q must be in (0, 1]");
    refused("discipline = \"codel\"", "discipline");
}
