"""DCQCN end to end (protocols/dcqcn): N long-lived flows through one marking switch settle at the
fixed point of DCQCN's fluid model; the NP paces its CNPs; only ECN-capable frames are marked.

The reference: the fluid model of Zhu et al., "Congestion Control for Large-Scale RDMA
Deployments", SIGCOMM 2015, §5, restated by Zhu, Ghobadi, Misra & Padhye, "ECN or Delay", CoNEXT
2016, §3, whose fixed point (RC* = C/N and the marking probability p* that balances cuts and
increases, hence the queue q* on the RED-ECN curve) reproduce/dcqcn2015/fluid.py computes for the
shipped scenarios' parameters (claims.PINNED: C = 39.2 Gb/s of 1000-B frames). Every shipped N is
run. Where the fixed point lies on the marking ramp (N = 2, 4, 8) the mean queue over seeds is held
within ±20 % of q* (compare.REL_TOL): an engine regression band, not a claim's tolerance (the
claims' tolerances are in claims.py). At N = 16 the model's p* exceeds Pmax, its fixed point sits on
the step at Kmax, and the packet system is not at a fixed point: its queue stays low on the ramp and
the bottleneck idles a few per cent of the time (the report explains it).
"""

import numpy as np
import pytest

import cnsim
from cnsim.reproduce import compare
from cnsim.reproduce.dcqcn2015 import claims, experiment
from cnsim.reproduce.paper import scenario_file

SEEDS = (1, 2, 3)
SHORT = {"simulation.duration": "60ms", "simulation.measure_from": "20ms"}
TOL = compare.REL_TOL


def run(n, seed, **more):
    return cnsim.run(scenario_file(f"scenarios/dcqcn2015/fixed-point-n{n}.toml"), set={**SHORT, **more}, seed=seed,
                     progress=False, figures=False)


def bottleneck(res):
    return {q["name"]: q for q in res.stats["queues"]}["SW>R"]


@pytest.mark.parametrize("n", experiment.FLOWS)
def test_queue_and_rates_against_the_fluid_fixed_point(n):
    fp = claims.model(n)
    runs = [run(n, s) for s in SEEDS]
    frame = runs[0].stats["frame_size_bytes"]
    q = np.mean([bottleneck(r)["q_mean_frames"] * frame for r in runs])
    util = np.mean([bottleneck(r)["busy_s_window"] / r.stats["time"]["window_s"] for r in runs])
    par = claims.PINNED
    assert par.kmin_bytes < q < par.kmax_bytes, f"N = {n}: the mean queue {q:.0f} B is on the marking ramp"
    if fp["on_kmax_step"]:
        assert n == 16
        assert q < par.kmax_bytes / 2 and util < 0.99, f"N = {n}: queue {q:.0f} B, utilisation {util:.3f}"
    else:
        assert abs(q - fp["q_bytes"]) <= TOL * fp["q_bytes"], f"N = {n}: queue {q:.0f} B vs q* {fp['q_bytes']:.0f} B"
        assert util > 0.98, f"N = {n}: the bottleneck stays busy ({util:.3f})"
    fair = claims.C_FRAMES_BPS / n
    for r in runs:
        assert len(r.stats["flows"]) == n
        assert bottleneck(r)["drops_window"] == 0, "lossless: the marking acts long before the buffer fills"
    mean_rates = np.mean([[sum(x["throughput_bps"] for x in f["receivers"]) for f in r.stats["flows"]] for r in runs], axis=0)
    assert all(abs(x - fair) <= TOL * fair for x in mean_rates), f"rates {mean_rates / 1e9} Gb/s vs C/N {fair / 1e9} Gb/s"
    assert mean_rates.sum() <= claims.C_FRAMES_BPS * 1.001, "no more than the frames' capacity, 39.2 Gb/s"


def test_the_np_sends_at_most_one_cnp_per_interval_and_the_rp_reads_them():
    """Every ECN-capable frame that finds a queue is marked (Kmin = Kmax = 0, Pmax = 1): the NPs
    answer some marks, never more than one CNP per 50-µs window (the scenario's pacing; the exact
    rule is unit-tested in protocols/dcqcn/np.rs), and each source's RP receives every CNP its
    receiver sent (nothing is lost on the way back)."""
    res = run(2, 1, **{"defaults.queue.dcqcn": '{ kmin = "0B", kmax = "0B", pmax = 1.0 }', "simulation.duration": "10ms", "simulation.measure_from": "1ms"})
    duration_s, interval_s = 10e-3, 50e-6
    rps = {r["flow"]: r for r in res.stats["rps"]}
    for f in res.stats["flows"]:
        (rx,) = f["receivers"]
        assert rx["dcqcn_cnps_sent"] <= duration_s / interval_s + 1
        assert 0 < rx["dcqcn_cnps_sent"] <= rx["dcqcn_ce_frames"]
        assert rps[f["name"]]["feedback_received"] == rx["dcqcn_cnps_sent"]


def test_only_ecn_capable_frames_are_marked():
    """Flows without DCQCN's RP send Not-ECT frames: a queue that marks every frame finding a queue
    leaves them unmarked, and their receivers have no NP; DCQCN's flows through it are marked."""
    always = {"defaults.queue.dcqcn": '{ kmin = "0B", kmax = "0B", pmax = 1.0 }', "simulation.duration": "5ms",
              "simulation.measure_from": "1ms"}
    plain = run(2, 1, **always, **{"flow.0.rp": '"none"'})
    assert bottleneck(plain)["dcqcn_marks"] == 0 < bottleneck(plain)["dcqcn_arrivals"]
    assert all("dcqcn_cnps_sent" not in rx for f in plain.stats["flows"] for rx in f["receivers"])
    marked = run(2, 1, **always)
    assert 0 < bottleneck(marked)["dcqcn_marks"] <= bottleneck(marked)["dcqcn_arrivals"]


def test_cnps_are_counted_and_traced_as_cnps_at_the_np_and_at_the_rp():
    """DCQCN's feedback is counted and traced in its own words: `cnp_sent` at the receivers' NPs,
    `cnp_received` at the sources' RPs, no QCN counter, and the generic feedback counters agree."""
    res = cnsim.run(scenario_file("scenarios/dcqcn2015/fixed-point-n2.toml"), progress=False, figures=False,
                    set={"simulation.duration": "5ms", "simulation.measure_from": "1ms"}, trace="cnp_sent,cnp_received")
    frames, window = res.stats["frames"], res.stats["window"]
    assert "cnm_sent" not in frames and "cnm_received" not in frames
    assert frames["cnp_sent"] == frames["feedback_sent"] == sum(f["receivers"][0]["dcqcn_cnps_sent"] for f in res.stats["flows"]) > 0
    assert frames["cnp_received"] == frames["feedback_delivered"] == sum(r["feedback_received"] for r in res.stats["rps"])
    assert (window["cnp_sent"], window["cnp_received"]) == (window["feedback_sent"], window["feedback_delivered"])
    t = res.trace
    sent, received = t[t["kind"] == "cnp_sent"], t[t["kind"] == "cnp_received"]
    assert len(sent) == frames["cnp_sent"] and len(received) == frames["cnp_received"]
    hosts = {f["name"]: (f["source"], f["receivers"][0]["host"]) for f in res.stats["flows"]}
    assert all(hosts[f][1] == n for f, n in zip(sent["flow"], sent["node"]))  # at the receiver (its NP)
    assert all(hosts[f][0] == n for f, n in zip(received["flow"], received["node"]))  # at the source (its RP)
    assert sent["port"].isna().all() and received["port"].isna().all()
