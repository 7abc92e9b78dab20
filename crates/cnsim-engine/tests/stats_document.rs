//! The statistics document's text, written one table entry at a time (`Sim::stats_json`), is the
//! text of the document made whole (`Sim::stats`): same keys, same order, same numbers.

use std::path::Path;

fn same_text(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sim = cnsim_engine::simulation(&text, file, &[], None).unwrap_or_else(|e| panic!("{e}"));
    sim.run_until(sim.duration.min(2_000_000_000), 0); // 2 ms: counters, queues and flows move
    let whole = sim.stats();
    for table in ["flows", "queues"] {
        assert!(whole[table].as_array().is_some_and(|a| !a.is_empty()), "{file}: no {table}");
    }
    assert_eq!(sim.stats_json(), whole.to_string(), "{file}");
}

#[test]
fn the_streamed_document_is_the_whole_documents_text_with_flow_control_and_reaction_points() {
    same_text("dcqcn2015/fixed-point-n4.toml"); // PFC (a ports table), DCQCN's reaction points (rps)
    same_text("examples/pfc-isolation.toml");
    same_text("examples/websearch-fattree.toml"); // transfers (their FCT)
}

#[test]
fn the_streamed_document_is_the_whole_documents_text_with_transports_and_groups() {
    same_text("examples/dctcp-two-flows.toml");
    same_text("examples/bernoulli-multicast.toml");
    same_text("examples/unicast-qcn.toml");
}
