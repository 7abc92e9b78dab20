"""pcap export and the event trace: tshark decodes a cnsim capture with the
shipped Lua dissector, and every decoded CNM and PAUSE agrees with the run's own trace.

tshark comes from the system's packages (optional; .ci/run installs it); without it the
decoding tests are skipped with that reason.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cnsim
from cnsim.capture import dissector_path, select

ROOT = Path(__file__).resolve().parents[1]
DUMBBELL = ROOT / "python/cnsim/scenarios/mliki2016/dumbbell-multicast.toml"
INCAST = ROOT / "python/cnsim/scenarios/examples/incast-pause.toml"
# Mliki et al. 2016a's dumbbell with every source on from t = 0, for 30 ms: the bottleneck is congested
# (6 × 200 Mb/s into 1 Gb/s) and QCN sends a few hundred CNMs.
SHORT = {"simulation.duration": "30ms", "simulation.measure_from": "0s",
         "flow.0.start": '["0s", "0s", "0s", "0s", "0s", "0s"]'}

TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (optional: apt-get install tshark; .ci/run installs it)")


def tshark(pcap: Path, display: str, fields: list[str]) -> pd.DataFrame:
    cmd = [TSHARK, "-n", "-X", f"lua_script:{dissector_path()}", "-r", str(pcap), "-Y", display, "-T", "fields",
           "-E", "separator=\t", *[a for f in ["frame.interface_name", *fields] for a in ("-e", f)]]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if line]
    return pd.DataFrame(rows, columns=["iface", *fields])


@needs_tshark
def test_tshark_decodes_every_cnm_as_the_trace_records_it(tmp_path):
    out = tmp_path / "run"
    result = cnsim.run(DUMBBELL, set=SHORT, out=out, figures=False, pcap="kind=cnm", trace="cnm_sent,cnm_received")
    trace = pd.read_parquet(out / "trace.parquet")
    sent = trace[trace["kind"] == "cnm_sent"]
    received = trace[trace["kind"] == "cnm_received"]
    assert len(sent) == result.stats["frames"]["cnm_sent"] > 50
    assert len(received) == result.stats["frames"]["cnm_received"]
    decoded = tshark(out / "capture.pcapng", "cnsim_cnm", ["cnsim_cnm.qntzfb", "cnsim_cnm.cpid", "eth.dst"])
    # Every CNM crosses exactly one link into its source host ("Switch1>Sk"): in order, the CNMs
    # on that link are those the trace saw arrive at Sk.
    last_hop = decoded[decoded["iface"].str.match(r"Switch1>S\d$")]
    assert len(last_hop) == len(received)
    for host, rows in received.groupby("node", observed=True):
        got = last_hop[last_hop["iface"] == f"Switch1>{host}"]
        assert [int(v) for v in got["cnsim_cnm.qntzfb"]] == rows["qntz_fb"].tolist()
        assert [int(v, 16) for v in got["cnsim_cnm.cpid"]] == rows["cpid"].tolist()
    # The QntzFb of each CNM sent is 1..63 and its CPID names the CP's switch and port.
    assert sent["qntz_fb"].between(1, 63).all()
    cp_ports = {p for p in sent["port"].unique()}
    cpids = {int(v, 16) for v in decoded["cnsim_cnm.cpid"]}
    assert cpids == set(sent["cpid"].astype("uint64")) and cp_ports


@needs_tshark
def test_tshark_decodes_pause_quanta_as_sent(tmp_path):
    out = tmp_path / "run"
    cnsim.run(INCAST, out=out, figures=False, pcap="kind=pause", trace="pause_sent")
    trace = pd.read_parquet(out / "trace.parquet")
    assert (trace["kind"] == "pause_sent").sum() > 2
    assert set(trace["quanta"]) >= {0, 0xFFFF}  # XOFF and XON both sent
    decoded = tshark(out / "capture.pcapng", "macc", ["macc.opcode", "macc.pause_time"])
    assert set(decoded["macc.opcode"]) == {"0x0001"}
    for port, rows in trace.groupby("port", observed=True):
        got = decoded[decoded["iface"] == port]["macc.pause_time"].astype(int).tolist()
        assert got == rows["quanta"].tolist()[: len(got)] and len(got) >= len(rows) - 1


@needs_tshark
def test_data_frames_decode_with_cn_tag_and_wire_length(tmp_path):
    out = tmp_path / "run"
    cnsim.run(DUMBBELL, set={**SHORT, "simulation.duration": "2ms"}, out=out, figures=False,
              pcap="kind=data port=Switch1>Switch2")
    decoded = tshark(out / "capture.pcapng", "cnsim.subtype == 1",
                     ["frame.len", "frame.cap_len", "cnsim_cntag.flow_id", "cnsim.flow"])
    assert len(decoded) > 100 and set(decoded["iface"]) == {"Switch1>Switch2"}
    assert set(decoded["frame.len"]) == {"1500"}  # on the wire; the capture keeps the headers
    assert (decoded["cnsim_cntag.flow_id"] == decoded["cnsim.flow"]).all()


def test_capture_filter_errors_name_the_clause():
    ports = ["SW>H1", "SW>D", "H1>SW", "D>SW"]
    assert select("", ports)[0] == [0, 1, 2, 3]
    assert select("node=SW", ports)[0] == [0, 1]
    assert select("port=*>SW kind=pause", ports) == ([2, 3], 8)
    assert select("kind=cnp,cnm", ports)[1] == 128 | 2  # past the 8th bit's room: the mask is 16 bits
    with pytest.raises(ValueError, match="node='X'.*matches no node"):
        select("node=X", ports)
    with pytest.raises(ValueError, match="kind='cnms'"):
        select("kind=cnms", ports)
    with pytest.raises(ValueError, match="'speed=1'"):
        select("speed=1", ports)


def test_capture_bound_stops_cleanly_and_says_so(tmp_path):
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "cnsim", "run", str(DUMBBELL), "-o", str(out), "--no-figures", "-q",
                        *[a for k, v in SHORT.items() for a in ("--set", f"{k}={v}")],
                        "--pcap=kind=data", "--pcap-max-mb", "0.05"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "capture stopped at t = " in r.stderr and "size bound reached" in r.stderr
    size = (out / "capture.pcapng").stat().st_size
    assert 40_000 < size < 52_000  # the bound (50 kB of packets) plus the file's headers


def test_trace_kinds_and_columns():
    r = cnsim.run(INCAST, set={"flow_control": '"none"'}, trace="drop,cnm_sent")
    t = r.trace
    assert set(t["kind"].unique()) == {"drop"}  # no CP in this scenario
    assert (t["reason"] == "queue_full").all() and len(t) == r.stats["frames"]["data_dropped"]
    assert (t["port"] == "SW>D").all() and t["t_s"].is_monotonic_increasing
    with pytest.raises(ValueError, match="unknown event kind"):
        cnsim.run(INCAST, trace="cnm")


def test_taps_off_leave_results_unchanged():
    base = cnsim.run(DUMBBELL, set={**SHORT, "simulation.duration": "5ms"})
    tapped = cnsim.run(DUMBBELL, set={**SHORT, "simulation.duration": "5ms"}, pcap=True, trace="all")
    assert json.dumps(base.stats, sort_keys=True) == json.dumps(tapped.stats, sort_keys=True)
    assert base.capture is None and base.trace is None and len(tapped.capture) > 0


def test_wireshark_plugin_command_prints_the_dissector():
    r = subprocess.run([sys.executable, "-m", "cnsim", "wireshark-plugin"], capture_output=True, text=True, check=True)
    path = Path(r.stdout.strip())
    assert path.name == "cnsim.lua" and "0x22E7" in path.read_text()


def test_trace_follows_eqcn_representatives_and_limiters():
    from test_eqcn import STAR

    r = cnsim.run(STAR, set={"flow.0.rp": "{ eqcn = {} }", "simulation.duration": "0.1s", "simulation.measure_from": "0s"},
                  trace="cnm_received,representative,limiter_created,limiter_released")
    t = r.trace
    received, rep = t[t["kind"] == "cnm_received"], t[t["kind"] == "representative"]
    created = t[t["kind"] == "limiter_created"]
    assert len(rep) > 0 and len(created) == sum(rp["limiters_created"] for rp in r.stats["rps"])
    assert (created["rate_bps"] > 0).all()
    # A representative is the CP of a CNM its flow received, or none (0) after a reset at 63.
    seen = set(zip(received["flow"], received["cpid"]))
    assert all(c == 0 or (f, c) in seen for f, c in zip(rep["flow"], rep["cpid"]))
    # Every flow's first representative change follows its first CNM.
    for flow, rows in rep.groupby("flow", observed=True):
        assert rows["t_s"].min() >= received[received["flow"] == flow]["t_s"].min()


def test_trace_records_every_limiter_drop_and_changes_no_count():
    # Limiter buffers of 4 frames overflow while QCN throttles: generations replayed lazily
    # behind a queued release must reach the trace one by one, as the counts see them.
    short = {**SHORT, "flow.0.limiter.buffer": "4"}
    traced, plain = cnsim.run(DUMBBELL, set=short, trace="drop"), cnsim.run(DUMBBELL, set=short)
    drops = traced.trace[traced.trace["reason"] == "limiter_buffer"]
    per_flow = drops.groupby("flow").size().to_dict()
    assert len(drops) == traced.stats["frames"]["data_source_dropped"] > 0
    assert per_flow == {f["name"]: f["source_dropped"] for f in traced.stats["flows"]}
    assert traced.stats["flows"] == plain.stats["flows"] and traced.stats["frames"] == plain.stats["frames"]


# Short real runs that together produce every trace kind: QCN's CNMs, limiters and limiter-buffer
# drops (buffer of 4 frames); PAUSE; BCN's messages; E-QCN's representatives and limiter releases.
TRACED_RUNS = [
    (DUMBBELL, {**SHORT, "simulation.duration": "10ms", "flow.0.limiter.buffer": "4"}),
    (INCAST, {}),
    (ROOT / "python/cnsim/scenarios/jiang2007/symmetric.toml", {"simulation.duration": "5ms", "simulation.measure_from": "0s"}),
    (ROOT / "python/cnsim/scenarios/roeck2007/oscillating-hotspot.toml",
     {"flow.0.rp": "{ eqcn = {} }", "simulation.duration": "20ms", "simulation.measure_from": "0s"}),
    (ROOT / "python/cnsim/scenarios/roeck2007/symmetric-latency.toml",
     {"cp": "{ ecm = {} }", "flow.0.rp": "{ ecm = {} }", "simulation.duration": "106ms", "simulation.measure_from": "100ms"}),
    (ROOT / "python/cnsim/scenarios/dcqcn2015/fixed-point-n2.toml", {"simulation.duration": "2ms", "simulation.measure_from": "0s"}),
]


def test_trace_fields_are_declared_by_the_engine_and_filled_as_declared(monkeypatch):
    from cnsim import trace as trace_mod

    declared = trace_mod.fields()
    names, _ = trace_mod.kinds()
    assert list(declared) == names
    assert all(name and col in ("a", "b", "c", "cpid", "x") and ty in trace_mod.TYPES
               for fields in declared.values() for name, col, ty in fields)
    raws = []
    real_frame = trace_mod.frame
    monkeypatch.setattr(trace_mod, "frame", lambda raw, *a: raws.append(raw) or real_frame(raw, *a))
    seen = set()
    for path, sets in TRACED_RUNS:
        t = cnsim.run(path, set=sets, trace="all").trace
        raw = raws[-1]
        cols = {k: np.frombuffer(raw[k], dt) for k, dt in
                (("kind", "<u2"), ("a", "<i8"), ("b", "<i8"), ("c", "<i8"), ("cpid", "<u8"), ("x", "<f8"))}
        assert list(t.columns) == ["t_s", "kind", "node", "port", "flow", *trace_mod.columns()]
        for i, kind in enumerate(names):
            engine_rows = cols["kind"] == 1 << i
            rows = t[t["kind"] == kind]
            assert len(rows) == engine_rows.sum()
            if not len(rows):
                continue
            seen.add(kind)
            filled = [name for name, _, _ in declared[kind]]
            # The declared fields are filled in every row, the other columns are null in every row.
            assert rows[filled].notna().all().all(), kind
            assert rows.drop(columns=["t_s", "kind", "node", "port", "flow", *filled]).isna().all().all(), kind
            # The engine leaves the columns it does not declare at their defaults: nothing is lost.
            used = {col for _, col, _ in declared[kind]}
            for col in {"a", "b", "c", "cpid"} - used:
                assert (cols[col][engine_rows] == 0).all(), (kind, col)
            if "x" not in used:
                x = cols["x"][engine_rows]
                assert ((x == 0) | np.isnan(x)).all(), kind
    assert seen == set(names)


def _doc_table(text: str) -> dict[str, set[str]]:
    """{kind: field names} of the markdown table in `text`: kinds in its first column, fields (in
    backquotes, parenthesised remarks skipped) in its last."""
    table = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] == "kind" or cells[0].startswith("-"):
            continue
        last = cells[-1]
        while re.search(r"\([^()]*\)", last):
            last = re.sub(r"\([^()]*\)", "", last)
        for kind in re.findall(r"[a-z_]+", cells[0]):
            table[kind] = set(re.findall(r"`([a-z_]+)`", last))
    return table


def test_the_trace_doc_table_matches_the_engines_declaration():
    from cnsim import trace as trace_mod

    declared = {kind: {name for name, _, _ in fields} for kind, fields in trace_mod.fields().items()}
    observing = (ROOT / "docs/observing.md").read_text().split("## Event trace", 1)[1].split("\n## ", 1)[0]
    assert _doc_table(observing) == declared


DCQCN_N2 = ROOT / "python/cnsim/scenarios/dcqcn2015/fixed-point-n2.toml"


def test_dcqcn_cnps_are_captured_as_rocev2(tmp_path):
    out = tmp_path / "run"
    r = cnsim.run(DCQCN_N2, set={"simulation.duration": "2ms", "simulation.measure_from": "0s"}, out=out,
                  figures=False, pcap="kind=cnp")
    c = r.capture
    flows = {f["name"]: i for i, f in enumerate(r.stats["flows"])}
    packets = [c.data[c.start[i]:c.start[i + 1]] for i in range(len(c))]
    # Every CNP crosses its two links (receiver → switch → source); nothing else is captured.
    assert len(packets) == 2 * r.stats["frames"]["cnp_sent"] > 0
    for p in packets:
        assert len(p) == 78
        assert p[12:14] == b"\x81\x00" and p[16:18] == b"\x08\x00"  # 802.1Q, IPv4
        assert p[18] == 0x45 and p[18 + 9] == 17  # IPv4, UDP
        assert int.from_bytes(p[20:22], "big") == 60
        assert int.from_bytes(p[40:42], "big") == 4791 and int.from_bytes(p[42:44], "big") == 40
        assert p[46] == 0x81 and p[48:50] == b"\xff\xff"  # BTH: CNP, default P_Key
        assert int.from_bytes(p[51:54], "big") in flows.values()  # destination QP = the flow
        assert p[58:] == bytes(20)
        # The source MAC is the NP's host, the destination the flow's source (02:C5 + node id).
        assert p[0:2] == p[6:8] == b"\x02\xc5" and p[0:6] != p[6:12]
    assert {int.from_bytes(p[51:54], "big") for p in packets} <= set(flows.values())
    if TSHARK:
        decoded = tshark(out / "capture.pcapng", "infiniband", ["infiniband.bth.opcode", "infiniband.bth.destqp", "udp.dstport"])
        assert len(decoded) == len(packets)
        assert set(decoded["infiniband.bth.opcode"]) == {"129"} and set(decoded["udp.dstport"]) == {"4791"}
        assert [int(v, 0) for v in decoded["infiniband.bth.destqp"]] == [int.from_bytes(p[51:54], "big") for p in packets]
        # named, not "Unknown OpCode (129)": cnsim.lua's post-dissector
        named = tshark(out / "capture.pcapng", "cnsim_cnp", ["_ws.col.Protocol", "_ws.col.Info", "cnsim_cnp.dest_qp"])
        assert len(named) == len(packets) and set(named["_ws.col.Protocol"]) == {"RoCEv2 CNP"}
        assert all(i.startswith("CNP (Congestion Notification Packet) to QP ") for i in named["_ws.col.Info"])
        assert list(named["cnsim_cnp.dest_qp"]) == list(decoded["infiniband.bth.destqp"].map(lambda v: str(int(v, 0))))
