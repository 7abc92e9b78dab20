//! The transport slot's scenario keys: `transport = { NAME = {…} }` with the application kinds
//! `bulk`, `transactions` and `transfer` runs exactly what the older TCP spellings (`tcp-bulk`,
//! `tcp-transactions`, `tcp-transfer`, a flow's or workload's `tcp` table) run, and mistakes are refused.

use cnsim_engine::bench::{scenario_case, Case};
use serde_json::Value;

fn stats(text: &str) -> Value {
    let mut sim = cnsim_engine::simulation(text, "t.toml", &[], None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    sim.run_until(sim.duration, 0);
    sim.stats()
}

fn refused(text: &str) -> String {
    match cnsim_engine::simulation(text, "t.toml", &[], None) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// The benchmark's TCP case (four bulk TCP sources into one port), its traffic lines replaced.
fn with_traffic(lines: &str) -> String {
    let tcp = Case::parse("tcp").expect("TCP's benchmark case");
    scenario_case(tcp, 4, true, 0.002).replace("traffic = { kind = \"bulk\" }\ntransport = { tcp = { max_rto = \"1ms\" } }", lines)
}

#[test]
fn bulk_over_the_tcp_transport_is_tcp_bulk() {
    let old = stats(&with_traffic("traffic = { kind = \"tcp-bulk\" }\ntcp = { max_rto = \"1ms\" }"));
    assert!(old["frames"]["ack_sent"].as_u64().unwrap() > 1000);
    for new in [
        "traffic = { kind = \"bulk\" }\ntransport = { tcp = { max_rto = \"1ms\" } }",
        "traffic = { kind = \"tcp-bulk\" }\ntransport = { tcp = { max_rto = \"1ms\" } }",
    ] {
        assert_eq!(stats(&with_traffic(new)), old, "{new}");
    }
}

#[test]
fn transactions_and_transfers_over_the_tcp_transport_are_the_tcp_kinds() {
    let pairs = [
        ("kind = \"tcp-transactions\", size = \"20kB\", idle = \"10us\"", "kind = \"transactions\", size = \"20kB\", idle = \"10us\""),
        ("kind = \"tcp-transfer\", size = \"200kB\"", "kind = \"transfer\", size = \"200kB\""),
    ];
    for (old, new) in pairs {
        let a = stats(&with_traffic(&format!("traffic = {{ {old} }}")));
        let b = stats(&with_traffic(&format!("traffic = {{ {new} }}\ntransport = {{ tcp = {{}} }}")));
        assert_eq!(a, b, "{new}");
        assert!(a["frames"]["ack_sent"].as_u64().unwrap() > 10);
    }
}

#[test]
fn a_transport_needs_a_closed_loop_kind_and_is_given_once() {
    let e = refused(&with_traffic("traffic = { kind = \"bulk\" }"));
    assert!(e.contains("needs a transport"), "{e}");
    let e = refused(&with_traffic("traffic = { kind = \"cbr\", rate = \"1Gbps\" }\ntransport = { tcp = {} }"));
    assert!(e.contains("a transport is for bulk, transactions and transfer traffic"), "{e}");
    let e = refused(&with_traffic("traffic = { kind = \"tcp-bulk\" }\ntcp = {}\ntransport = { tcp = {} }"));
    assert!(e.contains("give the transport once"), "{e}");
    let e = refused(&with_traffic("traffic = { kind = \"bulk\" }\ntransport = { tcp = { mss = \"0B\" } }"));
    assert!(e.contains("tcp.mss"), "{e}");
}

#[test]
fn the_older_spellings_are_refused_where_they_do_not_fit() {
    // an older key's table with traffic that does not name its transport
    let e = refused(&with_traffic("traffic = { kind = \"bulk\" }\ntcp = {}"));
    assert!(e.contains("a `tcp` table needs tcp-bulk, tcp-transactions or tcp-transfer traffic"), "{e}");
    // an older kind over another transport
    let e = refused(&with_traffic("traffic = { kind = \"tcp-bulk\" }\ntransport = { timely = {} }"));
    assert!(e.contains("tcp-bulk, tcp-transactions and tcp-transfer traffic is TCP's"), "{e}");
    // a kind that is no spelling at all: the message lists them, the older ones included
    let e = refused(&with_traffic("traffic = { kind = \"udp-bulk\" }"));
    assert!(e.contains("udp-bulk") && e.contains("`tcp-transfer`") && e.contains("`cbr`"), "{e}");
}

#[test]
fn a_scenario_written_with_the_older_spellings_is_written_back_with_them() {
    let text = with_traffic("traffic = { kind = \"tcp-transactions\", size = \"20kB\", idle = \"10us\" }\ntcp = { max_rto = \"2ms\" }");
    let loaded = cnsim_engine::scenario::load(&text, "t.toml", &[], None).unwrap_or_else(|e| panic!("{e}"));
    let resolved = loaded.resolved_toml();
    assert!(resolved.contains("kind = \"tcp-transactions\""), "{resolved}");
    assert!(resolved.contains("[flow.tcp]") || resolved.contains("tcp = {"), "{resolved}");
}
