"""The experiments of Mliki et al. 2016a (legacy QCN, multicast vs multiple unicast) and 2016b
(enhanced QCN for multicast), as specifications:

- `mliki2016-dumbbell`: Mliki et al. 2016a's dumbbell only (the README's main job; fast);
- `mliki2016-legacy`: Mliki et al. 2016a — dumbbell and multi-link topology, multicast vs multiple unicast;
- `mliki2016-enhanced`: Mliki et al. 2016b — star and multi-link topology, QCN vs E-QCN (multicast).

Paper numbers: Mliki et al. 2016a §3.1–3.3, 2016b §4.1–4.6 (docs/reproduction.md). Claims: each
paper's Table 1 and the statements of its text (2016a §3–4, 2016b §4), verbatim, with the comparison cnsim
makes to test it.
"""

from __future__ import annotations

import math

from .. import compare
from ..verdicts import PaperValue
from . import claims as c
from .spec import QEQS, Claim, Experiment, Topology, with_rp

MC, MU = "multicast", "multiple-unicast"
QCN, EQCN = "qcn", "eqcn"
DUMBBELL = Topology(
    "dumbbell", "Mliki et al. 2016a dumbbell (Fig. 2)",
    {MC: ("scenarios/mliki2016/dumbbell-multicast.toml", {}),
     MU: ("scenarios/mliki2016/dumbbell-multiple-unicast.toml", {})},
    paper={
        ("feedback_rate_pct", MC): (2.49, 3.35, 2.46),
        ("feedback_rate_pct", MU): (48.05, 44.49, 1.87),
        ("loss_rate_pct", MC): (0.0, 0.39, 16.09),
        ("loss_rate_pct", MU): (8.93, 8.20, 7.94),
        # "congestion occurs after the first 4 s" (multicast) / "after the first 3 s" (MU), §3.1
        ("first_cnm_s", MC): (4.0, 4.0, 4.0),
        ("first_cnm_s", MU): (3.0, 3.0, 3.0),
    },
    notes={("first_cnm_s", MC): "prose (§3.1 \"after the first 4 s\"); cnsim's ≈ 4 s rests on the 20-B wire overhead",
           ("first_cnm_s", MU): "prose (§3.1 \"after the first 3 s\")"},
    figs={"feedback_rate_pct": "Fig. 11", "loss_rate_pct": "Fig. 12", "first_cnm_s": "Figs. 3–10",
          "cr_std_mbps": "Fig. 13", "q_mean_frames": "Fig. 14", "q_dev_from_qeq_frames": "Fig. 15", "jain_cr": "Fig. 16"},
    cite="Mliki et al. 2016a",
)
MULTILINK_LEGACY = Topology(
    "multilink", "Mliki et al. 2016a multi-link topology (Fig. 17, reconstructed: docs/topologies.md)",
    {MC: ("scenarios/mliki2016/multilink-multicast.toml", {}),
     MU: ("scenarios/mliki2016/multilink-multiple-unicast.toml", {})},
    figs={"feedback_rate_pct": "Figs. 18–20", "loss_rate_pct": "Figs. 21–23", "q_dev_from_qeq_frames": "Figs. 24–26",
          "cr_std_mbps": "Figs. 27–29", "jain_cr": "Figs. 30–31"},
    cite="Mliki et al. 2016a",
)
# The second reading of the multi-link topology (docs/topologies.md, candidate B; Mliki et al. 2016a §3.6:
# G1 "goes through three potential bottlenecks (Switch 1, Switch 2 and Switch 3)", the "two other
# multicast flows ... go through only one bottleneck"): G2 local to Switch2, G3 to Switch3, so
# Switch1>Switch2 is G1's bottleneck. Run in the baseline sets only, beside the parking lot; Switch1's
# claims (Mliki et al. 2016a Fig. 24, 2016b Fig. 16) are decided on it.
ML2_TITLE = ("multi-link topology, second reading (Fig. {fig}: G2 and G3 each behind one bottleneck of their own, "
             "Switch1 a real bottleneck; docs/topologies.md)")
MULTILINK2_LEGACY = Topology(
    "multilink2", "Mliki et al. 2016a " + ML2_TITLE.format(fig=17),
    {MC: ("scenarios/mliki2016/multilink2-multicast.toml", {}),
     MU: ("scenarios/mliki2016/multilink2-multiple-unicast.toml", {})},
    figs={"q_dev_from_qeq_frames": "Fig. 24"}, cite="Mliki et al. 2016a", baseline_only=True,
)
STAR = Topology(
    "star", "Mliki et al. 2016b star (Fig. 1)",
    {QCN: ("scenarios/mliki2016/star-qcn.toml", {}),
     EQCN: ("scenarios/mliki2016/star-qcn.toml", with_rp("scenarios/mliki2016/star-qcn.toml", "eqcn"))},
    paper={
        ("feedback_rate_pct", QCN): (13.16, 11.98, 3.8),
        ("feedback_rate_pct", EQCN): (8.04, 5.63, 2.27),
        ("loss_rate_pct", QCN): (0.0, 3.15, 26.59),
        ("loss_rate_pct", EQCN): (0.0, 2.17, 29.98),
        ("cr_std_mbps", QCN): (67.65, 69.48, 43.61),
        ("cr_std_mbps", EQCN): (65.32, 65.19, 58.56),
    },
    notes={k: "text §4.1–4.4; star reconstructed from prose (docs/topologies.md)" for k in [
        ("feedback_rate_pct", QCN), ("feedback_rate_pct", EQCN), ("loss_rate_pct", QCN), ("loss_rate_pct", EQCN),
        ("cr_std_mbps", QCN), ("cr_std_mbps", EQCN)]},
    figs={"cr_mean_mbps": "Fig. 6", "feedback_rate_pct": "Fig. 7", "loss_rate_pct": "Fig. 8", "cr_std_mbps": "Fig. 9",
          "q_mean_frames": "Fig. 10", "q_dev_from_qeq_frames": "Fig. 11", "jain_cr": "Fig. 12"},
    cite="Mliki et al. 2016b",
)
# §4.6.1: QCN 87.92 / 89.02 / 4.24 %; E-QCN "reduced by −41 %, −41.23 %, −60.14 %"
QCN_ML_FEEDBACK = (87.92, 89.02, 4.24)
EQCN_ML_REDUCTION = (0.41, 0.4123, 0.6014)
MULTILINK_ENHANCED = Topology(
    "multilink", "Mliki et al. 2016b multi-link topology (Fig. 13, reconstructed: docs/topologies.md)",
    {QCN: ("scenarios/mliki2016/multilink-multicast.toml", {}),
     EQCN: ("scenarios/mliki2016/multilink-multicast.toml",
            with_rp("scenarios/mliki2016/multilink-multicast.toml", "eqcn"))},
    paper={("feedback_rate_pct", QCN): QCN_ML_FEEDBACK,
           ("feedback_rate_pct", EQCN): tuple(round(f * (1 - r), 2) for f, r in zip(QCN_ML_FEEDBACK, EQCN_ML_REDUCTION))},
    derived={("feedback_rate_pct", EQCN): "QCN's value × (1 − the stated reduction of 41 / 41.23 / 60.14 %), §4.6.1"},
    notes={("feedback_rate_pct", QCN): "text §4.6.1; reconstructed topology",
           ("feedback_rate_pct", EQCN): "DERIVED: QCN value × (1 − stated reduction 41 / 41.23 / 60.14 %); reconstructed topology"},
    figs={"feedback_rate_pct": "Fig. 14", "loss_rate_pct": "Fig. 15", "q_std_frames": "Figs. 16–18", "jain_cr": "Figs. 19–21"},
    cite="Mliki et al. 2016b",
)
MULTILINK2_ENHANCED = Topology(
    "multilink2", "Mliki et al. 2016b " + ML2_TITLE.format(fig=13) + " — it contradicts 2016b §4.6, where G2 crosses "
    "Switch2 and Switch3",
    {QCN: ("scenarios/mliki2016/multilink2-multicast.toml", {}),
     EQCN: ("scenarios/mliki2016/multilink2-multicast.toml",
            with_rp("scenarios/mliki2016/multilink2-multicast.toml", "eqcn"))},
    figs={"q_std_frames": "Fig. 16"}, cite="Mliki et al. 2016b", baseline_only=True,
)

# The multi-link topology's switches and groups (2016a §3.6, 2016b §4.6), as the runs name them (parts)
SWITCHES = ("Switch1", "Switch2", "Switch3")
GROUPS = ("G1", "G2", "G3")

CHOICES = [
    "Run length 10 s, measurement window 5–10 s (all sources active); the papers state neither.",
    "CPs evaluate every arriving data frame (Mliki et al. 2016b §2.1); Qold is updated when feedback is sent "
    "(Mliki et al. 2016a §2.1). The standard's sampling table is re-run as a comparison.",
    "Links: 1 µs propagation delay, 20 B of preamble + IFG per frame; CNMs are 64-B frames queued like data.",
    "RP: the 802.1Qau pseudo-code (byte counter and 10 ms timer, extra fast recovery), GD = 1/128, Rmin = 10 Mb/s; "
    "the papers' Gd·63 = 1/2 would give GD = 1/126.",
    "Sources pace at min(application rate, CR); a rate limiter holds up to 100 frames (source-side loss beyond).",
    "Multiple unicast: both copies leave at the session rate CR = min r_i (Mliki et al. 2016a §3); CR metrics use the session rate.",
    "Feedback rate: CNMs ÷ data frame copies sent by the sources, in the window; loss rate: copies dropped ÷ all "
    "copies (those sent plus those made at multicast branching points), so it cannot exceed 100 %; per group, over "
    "the group's own copies (CNMs received by its RPs, its copies dropped).",
    "E-QCN: decrease with the saved F̂b (Algorithm 1 as written); equal |Fb| broken by the CPID the RP selected (Mliki et al. 2016b §4).",
    "Multi-link and star topologies are reconstructed from the prose (docs/topologies.md).",
]

REFERENCE_CR = 1000 / 6  # CR_mean = 1 Gb/s ÷ 6 sources (Mliki et al. 2016a §3.1), Mb/s
A, B = "Mliki et al. 2016a", "Mliki et al. 2016b"
T1 = "Table 1"
TOTAL_LOSS_WHY = ("multiple unicast sends two copies of every frame at the session rate into the same links, so "
                  "with the sources offering the same load its total (limiter + switch) loss is set by the offered load")
# The multi-link reconstruction's Switch1 is not a bottleneck: its most loaded queue holds a fraction of a
# frame on average (the per-switch tables), so its mean queue − Qeq is −Qeq and its queue std-dev near
# 0 whatever the scheme: a Switch1 term compares two constants.
LOADED = ("Switch2", "Switch3")
SWITCH1_WHY = ("in the reconstructed multi-link topology Switch1 is not a bottleneck (its most loaded queue holds a "
               "fraction of a frame on average: see the per-switch tables), so its term is −Qeq (deviation) or ≈ 0 "
               "(std-dev) in both schemes and passes or fails by construction; Switch2 and Switch3 carry the claim, and "
               "Switch1's term is decided on the second reading of the topology (the multilink2 row), where Switch1 is "
               "a real bottleneck")
# The prose states times in whole seconds ("after the first 4 s", "after the first 3 s"): half a second
# either way is the precision of its statement.
WHOLE_SECOND = 0.5
FIG_NO_VALUES = ("the figure is not in the text (lost in extraction) and the text states no value of it: 0 of the 6 "
                 "points ({what} × Qeq 25/50/75) are given; its only words concern the deviation of the mean queue from "
                 "Qeq ({dev}), tested by the row `{row}` — at one Qeq the mean queue and its deviation differ by Qeq "
                 "itself, so this comparison of mean queues (this row's rule) repeats that row and is not counted twice")
CR_ACTIVE = ("CR while the session's rate limiter is in place (the 1-ms samples with CR below the line rate: a released "
             "limiter's CR is the line rate, which the source does not send at)")


def _fb_spread(values) -> float:
    return max(values) - min(values)


def _claims_000() -> list[Claim]:
    d, m, m2 = DUMBBELL, MULTILINK_LEGACY, MULTILINK2_LEGACY
    fb_mc = d.paper[("feedback_rate_pct", MC)]
    steady_tol = float(math.ceil(_fb_spread(fb_mc)))
    loss_mu = d.paper[("loss_rate_pct", MU)]
    mc_rec = c.qeq_trend(d, MC, "feedback_rate_pct", increasing=False)
    loss_mu_rule = c.qeq_trend(d, MU, "loss_rate_pct", increasing=True)
    groups_fb = c.all_rules([c.groups(m, v, "feedback_rate_pct", ("G2", "G3"), "G1") for v in (MC, MU)],
                            "for each scheme: paired per group, minimum effect 20 % of the larger mean")
    chain_cr = c.all_rules(
        [c.versus(d, MC, "cr_active_mean_mbps", REFERENCE_CR, above=True, qeqs=(75,), words="§3.4"),
         c.qeq_trend(d, MC, "cr_active_mean_mbps", increasing=True, words="§3.4"),
         c.qeq_trend(d, MC, "loss_rate_pct", increasing=True)],
        "all three links: (i) the CR's interval above CR_mean at Qeq 75; (ii) the CR rises from Qeq 25 to 75 and "
        "(iii) the switch loss rises from Qeq 25 to 75, each Welch with minimum effect 20 % of the larger mean (loss: "
        "or half the paper's own 0 → 16.09-point step, floor 0.5 points). \"Consequently\" (that (i)–(ii) cause (iii)) "
        "is not a measurable link of these runs: CR and loss move together with Qeq and no run holds one fixed while "
        "moving the other, so the row tests the three relations the sentence asserts")
    chain_fb = c.all_rules(
        [c.schemes(d, "feedback_rate_pct", MU, MC, a_higher=True, qeqs=(25, 50)),
         c.schemes(d, "cr_active_std_mbps", MU, MC, a_higher=True, qeqs=(25, 50), words="§4"),
         c.schemes(d, "q_std_frames", MU, MC, a_higher=True, qeqs=(25, 50), words="§4"),
         c.schemes(d, "loss_rate_pct", MU, MC, a_higher=True, qeqs=(25, 50))],
        "every link, multiple unicast against multicast at Qeq 25 and 50 (where the paper's own numbers show the "
        "first link, more feedback: 48.05 / 44.49 against 2.49 / 3.35 %; at Qeq 75 they reverse it, 1.87 against "
        "2.46 %): (i) feedback rate, (ii) CR std-dev, (iii) queue std-dev, (iv) switch loss, each higher, Welch, "
        "minimum effect 20 % of the larger mean (or half the paper's own difference where it states both). That "
        "each link causes the next is not a measurable link of these runs (the scheme moves all four together); the "
        "row tests the four relations the chain asserts")
    return [
        Claim("dumbbell.queue.multicast-builds-after-4s", "Figure 9 shows the queue size variation when the Qeq = 25 "
              "frames in the case of the multicast scenario. We note that the queue load starts to build up after the "
              "first 4 s (cnsim: the first time the main CP's queue holds 5 frames, 5 % of the 100-frame axis)",
              f"{A} §3.1, Fig. 9", c.stated_within(d, MC, "q_build_s", 25, 4.0, WHOLE_SECOND, "the prose states whole "
                                                    "seconds"), paper=PaperValue(4.0, "s", f"{A} §3.1, Fig. 9")),
        Claim("dumbbell.queue.unicast-builds-after-3s", "Figure 10 plots the queue size variation when the Qeq = 25 "
              "frames in the case of the multiple unicast scenario. We note that the queue load starts to build up "
              "after the first 3 s (cnsim: the first time the main CP's queue holds 5 frames)", f"{A} §3.1, Fig. 10",
              c.stated_within(d, MU, "q_build_s", 25, 3.0, WHOLE_SECOND, "the prose states whole seconds"),
              paper=PaperValue(3.0, "s", f"{A} §3.1, Fig. 10")),
        Claim("dumbbell.queue.mean-fig14", "Figure 14 shows the mean queue length for different values of Qeq "
              "threshold (multiple unicast's mean queue above multicast's at Qeq 25, as Fig. 15's words say of the "
              "deviation)", f"{A} §3.4, Fig. 14",
              c.schemes(d, "q_mean_frames", MU, MC, a_higher=True, qeqs=(25,), words="Fig. 14"),
              reason=FIG_NO_VALUES.format(what="2 scenarios", dev="Fig. 15", row="dumbbell.queue.unicast-worse-at-low-qeq")),
        Claim("dumbbell.cr-above-mean.loss-rises", "As the Qeq threshold increases, the CR converges to a value that is "
              "larger than the CR_mean … Consequently the loss rate increases when the CR converges over CR_mean "
              f"(multicast; {CR_ACTIVE})", f"{A} §3.4, §4, Figs. 3–5 and 12", chain_cr),
        Claim("dumbbell.feedback-fluctuation-loss", "A high feedback rate causes sending rate fluctuations and impedes "
              "the queue stability at the switches, which leads to frame loss (multiple unicast, with more feedback, "
              f"against multicast; {CR_ACTIVE})", f"{A} §4, §3.4", chain_fb),
        Claim("dumbbell.first-cnm.multicast-later", "RP start time — multicast: congestion occurs slower than the "
              "multiple unicast scenario", f"{A} {T1}, §3.1", c.schemes(d, "first_cnm_s", MC, MU, a_higher=True)),
        Claim("dumbbell.feedback.multicast-steady", "Feedback — multicast: the queue generates feedback frames almost "
              "steadily with the different Qeq values", f"{A} {T1}, §3.2",
              c.steady(d, MC, "feedback_rate_pct", steady_tol,
                       f"the paper calls its own {' / '.join(map(str, fb_mc))} %, {_fb_spread(fb_mc):.2f} points apart, "
                       "almost steady: its largest difference rounded up to a whole point")),
        Claim("dumbbell.feedback.multicast-lower", "Feedback — multicast: the feedback rate is lower than the multiple "
              "unicast case", f"{A} {T1}, §3.2", c.schemes(d, "feedback_rate_pct", MC, MU, a_higher=False)),
        Claim("dumbbell.feedback.unicast-falls-with-qeq", "Feedback — multiple unicast: the more the threshold Qeq "
              "decreases, the more the queue generates feedback frames", f"{A} {T1}, §3.2",
              c.qeq_trend(d, MU, "feedback_rate_pct", increasing=False)),
        Claim("dumbbell.loss.multicast-lower", "Loss — multicast: the loss rate is lower than the multiple unicast "
              "case (switch loss)", f"{A} {T1}, §3.3", c.schemes(d, "loss_rate_pct", MC, MU, a_higher=False)),
        Claim("dumbbell.loss-total.multicast-lower", "Loss — multicast: the loss rate is lower than the multiple "
              "unicast case (total loss, limiters included)", f"{A} {T1}, §3.3",
              c.schemes(d, "total_loss_pct", MC, MU, a_higher=False), constructed=TOTAL_LOSS_WHY),
        Claim("dumbbell.loss.multicast-rises-with-qeq", "Loss — multicast: as the threshold Qeq increases, the loss "
              "rate also increases", f"{A} {T1}, §3.3", c.qeq_trend(d, MC, "loss_rate_pct", increasing=True)),
        Claim("dumbbell.loss.multicast-near-zero-then-steep", "In the multicast traffic scenario, the loss rate remains "
              "close to zero until Qeq is 50 frames, and then rises steeply as the Qeq threshold value further increases",
              f"{A} §3.3, Fig. 12", c.near_zero_then_steep(d, MC, "loss_rate_pct")),
        Claim("dumbbell.loss.unicast-rises-with-qeq", "Loss — multiple unicast: the loss rate increases when the "
              "threshold Qeq increases", f"{A} {T1}, §3.3", loss_mu_rule,
              reason=f"the paper's own multiple-unicast loss falls {' → '.join(map(str, loss_mu))} % from Qeq 25 to 75 "
                     "(§3.3, Fig. 12) while its Table 1 says it rises with Qeq: its rule cannot accept the paper's data"),
        Claim("dumbbell.stability.multicast-better", "Stability — multicast: the stability is better than the "
              f"multiple unicast case (lower CR std-dev; {CR_ACTIVE})", f"{A} {T1}, §3.4",
              c.schemes(d, "cr_active_std_mbps", MC, MU, a_higher=False, words="Fig. 13 has no number in the text")),
        Claim("dumbbell.fairness-cr.multicast-better", "Fairness — multicast: the fairness is better than the "
              f"multiple unicast case (Jain over session CRs; {CR_ACTIVE})", f"{A} {T1}, §3.5",
              c.schemes(d, "jain_cr_active", MC, MU, a_higher=True, words="Fig. 16")),
        Claim("dumbbell.fairness-throughput.multicast-better", "Fairness — multicast: the fairness is better than the "
              "multiple unicast case (Jain over throughputs)", f"{A} {T1}, §3.5",
              c.schemes(d, "jain_throughput", MC, MU, a_higher=True, words="Fig. 16")),
        Claim("dumbbell.cr.multicast-above-mean", "Multicast CR converges above CR_mean = 1 Gb/s ÷ 6 as Qeq grows "
              f"(Qeq 75; {CR_ACTIVE})", f"{A} §3.4",
              c.versus(d, MC, "cr_active_mean_mbps", REFERENCE_CR, above=True, qeqs=(75,), words="§3.4")),
        Claim("dumbbell.cr.multicast-rises-with-qeq", "Multicast: as the Qeq threshold increases, the CR converges to "
              f"a value that is larger (the session CR rises with Qeq; {CR_ACTIVE})", f"{A} §3.4, Figs. 3–5",
              c.qeq_trend(d, MC, "cr_active_mean_mbps", increasing=True, words="§3.4")),
        Claim("dumbbell.cr.unicast-below-mean", f"Multiple-unicast CR settles below CR_mean = 1 Gb/s ÷ 6 ({CR_ACTIVE})",
              f"{A} §3.4", c.versus(d, MU, "cr_active_mean_mbps", REFERENCE_CR, above=False, words="§3.4")),
        Claim("dumbbell.queue.unicast-worse-at-low-qeq", "Multiple unicast: the congestion is far too inadequately "
              "controlled at low Qeq compared to multicast (the mean queue's deviation from Qeq)", f"{A} §3.4, Fig. 15",
              c.schemes(d, "q_dev_from_qeq_frames", MU, MC, a_higher=True, qeqs=(25,), words="Fig. 15")),
        Claim("dumbbell.recommendation.three-quarters-unicast", "Recommended: Qeq at ¾ of the queue (75 of 100 frames) "
              "mitigates the feedback implosion — multiple unicast (feedback rate at Qeq 75 against 25)", f"{A} §4",
              c.qeq_trend(d, MU, "feedback_rate_pct", increasing=False)),
        Claim("dumbbell.recommendation.three-quarters-multicast", "Recommended: Qeq at ¾ of the queue (75 of 100 "
              "frames) mitigates the feedback implosion — multicast (feedback rate at Qeq 75 against 25)", f"{A} §4",
              mc_rec, reason=f"the paper's own multicast feedback rates are {fb_mc[0]} % at Qeq 25 and {fb_mc[2]} % at "
              f"Qeq 75 (§3.2, Fig. 11): {abs(fb_mc[0] - fb_mc[2]):.2f} points, no reduction, while §4 recommends Qeq "
              "= ¾ to mitigate the feedback implosion for multicast too"),
        Claim("multilink.groups.far-group-fewer-feedback", "Scalability — the sources of G1, which are far from CPs, "
              "receive fewer feedback frames than those of G2 and G3 in both multiple unicast traffic and multicast "
              "traffic", f"{A} {T1}, §3.6.1, Figs. 18–19", groups_fb),
        Claim("multilink.feedback.multicast-higher", "The network faces a heavier congestion [in the multicast "
              "scenario] than in the case of multiple unicast scenario observed from the significant feedback rate "
              "generated in the multicast scenario compared to the multiple unicast one (mean feedback rate over the "
              "multi-link topology)", f"{A} §3.6.1, Fig. 20",
              c.schemes(m, "feedback_rate_pct", MC, MU, a_higher=True, words="Fig. 20")),
        Claim("multilink.feedback.falls-with-qeq", "As the Qeq decreases the generation of feedback frames from CPs "
              "increases (multi-link; multicast and multiple unicast)", f"{A} §3.6.1, Figs. 18–19",
              c.all_rules([c.qeq_trend(m, v, "feedback_rate_pct", increasing=False) for v in (MC, MU)],
                          "for each scheme: Qeq 75 vs 25, Welch, minimum effect 20 %")),
        Claim("multilink.loss.rises-with-qeq", "The frame loss rate is high when the threshold Qeq value gets "
              "increased (multi-link; multicast and multiple unicast)", f"{A} §3.6.2, Figs. 21–22",
              c.all_rules([c.qeq_trend(m, v, "loss_rate_pct", increasing=True) for v in (MC, MU)],
                          "for each scheme: Qeq 75 vs 25, Welch, minimum effect 20 % (floor 0.5 points)")),
        Claim("multilink.groups.far-group-less-loss", "Frames of G1 where the sources are far from the congested "
              "links exhibit less loss than those of G2 and G3 (multicast and multiple unicast)",
              f"{A} §3.6.2, Figs. 21–22",
              c.all_rules([c.groups(m, v, "loss_rate_pct", ("G2", "G3"), "G1") for v in (MC, MU)],
                          "for each scheme: paired per group, minimum effect 20 % (floor 0.5 points)")),
        Claim("multilink.loss.multicast-higher", "As the number of multicast groups in the case of multicast "
              "scenario increases, the loss rate performance criterion degrades much more than in the case of the "
              "multiple unicast scenario (multicast's switch loss above multiple unicast's)", f"{A} §3.6.2, Fig. 23",
              c.schemes(m, "loss_rate_pct", MC, MU, a_higher=True, words="Fig. 23")),
        Claim("multilink.queue.deviation-high-at-low-qeq", "When the Qeq threshold is low, the deviation from the Qeq "
              "equilibrium threshold is high for both multiple unicast and multicast scenarios (Switch2's and "
              "Switch3's mean queue − Qeq falls as Qeq grows; Switch1: the next row)", f"{A} §3.6.3, Figs. 25–26",
              c.all_rules([c.qeq_trend(m, v, "q_dev_from_qeq_frames", increasing=False, part=sw)
                           for v in (MC, MU) for sw in LOADED],
                          "for each scheme and loaded switch: Qeq 75 vs 25, Welch, minimum effect 20 % (floor 2 frames)")),
        Claim("multilink.queue.deviation-high-at-low-qeq-switch1", "When the Qeq threshold is low, the deviation from "
              "the Qeq equilibrium threshold is high (Switch1)", f"{A} §3.6.3, Fig. 24",
              c.all_rules([c.qeq_trend(m, v, "q_dev_from_qeq_frames", increasing=False, part="Switch1") for v in (MC, MU)],
                          "for each scheme: Qeq 75 vs 25, Welch, minimum effect 20 % (floor 2 frames)"),
              reason=SWITCH1_WHY),
        Claim("multilink2.queue.deviation-high-at-low-qeq-switch1", "When the Qeq threshold is low, the deviation from "
              "the Qeq equilibrium threshold is high (Switch1, on the topology's second reading: G2 and G3 each behind "
              "one bottleneck, Switch1 G1's bottleneck)", f"{A} §3.6.3, Fig. 24",
              c.all_rules([c.qeq_trend(m2, v, "q_dev_from_qeq_frames", increasing=False, part="Switch1") for v in (MC, MU)],
                          "for each scheme: Qeq 75 vs 25, Welch, minimum effect 20 % (floor 2 frames)")),
        Claim("multilink.queue.multicast-overused", "As the number of multicast groups increases in the multicast "
              "scenario, the queue resource of the switch gets overused (Switch2's and Switch3's mean queue above Qeq)",
              f"{A} §3.6.3, Figs. 25–26",
              c.all_rules([c.versus(m, MC, "q_dev_from_qeq_frames", 0.0, above=True, words="§3.6.3", part=sw)
                           for sw in LOADED], "each loaded switch, every Qeq: the deviation's interval above 0")),
        Claim("multilink.queue.multicast-as-large-as-unicast", "The queue overuse in a multicast scenario is found to "
              "be as large as that of the multiple unicast scenario (Switch2's and Switch3's mean queue − Qeq alike)",
              f"{A} §3.6.3, Figs. 25–26",
              c.all_rules([c.alike(m, "q_dev_from_qeq_frames", MC, MU, part=sw) for sw in LOADED],
                          "each loaded switch, every Qeq: Welch interval within ± 20 % of the larger mean (floor 2 frames)")),
        Claim("multilink.stability.g1-unicast-better", "The rate of G1 where the traffic goes through more CPs than "
              "G2 and G3 traffic, seems to be more stable in the case of multiple unicast traffic than the multicast "
              f"traffic scenario case (G1's CR std-dev; {CR_ACTIVE})", f"{A} §3.6.3, Fig. 27",
              c.schemes(m, "cr_active_std_mbps", MU, MC, a_higher=False, part="G1", words="Fig. 27")),
        Claim("multilink.stability.g2-multicast-better", "The stability rate of G2 in a multicast scenario is better "
              f"than that of the multiple unicast scenario (G2's CR std-dev; {CR_ACTIVE})", f"{A} §3.6.3, Fig. 28",
              c.schemes(m, "cr_active_std_mbps", MC, MU, a_higher=False, part="G2", words="Fig. 28")),
        Claim("multilink.stability.g3-multicast-better-at-low-qeq", "The stability rate of G3 in a multicast scenario "
              "is also better than that of the multiple unicast scenario but only for low Qeq threshold values (G3's "
              f"CR std-dev at the lowest Qeq, 25; {CR_ACTIVE})", f"{A} §3.6.3, Fig. 29",
              c.schemes(m, "cr_active_std_mbps", MC, MU, a_higher=False, qeqs=(25,), part="G3", words="Fig. 29")),
        Claim("multilink.fairness.g1-best-unicast", "Multiple unicast: the fairness index of G1 shows the best "
              f"performance … compared to those of G2 and G3 (Jain over the group's session CRs; {CR_ACTIVE})",
              f"{A} §3.6.4, Fig. 30", c.groups(m, MU, "jain_cr_active", ("G2", "G3"), "G1", lower=False)),
        Claim("multilink.fairness.g1-best-multicast", "Fairness index of G1 reveals the best fairness index compared "
              f"to G2 and G3 in the case of a multicast scenario (Jain over the group's session CRs; {CR_ACTIVE})",
              f"{A} §3.6.4, Fig. 31", c.groups(m, MC, "jain_cr_active", ("G2", "G3"), "G1", lower=False)),
        Claim("multilink.scalability.multicast-degrades", "Scalability — multicast: the performance criteria degrade in "
              "terms of feedback overhead, loss rate, stability and fairness (the multi-link topology against the "
              f"dumbbell: higher feedback rate, switch loss and CR std-dev, lower Jain over session CRs; {CR_ACTIVE})",
              f"{A} {T1}, §4",
              c.all_rules([c.across(m, d, MC, "feedback_rate_pct", True), c.across(m, d, MC, "loss_rate_pct", True),
                           c.across(m, d, MC, "cr_active_std_mbps", True), c.across(m, d, MC, "jain_cr_active", False)],
                          "each criterion, every Qeq: Welch, minimum effect 20 % (loss floor 0.5 points; Jain 0.05)")),
    ]


def _claims_001() -> list[Claim]:
    s, m, m2 = STAR, MULTILINK_ENHANCED, MULTILINK2_ENHANCED
    n = c.NOMINAL["cr_active_mean_mbps"]
    rise = EQCN_CR_GAIN_PCT / 100
    return [
        Claim("star.rate.eqcn-higher-cr", "RP rate — E-QCN improves the average traffic rate at the RP (on the "
              f"session CR; {CR_ACTIVE})", f"{B} {T1}, §4.1, Fig. 6",
              c.schemes(s, "cr_active_mean_mbps", EQCN, QCN, a_higher=True,
                        pa={25: n * (1 + rise), 50: c.least(n, "cr_active_mean_mbps", 1),
                            75: c.least(n, "cr_active_mean_mbps", 1)}, pb={q: n for q in QEQS},
                        cap={25: n * rise / 2})),
        Claim("star.rate.eqcn-higher-throughput", "RP rate — E-QCN improves the average traffic rate at the RP (on "
              "throughput)", f"{B} {T1}, §4.1, Fig. 6",
              c.schemes(s, "throughput_mean_mbps", EQCN, QCN, a_higher=True, words="Fig. 6"),
              reason="the model cannot produce the condition: six sources of 200 Mb/s offer 1.2 Gb/s to each 1 Gb/s "
                     "receiver link, so the link is saturated under either scheme and the receivers' throughput is "
                     "the link's share whatever the RP does (the rows' evidence: a difference of a fraction of a "
                     "percent); the claim is tested on the session CR (the row above)"),
        Claim("star.feedback.qcn-higher", "Feedback — QCN: the feedback rate is higher than the enhanced QCN",
              f"{B} {T1}, §4.2", c.schemes(s, "feedback_rate_pct", QCN, EQCN, a_higher=True)),
        Claim("star.feedback.qcn-falls-with-qeq", "Feedback — QCN: the more the Qeq threshold decreases, the more the "
              "queue generates feedback frames", f"{B} {T1}, §4.2",
              c.qeq_trend(s, QCN, "feedback_rate_pct", increasing=False)),
        Claim("star.loss.qcn-higher", "Loss — QCN: the loss rate is higher than the enhanced QCN (switch loss)",
              f"{B} {T1}, §4.3", c.schemes(s, "loss_rate_pct", QCN, EQCN, a_higher=True)),
        Claim("star.loss-total.qcn-higher", "Loss — QCN: the loss rate is higher than the enhanced QCN (total loss, "
              "limiters included)", f"{B} {T1}, §4.3",
              c.schemes(s, "total_loss_pct", QCN, EQCN, a_higher=True, stated_as="loss_rate_pct")),
        Claim("star.feedback.eqcn-reduction", "We succeeded in making a reduction of −40.26 % of the QCN with multicast "
              "result when the Qeq = 75 frames, −53 % when the Qeq = 50 frames, and −38.9 % when the Qeq = 25 frames",
              f"{B} §4.2, Fig. 7", c.change(s, "feedback_rate_pct", EQCN, QCN, {25: -38.9, 50: -53.0, 75: -40.26})),
        Claim("star.loss.eqcn-reduction-at-qeq50", "When the Qeq = 50 frames the enhanced QCN for multicast succeeded "
              "in making a reduction of −31.11 % of the QCN with multicast result (switch loss)", f"{B} §4.3, Fig. 8",
              c.change(s, "loss_rate_pct", EQCN, QCN, {50: -31.11})),
        Claim("star.loss.eqcn-increase-at-qeq75", "When the Qeq = 75 frames the enhanced QCN for multicast achieves an "
              "increase of 12.74 % of the QCN with the multicast result (switch loss)", f"{B} §4.3, Fig. 8",
              c.change(s, "loss_rate_pct", EQCN, QCN, {75: 12.74})),
        Claim("star.loss.qcn-rises-with-qeq", "Loss — QCN: as the Qeq threshold increases, the loss rate also "
              "increases", f"{B} {T1}, §4.3", c.qeq_trend(s, QCN, "loss_rate_pct", increasing=True)),
        Claim("star.loss.eqcn-lower-at-low-qeq", "Loss — E-QCN: the loss rate is reduced (below QCN's) when the Qeq "
              "threshold values are low (25, 50)", f"{B} {T1}, §4.3",
              c.schemes(s, "loss_rate_pct", EQCN, QCN, a_higher=False, qeqs=(25, 50))),
        Claim("star.feedback.eqcn-falls-with-qeq", "Feedback — E-QCN: its feedback rate also falls as Qeq grows",
              f"{B} §4.2, Fig. 7", c.qeq_trend(s, EQCN, "feedback_rate_pct", increasing=False)),
        Claim("star.loss.eqcn-rises-with-qeq", "Loss — as the Qeq threshold value increases, the loss rate also "
              "increases in … the enhanced QCN", f"{B} §4.3, Fig. 8", c.qeq_trend(s, EQCN, "loss_rate_pct", increasing=True)),
        Claim("star.loss.eqcn-higher-at-high-qeq", "Loss — at Qeq 75 the enhanced QCN has a higher loss rate than QCN "
              "(\"an increase of 12.74 %\")", f"{B} §4.3, Fig. 8",
              c.schemes(s, "loss_rate_pct", EQCN, QCN, a_higher=True, qeqs=(75,))),
        Claim("star.queue.eqcn-controls-low-qeq", "E-QCN could control congestion properly in the case of low Qeq "
              "(the mean queue not above Qeq: a positive deviation \"indicates a poor control\")", f"{B} §4.4, Fig. 11",
              c.versus(s, EQCN, "q_dev_from_qeq_frames", 0.0, above=False, qeqs=(25,), words="Fig. 11")),
        Claim("star.queue.eqcn-worse-at-high-qeq", "E-QCN: congestion is inadequately controlled at high Qeq compared "
              "to QCN (the mean queue's deviation from Qeq)", f"{B} §4.4, Fig. 11",
              c.schemes(s, "q_dev_from_qeq_frames", EQCN, QCN, a_higher=True, qeqs=(75,), words="Fig. 11")),
        Claim("star.queue.mean-fig10", "Figure 10 shows the mean queue length for different values of Qeq threshold "
              "for the both QCN schemes (E-QCN's mean queue above QCN's at Qeq 75, as Fig. 11's words say of the "
              "deviation)", f"{B} §4.4, Fig. 10",
              c.schemes(s, "q_mean_frames", EQCN, QCN, a_higher=True, qeqs=(75,), words="Fig. 10"),
              reason=FIG_NO_VALUES.format(what="2 schemes", dev="Fig. 11", row="star.queue.eqcn-worse-at-high-qeq")),
        Claim("star.stability.eqcn-better-at-low-qeq", "Stability — E-QCN: better stability (lower CR std-dev than "
              f"QCN) when the Qeq values are decreased (25, 50; {CR_ACTIVE})", f"{B} {T1}, §4.4",
              c.schemes(s, "cr_active_std_mbps", EQCN, QCN, a_higher=False, qeqs=(25, 50), stated_as="cr_std_mbps")),
        Claim("star.stability.qcn-better-at-high-qeq", "Stability — QCN: better stability (lower CR std-dev than "
              f"E-QCN) when the Qeq values are increased (75; {CR_ACTIVE})", f"{B} {T1}, §4.4",
              c.schemes(s, "cr_active_std_mbps", QCN, EQCN, a_higher=False, qeqs=(75,), stated_as="cr_std_mbps")),
        Claim("star.fairness-cr.alike", "Fairness — the fairness indices are similar for both QCN schemes for most of "
              f"the Qeq threshold values (Jain over session CRs; {CR_ACTIVE})", f"{B} {T1}, §4.5, Fig. 12",
              c.alike(s, "jain_cr_active", EQCN, QCN, words="Fig. 12", most=True)),
        Claim("star.fairness-throughput.alike", "Fairness — the fairness indices are similar for both QCN schemes for "
              "most of the Qeq threshold values (Jain over throughputs)", f"{B} {T1}, §4.5, Fig. 12",
              c.alike(s, "jain_throughput", EQCN, QCN, words="Fig. 12", most=True)),
        Claim("star.conclusion.stability-fairness-similar", "With such a recommendation [a low Qeq, 25 % of the queue] "
              "… stability and fairness performance results seem to be similar for both QCN schemes (CR std-dev and "
              f"Jain over session CRs at Qeq 25; {CR_ACTIVE})", f"{B} §5",
              c.all_rules([c.alike(s, "cr_active_std_mbps", EQCN, QCN, qeqs=(25,), stated_as="cr_std_mbps"),
                           c.alike(s, "jain_cr_active", EQCN, QCN, qeqs=(25,), words="§5")],
                          "each criterion at Qeq 25: Welch interval within ± 20 % of the larger mean (CR std-dev) or "
                          "±0.05 (Jain)")),
        Claim("multilink.feedback.eqcn-lower", "Scalability — E-QCN decreases the feedback overhead (multi-link)",
              f"{B} {T1}, §4.6.1", c.schemes(m, "feedback_rate_pct", EQCN, QCN, a_higher=False)),
        Claim("multilink.loss.eqcn-lower-at-low-qeq", "Scalability — E-QCN decreases the loss rate (multi-link; at low "
              "Qeq 25, 50)", f"{B} {T1}, §4.6.2",
              c.schemes(m, "loss_rate_pct", EQCN, QCN, a_higher=False, qeqs=(25, 50), words="Fig. 15")),
        Claim("star.cr.above-mean-at-high-qeq", "In both schemes of the QCN (i.e., the QCN and the enhanced QCN), the "
              "CR fluctuates over the CR_mean when the Qeq is increased (mean session CR at Qeq 75; CR_mean = "
              f"1 Gbit/s ÷ 6; {CR_ACTIVE})", f"{B} §4.1, Figs. 3 and 5",
              c.all_rules([c.versus(s, v, "cr_active_mean_mbps", REFERENCE_CR, above=True, qeqs=(75,), words="Figs. 3, 5")
                           for v in (QCN, EQCN)], "for each scheme: interval above CR_mean at Qeq 75")),
        Claim("multilink.loss.rises-with-qeq", "The frame loss rate is high when the Qeq threshold values go up "
              "(multi-link; both schemes)", f"{B} §4.6.2, Fig. 15",
              c.all_rules([c.qeq_trend(m, v, "loss_rate_pct", increasing=True, words="Fig. 15") for v in (QCN, EQCN)],
                          "for each: Qeq 75 vs 25, Welch, minimum effect 20 % (floor 0.5 points)")),
        Claim("multilink.loss.eqcn-higher-at-high-qeq", "The loss rate of the enhanced QCN for multicast traffic gets "
              "increased compared to the QCN with multicast traffic when the Qeq threshold values go up (Qeq 75)",
              f"{B} §4.6.2, Fig. 15", c.schemes(m, "loss_rate_pct", EQCN, QCN, a_higher=True, qeqs=(75,), words="Fig. 15")),
        Claim("multilink.queue-std.alike-per-switch", "The StdDev of the queue length at CPs (Switch 1, Switch 2 and "
              "Switch 3) of the QCN with multicast traffic and the enhanced QCN for multicast traffic is almost "
              "similar for different Qeq threshold values (Switch2 and Switch3; Switch1: the next row)",
              f"{B} §4.6.3, Figs. 17–18",
              c.all_rules([c.alike(m, "q_std_frames", EQCN, QCN, part=sw, words="Figs. 17–18") for sw in LOADED],
                          "each loaded switch, every Qeq: Welch interval within ± 20 % of the larger mean (floor 2 frames)")),
        Claim("multilink.queue-std.alike-switch1", "The StdDev of the queue length at CPs … is almost similar (Switch 1)",
              f"{B} §4.6.3, Fig. 16", c.alike(m, "q_std_frames", EQCN, QCN, part="Switch1", words="Fig. 16"),
              reason=SWITCH1_WHY),
        Claim("multilink2.queue-std.alike-switch1", "The StdDev of the queue length at CPs … is almost similar (Switch 1, "
              "on the topology's second reading: G2 and G3 each behind one bottleneck, Switch1 G1's bottleneck)",
              f"{B} §4.6.3, Fig. 16", c.alike(m2, "q_std_frames", EQCN, QCN, part="Switch1", words="Fig. 16")),
        Claim("multilink.fairness.alike-per-group", "The fairness indices are similar between the two QCN schemes for "
              f"the majority values of the Qeq threshold (G1, G2, G3; Jain over the group's session CRs; {CR_ACTIVE})",
              f"{B} §4.6.4, Figs. 19–21",
              c.all_rules([c.alike(m, "jain_cr_active", EQCN, QCN, part=g, most=True, words="Figs. 19–21")
                           for g in GROUPS],
                          "each group: Welch interval within ±0.05 at two of the three Qeq values or more")),
        Claim("multilink.scalability.qcn-degrades", "Scalability — QCN: the performance criteria degrade in terms of "
              "feedback overhead and loss rate (the multi-link topology against the star: higher feedback rate and "
              "switch loss)", f"{B} {T1}, §4.6",
              c.all_rules([c.across(m, s, QCN, "feedback_rate_pct", True), c.across(m, s, QCN, "loss_rate_pct", True)],
                          "each criterion, every Qeq: Welch, minimum effect 20 % (loss floor 0.5 points), or half the "
                          "paper's own difference where it states both and that is smaller")),
    ]


def gain(metric: str):
    def values(df) -> list:
        """E-QCN's gain in `metric` over QCN on the star at Qeq 25, %, per seed (paired by seed)."""
        sel = df[(df.topology == "star") & (df.qeq == 25) & (df.part == "all") & (df.metric == metric)]
        e = dict(zip(sel[sel.variant == EQCN].seed, sel[sel.variant == EQCN].value))
        q = dict(zip(sel[sel.variant == QCN].seed, sel[sel.variant == QCN].value))
        return [(e[k] / q[k] - 1) * 100 for k in sorted(e) if k in q and q[k]]
    return values


def _gain_rule(metric: str, paper_pct: float) -> c.Rule:
    """E-QCN's gain over QCN on the star at Qeq 25 (%, per seed: the two schemes paired by seed)
    against the paper's, ± the default tolerance of a percentage."""
    ke, kq = ("star", EQCN, metric, 25, "all"), ("star", QCN, metric, 25, "all")
    t = c.tol(paper_pct, "feedback_rate_pct")

    def decide(**inp):
        e, q = inp[c.name(ke)].by_seed(), inp[c.name(kq)].by_seed()
        return compare.against([(e[k] / q[k] - 1) * 100 for k in sorted(e) if k in q and q[k]], paper_pct, t)
    n = c.NOMINAL[metric]
    return c.Rule([ke, kq], decide, f"the per-seed gain's interval inside paper ± {compare.num(t)}",
                  {ke: n * (1 + paper_pct / 100), kq: n}, {ke: n, kq: n},
                  f"the paper's +{compare.num(paper_pct)} % (E-QCN {compare.num(n * (1 + paper_pct / 100))} against QCN "
                  f"{compare.num(n)} Mb/s); counter-datum: no gain (equal CRs)")


EQCN_CR_GAIN_PCT = 12.48   # Mliki et al. 2016b §4.1: "when Qeq = 25 frames the CR is increased by 12.48 %"
NUMBERS_001 = [Claim("star.rate.eqcn-gain-cr", "E-QCN's gain in average rate over QCN on the star at Qeq 25 "
                     f"(cnsim: mean session CR while limited, paired by seed), %", f"{B} §4.1, Fig. 6",
                     _gain_rule("cr_active_mean_mbps", EQCN_CR_GAIN_PCT),
                     paper=PaperValue(EQCN_CR_GAIN_PCT, "%", f"{B} §4.1, Fig. 6"))]

REST_COMMON = [
    "Topologies: Mliki et al. 2016a's dumbbell is stated in full; the multi-link topology (2016a Fig. 17, 2016b "
    "Fig. 13) and 2016b's star are RECONSTRUCTED from the prose (docs/topologies.md) — every number on them rests on "
    "that reconstruction.",
    "The papers give one value per point with no spread; cnsim gives a mean and a 95 % interval over seeds. The "
    "seeds vary the RP's jittered byte-counter and timer cycles (and the sampling table's jitter).",
    "CR metrics (mean, std-dev, Jain over CRs) use the 1-ms samples in which a session's rate limiter is in place: a "
    "released limiter's CR is the line rate, which the source does not send at (the share of the window is shown).",
    "Loss: the papers' \"loss rate\" is compared with cnsim's switch loss; total loss (rate-limiter drops at the "
    "sources plus switch drops) is shown beside it everywhere.",
]
REST_ML = [
    "The multi-link topology is run in two readings (docs/topologies.md): `multilink`, the parking lot that fits "
    "2016b's per-group switch lists (G1 and G2 share Switch2>Switch3; Switch1 holds a fraction of a frame), and "
    "`multilink2`, 2016a §3.6's \"two other multicast flows … go through only one bottleneck\" (G2 local to "
    "Switch2, G3 to Switch3), where Switch1>Switch2 is G1's bottleneck. Switch1's claims are decided on the second, "
    "every other multi-link claim on the first. The second runs in the baseline sets only (both samplings), so its "
    "robustness columns repeat the baseline; per switch, the queue shown is its most loaded CP queue (the largest "
    "mean queue in the window).",
]
REST_000 = REST_COMMON + [
    "The first CNM at the onset of congestion rests on the 20-B wire overhead per frame (preamble + SFD + IFG); "
    "the sensitivity section re-runs without it (`defaults.link.overhead=0B`).",
    "The paper's first-CNM times (4 s, 3 s) are read from its prose (§3.1 \"after the first 4 s\"), not from a table.",
]
REST_001 = REST_COMMON + [
    "Multi-link E-QCN feedback values are DERIVED: the paper gives QCN's 87.92 / 89.02 / 4.24 % and E-QCN's "
    "reduction (41 / 41.23 / 60.14 %, §4.6.1); the E-QCN values compared are QCN × (1 − reduction).",
    "The +12.48 % gain of E-QCN's average CR (§4.1, Fig. 6, Qeq 25) is compared on the mean session CR while its "
    "rate limiter is in place, paired by seed; on throughput the two schemes cannot differ (the link is saturated), "
    "so that row is not testable as stated.",
    "Mliki et al. 2016b gives no start times: the star uses 2016a's (0.1, 1, 2, 3, 4, 5 s).",
]

_CR = "CR (Mb/s) vs time (s) per source"
FIGS_000 = [
    ("Figs. 3–5", f"{_CR}, multicast, Qeq 25/50/75", "`figures/dumbbell-cr.png` (panels dumbbell-multicast-qeq25/50/75; "
     "session CR, seed 1, dashed line CR_mean)"),
    ("Figs. 6–8", f"{_CR}, multiple unicast, Qeq 25/50/75", "`figures/dumbbell-cr.png` (panels multiple-unicast; session CR = min r_i)"),
    ("Figs. 9–10", "queue size (frames) vs time, Qeq 25, multicast / multiple unicast",
     "`figures/dumbbell-queues.png` (every CP queue that holds frames, each kept run); table \"time the main CP's "
     "queue first holds 5 frames\""),
    ("Fig. 11", "feedback rate (%) vs Qeq", "`figures/dumbbell-every-frame.png` panel 1; table \"feedback rate\""),
    ("Fig. 12", "loss rate (%) vs Qeq", "`figures/dumbbell-every-frame.png` panels switch loss and total loss"),
    ("Fig. 13", "CR std-dev (Mb/s) vs Qeq", "`figures/dumbbell-every-frame.png` panel CR std-dev"),
    ("Fig. 14", "mean queue length (frames) vs Qeq", "`figures/dumbbell-every-frame.png` panel mean queue"),
    ("Fig. 15", "mean queue − Qeq (frames) vs Qeq", "`figures/dumbbell-every-frame.png` panel mean queue − Qeq"),
    ("Fig. 16", "Jain fairness vs Qeq, both modes", "`figures/dumbbell-every-frame.png` panels Jain over CR and Jain over throughput"),
    ("Fig. 17", "multi-link topology", "not drawn: the figure is not in the text; its reconstruction is described in docs/topologies.md"),
    ("Figs. 18–19", "feedback rate (%) per group vs Qeq, multicast / multiple unicast", "`figures/multilink-groups-every-frame.png` panel feedback"),
    ("Fig. 20", "mean feedback rate (%) vs Qeq", "`figures/multilink-every-frame.png` panel feedback"),
    ("Figs. 21–23", "loss rate (%) per group vs Qeq", "`figures/multilink-groups-every-frame.png` panel loss (switch loss per group; "
     "total loss per group is not computed: the stats document has no per-group limiter drops in the window)"),
    ("Figs. 24–26", "queue deviation from Qeq (frames) per switch vs Qeq", "`figures/multilink-switches-every-frame.png` panel mean queue − Qeq"),
    ("Fig. 24 (second reading)", "Switch1's queue deviation from Qeq, Switch1 a real bottleneck",
     "`figures/multilink2-switches-every-frame.png` panel mean queue − Qeq; `figures/multilink2-queues.png`"),
    ("Figs. 27–29", "CR std-dev (Mb/s) per group vs Qeq", "`figures/multilink-groups-every-frame.png` panel CR std-dev"),
    ("Figs. 30–31", "Jain fairness per group vs Qeq, multiple unicast / multicast", "`figures/multilink-groups-every-frame.png` panel Jain over CR"),
]
FIGS_001 = [
    ("Figs. 2–3", f"{_CR}, QCN, Qeq 25 / 75", "`figures/star-cr.png` (panels star-qcn-qeq25/75)"),
    ("Figs. 4–5", f"{_CR}, E-QCN, Qeq 25 / 75", "`figures/star-cr.png` (panels star-eqcn-qeq25/75)"),
    ("Fig. 6", "average CR (Mb/s) vs Qeq, both schemes", "`figures/star-every-frame.png` panels mean CR and mean throughput"),
    ("Fig. 7", "feedback rate (%) vs Qeq", "`figures/star-every-frame.png` panel feedback"),
    ("Fig. 8", "loss rate (%) vs Qeq", "`figures/star-every-frame.png` panels switch loss and total loss"),
    ("Fig. 9", "CR std-dev (Mb/s) vs Qeq", "`figures/star-every-frame.png` panel CR std-dev"),
    ("Fig. 10", "mean queue length (frames) vs Qeq", "`figures/star-every-frame.png` panel mean queue (the main CP: Switch1>R1 or >R2)"),
    ("Fig. 11", "mean queue − Qeq (frames) vs Qeq", "`figures/star-every-frame.png` panel mean queue − Qeq"),
    ("Fig. 12", "Jain fairness vs Qeq", "`figures/star-every-frame.png` panels Jain over CR and Jain over throughput"),
    ("Fig. 13", "multi-link topology", "not drawn: not in the text; reconstruction in docs/topologies.md"),
    ("Fig. 14", "feedback rate (%) vs Qeq, multi-link", "`figures/multilink-every-frame.png` panel feedback"),
    ("Fig. 15", "loss rate (%) vs Qeq, multi-link", "`figures/multilink-every-frame.png` panels switch loss and total loss"),
    ("Figs. 16–18", "queue std-dev (frames) per switch vs Qeq", "`figures/multilink-switches-every-frame.png` panel queue std-dev"),
    ("Fig. 16 (second reading)", "Switch1's queue std-dev, Switch1 a real bottleneck",
     "`figures/multilink2-switches-every-frame.png` panel queue std-dev; `figures/multilink2-queues.png`"),
    ("Figs. 19–21", "Jain fairness of G1 / G2 / G3 vs Qeq", "`figures/multilink-groups-every-frame.png` panel Jain over CR"),
    ("queue vs time", "(not a paper figure) queue per CP vs time", "`figures/star-queues.png`, `figures/multilink-queues.png`"),
]

DUMBBELL_EXP = Experiment("mliki2016-dumbbell", "Mliki et al. 2016a — legacy QCN on the dumbbell (Fig. 2), multicast "
                          "vs multiple unicast", [DUMBBELL], CHOICES[:7], "legacy",
                          [k for k in _claims_000() if not k.key.startswith("multilink")],
                          figure_index=FIGS_000[:9], rests_on=REST_000,
                          targets=[(DUMBBELL, MU, (48.05, 44.49, 1.87), (8.93, 8.20, 7.94)),
                                   (DUMBBELL, MC, (2.49, 3.35, 2.46), (0.0, 0.39, 16.09))])
LEGACY = Experiment("mliki2016-legacy", "Mliki et al. 2016a — legacy QCN, multicast vs multiple unicast (dumbbell and "
                    "multi-link)", [DUMBBELL, MULTILINK_LEGACY, MULTILINK2_LEGACY], CHOICES, "legacy", _claims_000(),
                    figure_index=FIGS_000, rests_on=REST_000 + REST_ML,
                    targets=[(DUMBBELL, MU, (48.05, 44.49, 1.87), (8.93, 8.20, 7.94)),
                             (DUMBBELL, MC, (2.49, 3.35, 2.46), (0.0, 0.39, 16.09))])
ENHANCED = Experiment("mliki2016-enhanced", "Mliki et al. 2016b — QCN vs enhanced QCN for multicast (star and "
                      "multi-link)", [STAR, MULTILINK_ENHANCED, MULTILINK2_ENHANCED], CHOICES, "enhanced", _claims_001(),
                      numbers=NUMBERS_001, figure_index=FIGS_001, rests_on=REST_001 + REST_ML,
                      targets=[(MULTILINK_ENHANCED, QCN, QCN_ML_FEEDBACK, (None, None, None)),
                               (STAR, QCN, (13.16, 11.98, 3.8), (0.0, 3.15, 26.59)),
                               (STAR, EQCN, (8.04, 5.63, 2.27), (0.0, 2.17, 29.98))])
