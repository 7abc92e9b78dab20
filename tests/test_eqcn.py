"""E-QCN end to end on a star with two equally congested receiver queues (Mliki et al. 2016b Fig. 1 shape)."""

import cnsim

STAR = """
[simulation]
duration = "1.5s"
measure_from = "0.5s"
[defaults]
link = { rate = "1Gbps", delay = "1us" }
[cp.qcn]
qeq = "25 frames"
sampling = "every-frame"
[[switch]]
names = "SW"
[[host]]
names = ["S1..S6", "R1", "R2"]
[[link]]
between = ["S1..S6", "SW"]
[[link]]
between = ["SW", ["R1", "R2"]]
[[group]]
name = "G"
members = ["R1", "R2"]
[[flow]]
from = "S1..S6"
to = "G"
traffic = { kind = "cbr", rate = "200Mbps" }
rp = { qcn = {} }
"""


def run(protocol: str, **sets):
    return cnsim.run(STAR, set={"flow.0.rp": f"{{ {protocol} = {{}} }}", **sets}, figures=False, progress=False)


def cnms_by_queue(res):
    return {q["name"]: q["feedback_sent"] for q in res.stats["queues"] if q["name"] in ("SW>R1", "SW>R2")}


def test_eqcn_cuts_feedback_of_symmetric_queues():
    qcn, eqcn = run("qcn"), run("eqcn")
    q, e = cnms_by_queue(qcn), cnms_by_queue(eqcn)
    # Plain QCN: both symmetric queues notify every source.
    assert min(q.values()) > 0.5 * max(q.values())
    # E-QCN: the CPID tie-break leaves one representative per source at a time, so the total
    # feedback falls well below QCN's.
    assert sum(e.values()) < 0.75 * sum(q.values())
    assert all(rp["protocol"] == "eqcn" for rp in eqcn.stats["rps"])


def test_cpid_tie_break_picks_one_of_two_symmetric_queues():
    # Without the tie-break two queues with equal |Fb| are both representative and share the
    # feedback evenly; with it, the queue the RP selected does most of the notifying.
    tied = cnms_by_queue(run("eqcn", **{"cp.qcn.eqcn_tie_break": "false"}))
    broken = cnms_by_queue(run("eqcn"))
    assert min(tied.values()) > 0.8 * max(tied.values())
    assert min(broken.values()) < 0.5 * max(broken.values())
