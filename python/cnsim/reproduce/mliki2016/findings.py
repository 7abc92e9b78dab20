"""The findings prose of the Mliki et al. 2016a/b reports: the mechanisms behind the differences
from the papers, with every number computed from the report's runs (`df`: the whole results
table), from the scenario's stated parameters or from the paper's values."""

from __future__ import annotations

import tomllib
from functools import cache

import pandas as pd

from ... import _core
from ...analysis import parse_rate
from .. import compare, prose
from ..paper import scenario_file
from .papers import LOADED, DUMBBELL, EQCN, EQCN_ML_REDUCTION, MC, MU, QCN, QCN_ML_FEEDBACK, STAR, gain
from .sensitivity import TABLE
from .spec import BASELINE, QEQS, samples, view

QNTZ_BITS = 6   # QntzFb is a 6-bit field (802.1Qau; Mliki et al. 2016a §2.1): its largest value is 2⁶ − 1


@cache
def _scenario(path: str) -> dict:
    """The resolved scenario (every default filled in): the stated parameters the prose computes with."""
    text = scenario_file(path).read_text(encoding="utf-8")
    return tomllib.loads(_core.check(text, path, []))


def _bytes(text: str) -> float:
    return float(str(text).removesuffix("B"))


def _dumbbell() -> dict:
    """The dumbbell's stated parameters: source rate and link rate (Mb/s), frame and per-frame
    overhead (B), the sampling table's base interval (B), QntzFb's maximum."""
    d = _scenario(DUMBBELL.variants[MC][0])
    flow = d["flow"][0]
    return {"source": parse_rate(flow["traffic"]["rate"]) / 1e6, "link": parse_rate(d["defaults"]["link"]["rate"]) / 1e6,
            "frame": _bytes(flow["traffic"]["frame"]), "overhead": _bytes(d["defaults"]["link"]["overhead"]),
            "base": _bytes(d["cp"]["qcn"]["sample_base"]), "qmax": 2 ** QNTZ_BITS - 1}


def _pooled(df, topo: str, variant: str, metric: str, part: str = "all") -> str:
    """The interval over every seed and Qeq."""
    return compare.interval([v for q in QEQS for v in samples(df, topo, variant, metric, q, part)]).show()


def _at(df, topo: str, variant: str, metric: str, q: int) -> str:
    return compare.interval(samples(df, topo, variant, metric, q)).show()


def _paper(values) -> str:
    return " / ".join(compare.num(v) for v in values if v is not None)


def legacy(df: pd.DataFrame) -> list[str]:
    base, table = view(df, BASELINE), view(df, TABLE)
    n = lambda x: compare.num(x)  # noqa: E731
    k = _dumbbell()
    SOURCE_MBPS, LINK_MBPS, FRAME_B, OVERHEAD_B = k["source"], k["link"], k["frame"], k["overhead"]
    SAMPLE_BASE_B, QNTZ_MAX = k["base"], k["qmax"]
    wire = 5 * SOURCE_MBPS * (FRAME_B + OVERHEAD_B) / FRAME_B
    lines = [prose.text("## Findings and reasons for differences ({paper})", paper=prose.ref("Mliki et al. 2016a")), "",
             "Read these next to the tables above; they explain the mechanisms, the tables give the numbers.", "",
             "- " + prose.text(
                 "**Onset of congestion.** Multicast: the first CNM arrives at {mc} s (every seed and Qeq), when the "
                 "fifth source starts: five sources of {rate} Mb/s in {frame}-B frames plus {ovh} B of preamble and "
                 "inter-frame gap per frame are {wire} Mb/s on the wire, just above the {link} Mb/s link — the "
                 "paper's \"after the first {p_mc} s\". Multiple unicast: the first CNM arrives at {mu} s: with two "
                 "copies per source the third source already offers {mu_load} Mb/s to the {link_name} link, "
                 "so the paper's {p_mu} s does not follow from its own stated parameters.",
                 mc=_pooled(base, "dumbbell", MC, "first_cnm_s"), rate=n(SOURCE_MBPS), frame=n(FRAME_B),
                 ovh=n(OVERHEAD_B), wire=n(wire), link=n(LINK_MBPS), p_mc=n(DUMBBELL.paper[("first_cnm_s", MC)][0]),
                 mu=_pooled(base, "dumbbell", MU, "first_cnm_s"), mu_load=n(3 * 2 * SOURCE_MBPS), link_name=prose.ref("Switch1→Switch2"),
                 p_mu=n(DUMBBELL.paper[("first_cnm_s", MU)][0])),
             "- " + prose.text(
                 "**Multiple-unicast feedback** (the paper: {p_fb} % at Qeq {qeqs}). With every frame evaluated "
                 "cnsim's CPs send CNMs for {fb25} % of the frames sent at Qeq {q25} and {fb75} % at Qeq {q75}. The "
                 "hypotheses section tests what else the paper may have counted; none gives the paper's high values "
                 "at the low Qeq together with its low value at the highest: paced sources keep the queue near Qeq "
                 "whatever the variant, and a source that is not slowed (no RP) makes every frame a CNM at every Qeq. "
                 "What the paper counted remains open.",
                 p_fb=_paper(DUMBBELL.paper[("feedback_rate_pct", MU)]), qeqs=" / ".join(map(str, QEQS)),
                 fb25=_at(base, "dumbbell", MU, "feedback_rate_pct", QEQS[0]), q25=QEQS[0],
                 fb75=_at(base, "dumbbell", MU, "feedback_rate_pct", QEQS[-1]), q75=QEQS[-1]),
             "- " + prose.text(
                 "**Loss.** The paper's loss rates ({p_mc} % multicast, {p_mu} % multiple unicast) compare with cnsim's "
                 "switch loss: {l_mc} % multicast and {l_mu} % multiple unicast with every frame evaluated (every "
                 "seed and Qeq). The excess offered load is lost at the sources instead: total loss {t_mc} % "
                 "multicast and {t_mu} % multiple unicast, because sessions settle near the link's fair share, far "
                 "below the rate the application offers, and the rate limiters' buffers overflow.",
                 p_mc=_paper(DUMBBELL.paper[("loss_rate_pct", MC)]), p_mu=_paper(DUMBBELL.paper[("loss_rate_pct", MU)]),
                 l_mc=_pooled(base, "dumbbell", MC, "loss_rate_pct"), l_mu=_pooled(base, "dumbbell", MU, "loss_rate_pct"),
                 t_mc=_pooled(base, "dumbbell", MC, "total_loss_pct"),
                 t_mu=_pooled(base, "dumbbell", MU, "total_loss_pct"))]
    if "multilink" in set(base.topology):
        lines.append("- " + prose.text(
            "**Multi-link topology** ({s36}). Switch loss there is {l_mc} % multicast and {l_mu} % multiple unicast "
            "(every seed and Qeq), within the minimum effect's floor of {floor} points, so the loss claims of "
            "{s362} (the trend over Qeq, {g1}'s lower loss, {f23}) find no difference; the excess offered load is "
            "lost in the sources' rate limiters (total loss {t_mc} % and {t_mu} %). The feedback rate rises with Qeq "
            "(multicast {fb25} % at Qeq {q25}, {fb75} % at Qeq {q75}), against {s361}. {sw1}'s most loaded queue "
            "holds {s1} frames on average (multicast), so its deviation from Qeq is −Qeq whatever the scheme: the queue "
            "claims rest on the other switches ({loaded}), and {sw1}'s terms are shown as not testable there."
            + (" On the second reading of the topology ({g23} each behind one bottleneck of their own) {sw1}'s "
               "queue holds {s1b} frames on average (multicast), and {sw1}'s claims are decided on it."
               if "multilink2" in set(base.topology) else ""),
            s36=prose.ref("Mliki et al. 2016a §3.6"), l_mc=_pooled(base, "multilink", MC, "loss_rate_pct"),
            l_mu=_pooled(base, "multilink", MU, "loss_rate_pct"), floor=n(compare.FLOORS["%"]),
            s362=prose.ref("§3.6.2"), g1=prose.ref("G1"), f23=prose.ref("Fig. 23"),
            t_mc=_pooled(base, "multilink", MC, "total_loss_pct"), t_mu=_pooled(base, "multilink", MU, "total_loss_pct"),
            fb25=_at(base, "multilink", MC, "feedback_rate_pct", QEQS[0]), q25=QEQS[0],
            fb75=_at(base, "multilink", MC, "feedback_rate_pct", QEQS[-1]), q75=QEQS[-1], s361=prose.ref("§3.6.1"),
            sw1=prose.ref("Switch1"), loaded=prose.ref(" and ".join(LOADED)), s1=_pooled(base, "multilink", MC, "q_mean_frames", "Switch1"),
            g23=prose.ref("G2 and G3"), s1b=_pooled(base, "multilink2", MC, "q_mean_frames", "Switch1") if "multilink2" in set(base.topology) else None))
    if table is not None:
        lines.append("- " + prose.text(
            "**Standard sampling.** With the sampling table a CP samples at most once per {gap} B, so the feedback "
            "rate cannot exceed {cap} % of {frame}-B frames per CP: the paper's multiple-unicast values are out of "
            "reach by construction. Measured with the table: feedback {fb} % and switch loss {loss} % (multiple "
            "unicast, Qeq {q75}).",
            gap=n(SAMPLE_BASE_B / (1 + QNTZ_MAX // 8)), cap=n(100 * FRAME_B / (SAMPLE_BASE_B / (1 + QNTZ_MAX // 8))),
            frame=n(FRAME_B), fb=_at(table, "dumbbell", MU, "feedback_rate_pct", QEQS[-1]),
            loss=_at(table, "dumbbell", MU, "loss_rate_pct", QEQS[-1]), q75=QEQS[-1]))
    return lines + [""]


def _reduction(df, topo: str, q: int) -> compare.Interval:
    """E-QCN's feedback reduction against QCN, %, paired by seed."""
    sel = df[(df.topology == topo) & (df.qeq == q) & (df.part == "all") & (df.metric == "feedback_rate_pct")]
    e = dict(zip(sel[sel.variant == EQCN].seed, sel[sel.variant == EQCN].value))
    b = dict(zip(sel[sel.variant == QCN].seed, sel[sel.variant == QCN].value))
    return compare.interval([(1 - e[k] / b[k]) * 100 for k in e if k in b and b[k]])


def _direction(iv: compare.Interval) -> str:
    """What a reduction interval shows: fewer CNMs, more, or no difference shown."""
    if iv.mean is None or iv.n < compare.MIN_SEEDS:
        return "no interval"
    return ("E-QCN sends fewer CNMs than QCN" if iv.low > 0 else "E-QCN sends MORE CNMs than QCN" if iv.high < 0
            else "no difference is shown")


def enhanced(df: pd.DataFrame) -> list[str]:
    base = view(df, BASELINE)
    p_red = [(1 - e / q) * 100 for e, q in zip(STAR.paper[("feedback_rate_pct", EQCN)], STAR.paper[("feedback_rate_pct", QCN)])]
    star, ml = _reduction(base, "star", QEQS[0]), _reduction(base, "multilink", QEQS[0])
    return [prose.text("## Findings and reasons for differences ({paper})", paper=prose.ref("Mliki et al. 2016b")), "",
            "- " + prose.text(
                "**Feedback reduction.** E-QCN's representative test with the CPID tie-break lets an RP act on one "
                "CP's feedback where QCN acts on every CP's; whether that sends fewer CNMs is measured, not assumed. "
                "cnsim's reduction at Qeq {q} (paired by seed): {star} % on the star ({d_star}) and {ml} % on the "
                "multi-link topology ({d_ml}); the paper's: {p_star} % on the star (derived from its {s_star} values) "
                "and {p_ml} % on the multi-link topology ({s_ml}). Where E-QCN sends more, the representative selection "
                "does not reduce the feedback in cnsim: these runs do not establish why (the F̂b ratchet below is one "
                "candidate: sources that are cut less keep the queues above Qeq, and every frame above Qeq may "
                "draw a CNM).",
                q=QEQS[0], star=star.show(), ml=ml.show(), d_star=_direction(star), d_ml=_direction(ml),
                p_star=_paper(p_red), p_ml=_paper([100 * r for r in EQCN_ML_REDUCTION]), s_star=prose.ref("§4.2"),
                s_ml=prose.ref("§4.6.1")),
            "- " + prose.text(
                "**Low Qeq ({s44}).** At Qeq {q} E-QCN's mean queue on the star deviates {dev} frames from Qeq "
                "(QCN: {devq}), the deviation the paper's \"control congestion properly in the case of low Qeq\" is "
                "tested on. Where E-QCN's queue rests above Qeq the cause is the ratchet below: CPs notify its RPs less "
                "(feedback {fb} % against QCN's {fbq} %), so the sources stay above the share the queue can drain.",
                s44=prose.ref("§4.4"), q=QEQS[0], dev=_at(base, "star", EQCN, "q_dev_from_qeq_frames", QEQS[0]),
                devq=_at(base, "star", QCN, "q_dev_from_qeq_frames", QEQS[0]),
                fb=_at(base, "star", EQCN, "feedback_rate_pct", QEQS[0]), fbq=_at(base, "star", QCN, "feedback_rate_pct", QEQS[0])),
            "- " + prose.text(
                "**The F̂b ratchet.** {alg} lets F̂b only grow until it reaches {top}. Once an RP has saved a "
                "large F̂b from one CP, another CP whose |Fb| stays below that value never notifies it — even with its "
                "queue full and dropping — and a steadily full queue has a small |Fb|. On the multi-link topology, "
                "where sources meet two CPs in turn, this is how E-QCN can lose more than QCN at low Qeq: switch loss "
                "at Qeq {q}: E-QCN {le} %, QCN {lq} %. The documented alternatives (`rp.eqcn.decrease = \"received\"`, "
                "`cp.qcn.eqcn_tie_break = false`) do not change the ratchet, which is in {alg} as published.",
                alg=prose.ref("Algorithm 1"), top=2 ** QNTZ_BITS - 1, q=QEQS[0], le=_at(base, "multilink", EQCN, "loss_rate_pct", QEQS[0]),
                lq=_at(base, "multilink", QCN, "loss_rate_pct", QEQS[0])),
            "- " + prose.text(
                "**Multi-link feedback** (the paper: {p} % for QCN at Qeq {qeqs}). With paced sources cnsim's multi-link "
                "CPs send CNMs for {fb} % of the frames (QCN, every seed and Qeq); the hypotheses section tests what "
                "else the paper may have counted.",
                p=_paper(QCN_ML_FEEDBACK), qeqs=" / ".join(map(str, QEQS)),
                fb=_pooled(base, "multilink", QCN, "feedback_rate_pct")),
            "- " + prose.text(
                "**Average rate.** E-QCN's gain over QCN at Qeq {q} on the star (paired by seed): {cr} % on the mean "
                "session CR while its limiter is in place ({share} of the window, E-QCN), {cr_all} % on every sample "
                "(a released limiter counts as the line rate, which no source sends at), and {thr} % on the mean "
                "throughput: the link is saturated, so the throughput of the two schemes cannot differ.",
                q=QEQS[0], cr=compare.interval(gain("cr_active_mean_mbps")(base)).show(),
                share=_at(base, "star", EQCN, "cr_active_share", QEQS[0]),
                cr_all=compare.interval(gain("cr_mean_mbps")(base)).show(),
                thr=compare.interval(gain("throughput_mean_mbps")(base)).show()),
            ""]
