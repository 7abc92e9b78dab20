"""The experiments of seeds 000 and 001 (Mliki et al. 2016), as `cnsim reproduce` specifications:

- `mliki2016-dumbbell`: seed 000's dumbbell only (the README's main job; fast);
- `mliki2016-legacy`: seed 000 — dumbbell and multi-link topology, multicast vs multiple unicast;
- `mliki2016-enhanced`: seed 001 — star and multi-link topology, QCN vs E-QCN (multicast).

Paper numbers: seed 000 §3.1–3.3, seed 001 §4.1–4.6 (REPRODUCTION.md). Claims: each paper's
Table 1, verbatim, with the comparison cnsim makes to test it.
"""

from __future__ import annotations

from . import claims as c
from .common import Claim, Experiment, Number, Topology, with_rp

MC, MU = "multicast", "multiple-unicast"
QCN, EQCN = "qcn", "eqcn"
DUMBBELL = Topology(
    "dumbbell", "Seed 000 dumbbell (Fig. 2)",
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
)
MULTILINK_LEGACY = Topology(
    "multilink", "Seed 000 multi-link topology (Fig. 17, reconstructed: docs/topologies.md)",
    {MC: ("scenarios/mliki2016/multilink-multicast.toml", {}),
     MU: ("scenarios/mliki2016/multilink-multiple-unicast.toml", {})},
    figs={"feedback_rate_pct": "Figs. 18–20", "loss_rate_pct": "Figs. 21–23", "q_dev_from_qeq_frames": "Figs. 24–26",
          "cr_std_mbps": "Figs. 27–29", "jain_cr": "Figs. 30–31"},
)
STAR = Topology(
    "star", "Seed 001 star (Fig. 1)",
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
)
MULTILINK_ENHANCED = Topology(
    "multilink", "Seed 001 multi-link topology (Fig. 13, reconstructed: docs/topologies.md)",
    {QCN: ("scenarios/mliki2016/multilink-multicast.toml", {}),
     EQCN: ("scenarios/mliki2016/multilink-multicast.toml",
            with_rp("scenarios/mliki2016/multilink-multicast.toml", "eqcn"))},
    # §4.6.1: QCN 87.92 / 89.02 / 4.24 %; E-QCN "reduced by −41 %, −41.23 %, −60.14 %"
    paper={("feedback_rate_pct", QCN): (87.92, 89.02, 4.24),
           ("feedback_rate_pct", EQCN): (round(87.92 * 0.59, 2), round(89.02 * (1 - 0.4123), 2), round(4.24 * (1 - 0.6014), 2))},
    notes={("feedback_rate_pct", QCN): "text §4.6.1; reconstructed topology",
           ("feedback_rate_pct", EQCN): "DERIVED: QCN value × (1 − stated reduction 41 / 41.23 / 60.14 %); reconstructed topology"},
    figs={"feedback_rate_pct": "Fig. 14", "loss_rate_pct": "Fig. 15", "q_std_frames": "Figs. 16–18", "jain_cr": "Figs. 19–21"},
)

CHOICES = [
    "Run length 10 s, measurement window 5–10 s (all sources active); the papers state neither.",
    "CPs evaluate every arriving data frame (seed 001 §2.1); Qold is updated when feedback is sent "
    "(seed 000 §2.1). The standard's sampling table is re-run as a comparison.",
    "Links: 1 µs propagation delay, 20 B of preamble + IFG per frame; CNMs are 64-B frames queued like data.",
    "RP: the 802.1Qau pseudo-code (byte counter and 10 ms timer, extra fast recovery), GD = 1/128, Rmin = 10 Mb/s; "
    "the papers' Gd·63 = 1/2 would give GD = 1/126.",
    "Sources pace at min(application rate, CR); a rate limiter holds up to 100 frames (source-side loss beyond).",
    "Multiple unicast: both copies leave at the session rate CR = min r_i (seed 000 §3); CR metrics use the session rate.",
    "Feedback rate: CNMs ÷ data frame copies sent by the sources, in the window; loss rate: copies dropped ÷ all "
    "copies (those sent plus those made at multicast branching points), so it cannot exceed 100 %; per group, over "
    "the group's own copies (CNMs received by its RPs, its copies dropped).",
    "E-QCN: decrease with the saved F̂b (Algorithm 1 as written); equal |Fb| broken by the CPID the RP selected (seed 001 §4).",
    "Multi-link and star topologies are reconstructed from the prose (docs/topologies.md).",
]

FINDINGS_000 = """\
## Findings and reasons for differences (seed 000)

Read these next to the tables above; they explain the mechanisms, the tables give the numbers.

- **Onset of congestion.** Multicast: the first CNM arrives just after 4 s, when the fifth 200 Mb/s
  source starts: 5 × 200 Mb/s of 1500-B frames plus 20 B of preamble and inter-frame gap per frame
  is 1.013 Gb/s on the wire, just above the 1 Gb/s link — the paper's "after the first 4 s".
  Multiple unicast: congestion starts at 2 s, not ~3 s as the paper says: with two copies per
  source the third source (t = 2 s) already offers 3 × 2 × 200 Mb/s = 1.2 Gb/s to the
  Switch1→Switch2 link. The paper's 3 s does not follow from its own stated parameters.
- **Multiple-unicast feedback (44–48 % in the paper at Qeq 25/50).** Every-frame evaluation does
  not explain it: cnsim's CPs evaluate every frame and send CNMs for 1–3 % of the frames. The
  hypotheses section tests what else the paper may have counted — samples with Fb < 0 (the same
  count, by construction, with every frame evaluated), CNMs relative to frames at the CP, at the
  busiest CP or per copy received, copies paced at their own RP's rate (`limiter.copy_rate = "own"`),
  sources with no RP, GD = 1/126, the byte-counter RP, a 1000-frame limiter buffer, the sampling
  table. None gives 44–48 % at Qeq 25/50 together with ≈ 2 % at Qeq 75: paced sources keep the
  queue near Qeq whatever the variant, and a source that is not slowed (no RP) makes every frame
  a CNM at every Qeq (100 %). What the paper counted remains open; its 1.87 % at Qeq 75 next to
  44–48 % at 25/50 is not a trend any of these mechanisms produces.
- **Loss.** The paper's loss rates (up to 16 % multicast, ≈ 8 % multiple unicast) compare with
  cnsim's switch loss, which is ≈ 0 with every frame evaluated; with the sampling table it grows
  with Qeq (multicast ≈ 2 %, multiple unicast ≈ 12 % at Qeq 75). The excess offered load is lost
  at the sources instead: total loss ≈ 10 % multicast and ≈ 59 % multiple unicast at every Qeq,
  because sessions settle near the link's fair share, far below the 200 Mb/s the application offers,
  and the rate limiters' buffers overflow. The paper's large loss at Qeq 75 fits sparse feedback,
  while its feedback rates would need dense feedback: the two cannot both come from one of these
  readings.
- **Standard sampling.** With the sampling table the feedback rate cannot exceed ~8 % of 1500-B
  frames per CP, so the paper's 44–48 % are out of reach by construction.
"""

FINDINGS_001 = """\
## Findings and reasons for differences (seed 001)

- **Feedback reduction.** E-QCN's representative test with the CPID tie-break leaves one notifying
  queue per source where QCN has two (star) or up to three (multi-link); cnsim's reduction follows
  from that mechanism — compare the tables above with the paper's 39–60 %.
- **The F̂b ratchet.** Algorithm 1 lets F̂b only grow until it reaches exactly 63. Once an RP has
  saved a large F̂b from one CP, another CP whose |Fb| stays below that value never notifies it —
  even with its queue full and dropping — and a steadily full queue has a small |Fb| (Qdelta ≈ 0).
  On the multi-link topology, where G1's and G2's sources meet two CPs in turn, this is how E-QCN
  can lose far more than QCN at low Qeq (see the multi-link loss table); the paper reports the
  opposite at low Qeq and more E-QCN loss only at Qeq 75. `rp.eqcn.decrease = "received"` and
  `cp.qcn.eqcn_tie_break = false` are the documented alternatives; neither changes the ratchet, which is
  in Algorithm 1 as published.
- **Multi-link feedback of 88–89 %.** None of the hypotheses of the hypotheses section reproduces
  it (see the table): with paced sources cnsim's multi-link CPs send CNMs for a few percent of the
  frames; a source without RP makes every frame a CNM (≈ 100 % at every Qeq, not the paper's 4 % at
  Qeq 75).
- **Average rate (+12.48 % at Qeq 25).** Compared as a number on mean throughput, paired by seed
  (the paper's CR values above 200 Mb/s carry no traffic): see "The paper's numbers".
"""


REFERENCE_CR = 1000 / 6  # CR_mean = 1 Gb/s ÷ 6 sources (seed 000 §3.1), Mb/s
RMIN = 10.0              # Mb/s (seed 000 §3.1)


def _claims_000() -> list[Claim]:
    d, m = DUMBBELL, MULTILINK_LEGACY
    return [
        Claim("RP start time — multicast: congestion occurs slower than the multiple unicast scenario",
              c.schemes(d, "first_cnm_s", MC, MU, a_higher=True)),
        Claim("Feedback — multicast: the queue generates feedback frames almost steadily with the different Qeq values",
              c.steady(d, MC, "feedback_rate_pct")),
        Claim("Feedback — multicast: the feedback rate is lower than the multiple unicast case",
              c.schemes(d, "feedback_rate_pct", MC, MU, a_higher=False)),
        Claim("Feedback — multiple unicast: the more the threshold Qeq decreases, the more the queue generates feedback frames",
              c.qeq_trend(d, MU, "feedback_rate_pct", increasing=False)),
        Claim("Loss — multicast: the loss rate is lower than the multiple unicast case (switch loss)",
              c.schemes(d, "loss_rate_pct", MC, MU, a_higher=False)),
        Claim("Loss — multicast: the loss rate is lower than the multiple unicast case (total loss, limiters included)",
              c.schemes(d, "total_loss_pct", MC, MU, a_higher=False)),
        Claim("Loss — multicast: as the threshold Qeq increases, the loss rate also increases",
              c.qeq_trend(d, MC, "loss_rate_pct", increasing=True)),
        Claim("Loss — multiple unicast: the loss rate increases when the threshold Qeq increases",
              c.qeq_trend(d, MU, "loss_rate_pct", increasing=True)),
        Claim("Stability — multicast: the stability is better than the multiple unicast case (lower CR std-dev)",
              c.schemes(d, "cr_std_mbps", MC, MU, a_higher=False)),
        Claim("Fairness — multicast: the fairness is better than the multiple unicast case (Jain over session CRs)",
              c.schemes(d, "jain_cr", MC, MU, a_higher=True)),
        Claim("Fairness — multicast: the fairness is better than the multiple unicast case (Jain over throughputs)",
              c.schemes(d, "jain_throughput", MC, MU, a_higher=True)),
        Claim("Text §3.1: CR never falls below Rmin = 10 Mb/s (every run, every setting)", c.floor("cr_min_mbps", RMIN)),
        Claim("Text §3.2: multicast CR converges above CR_mean = 1 Gb/s ÷ 6 as Qeq grows (Qeq 75)",
              c.versus(d, MC, "cr_mean_mbps", REFERENCE_CR, above=True, qeqs=(75,))),
        Claim("Text §3.2: multiple-unicast CR settles below CR_mean = 1 Gb/s ÷ 6",
              c.versus(d, MU, "cr_mean_mbps", REFERENCE_CR, above=False)),
        Claim("Scalability — multicast group far from CPs (G1) has better performance: fewer feedback frames than G2, G3 (§3.6.1)",
              c.groups_fewer(m, MC, "feedback_rate_pct", ("G2", "G3"), "G1")),
    ]


def _claims_001() -> list[Claim]:
    s, m = STAR, MULTILINK_ENHANCED
    return [
        Claim("RP rate — E-QCN improves the average traffic rate at the RP (on throughput, which cannot exceed the "
              "application's 200 Mb/s)", c.schemes(s, "throughput_mean_mbps", EQCN, QCN, a_higher=True)),
        Claim("Feedback — QCN: the feedback rate is higher than the enhanced QCN",
              c.schemes(s, "feedback_rate_pct", QCN, EQCN, a_higher=True)),
        Claim("Feedback — QCN: the more the Qeq threshold decreases, the more the queue generates feedback frames",
              c.qeq_trend(s, QCN, "feedback_rate_pct", increasing=False)),
        Claim("Loss — QCN: the loss rate is higher than the enhanced QCN (switch loss)",
              c.schemes(s, "loss_rate_pct", QCN, EQCN, a_higher=True)),
        Claim("Loss — QCN: the loss rate is higher than the enhanced QCN (total loss, limiters included)",
              c.schemes(s, "total_loss_pct", QCN, EQCN, a_higher=True)),
        Claim("Loss — QCN: as the Qeq threshold increases, the loss rate also increases",
              c.qeq_trend(s, QCN, "loss_rate_pct", increasing=True)),
        Claim("Loss — E-QCN: the loss rate is reduced (below QCN's) when the Qeq threshold values are low (25, 50)",
              c.schemes(s, "loss_rate_pct", EQCN, QCN, a_higher=False, qeqs=(25, 50))),
        Claim("Stability — E-QCN: better stability (lower CR std-dev than QCN) when the Qeq values are decreased (25, 50)",
              c.schemes(s, "cr_std_mbps", EQCN, QCN, a_higher=False, qeqs=(25, 50))),
        Claim("Stability — QCN: better stability (lower CR std-dev than E-QCN) when the Qeq values are increased (75)",
              c.schemes(s, "cr_std_mbps", QCN, EQCN, a_higher=False, qeqs=(75,))),
        Claim("Fairness — similar fairness (Jain over session CRs, E-QCN vs QCN)", c.alike(s, "jain_cr", EQCN, QCN)),
        Claim("Fairness — similar fairness (Jain over throughputs, E-QCN vs QCN)", c.alike(s, "jain_throughput", EQCN, QCN)),
        Claim("Text: CR never falls below Rmin = 10 Mb/s (every run, every setting)", c.floor("cr_min_mbps", RMIN)),
        Claim("Scalability — E-QCN decreases the feedback overhead (multi-link)",
              c.schemes(m, "feedback_rate_pct", EQCN, QCN, a_higher=False)),
        Claim("Scalability — E-QCN decreases the loss rate (multi-link; §4.6.2: at low Qeq 25, 50)",
              c.schemes(m, "loss_rate_pct", EQCN, QCN, a_higher=False, qeqs=(25, 50))),
    ]


def _gain(df) -> list:
    """E-QCN's gain in mean throughput over QCN on the star at Qeq 25, %, per seed (paired by seed)."""
    e = df[(df.topology == "star") & (df.variant == EQCN) & (df.qeq == 25) & (df.part == "all") & (df.metric == "throughput_mean_mbps")]
    q = df[(df.topology == "star") & (df.variant == QCN) & (df.qeq == 25) & (df.part == "all") & (df.metric == "throughput_mean_mbps")]
    q = dict(zip(q.seed, q.value))
    return [(v / q[k] - 1) * 100 for k, v in zip(e.seed, e.value) if k in q and q[k]]


NUMBERS_001 = [Number("E-QCN's gain in average rate over QCN on the star at Qeq 25 (Fig. 6; cnsim: mean throughput, "
                      "paired by seed), %", 12.48, "%", _gain)]

REST_COMMON = [
    "Topologies: seed 000's dumbbell is stated in full; the multi-link topology (seed 000 Fig. 17, seed 001 Fig. 13) and "
    "seed 001's star are RECONSTRUCTED from the prose (docs/topologies.md) — every number on them rests on that "
    "reconstruction.",
    "The papers give one value per point with no spread; cnsim gives a mean and a 95 % interval over seeds. The "
    "seeds vary the RP's jittered byte-counter and timer cycles (and the sampling table's jitter).",
    "Loss: the papers' \"loss rate\" is compared with cnsim's switch loss; total loss (rate-limiter drops at the "
    "sources plus switch drops) is shown beside it everywhere — in cnsim most of the excess offered load is lost "
    "at the sources, not in the switches.",
]
REST_000 = REST_COMMON + [
    "First CNM ≈ 4 s (multicast) rests on the 20-B wire overhead (preamble + SFD + IFG): 5 × 200 Mb/s of 1500-B "
    "frames is 1.013 Gb/s on the wire. Without it (`defaults.link.overhead=0B`, sensitivity section) the fifth "
    "source does not overload the link and the first CNM comes at ≈ 5 s.",
    "The paper's first-CNM times (4 s, 3 s) are read from its prose (\"after the first 4 s\"), not from a table.",
]
REST_001 = REST_COMMON + [
    "Multi-link E-QCN feedback values are DERIVED: the paper gives QCN's 87.92 / 89.02 / 4.24 % and E-QCN's "
    "reduction (41 / 41.23 / 60.14 %); the E-QCN values compared are QCN × (1 − reduction).",
    "The +12.48 % gain of E-QCN's average CR (Fig. 6, Qeq 25) is compared as a number, on mean throughput per "
    "(flow, receiver): CR values above the application's 200 Mb/s do not carry traffic, so a gain in CR there is "
    "not a gain in rate.",
    "Seed 001 gives no start times: the star uses seed 000's (0.1, 1, 2, 3, 4, 5 s).",
]

_CR = "CR (Mb/s) vs time (s) per source"
FIGS_000 = [
    ("Figs. 3–5", f"{_CR}, multicast, Qeq 25/50/75", "`figures/dumbbell-cr.png` (panels dumbbell-multicast-qeq25/50/75; "
     "session CR, seed 1, dashed line CR_mean)"),
    ("Figs. 6–8", f"{_CR}, multiple unicast, Qeq 25/50/75", "`figures/dumbbell-cr.png` (panels multiple-unicast; session CR = min r_i)"),
    ("Figs. 9–10", "queue size (frames) vs time, Qeq 25, multicast / multiple unicast",
     "`figures/dumbbell-queues.png` (every CP queue that holds frames, each kept run)"),
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
    ("Figs. 19–21", "Jain fairness of G1 / G2 / G3 vs Qeq", "`figures/multilink-groups-every-frame.png` panel Jain over CR"),
    ("queue vs time", "(not a paper figure) queue per CP vs time", "`figures/star-queues.png`, `figures/multilink-queues.png`"),
]

DUMBBELL_EXP = Experiment("mliki2016-dumbbell", "Seed 000 — legacy QCN on the dumbbell (Fig. 2), multicast vs multiple unicast",
                          [DUMBBELL], CHOICES[:7], FINDINGS_000, _claims_000()[:14],
                          figure_index=FIGS_000[:9], rests_on=REST_000,
                          targets=[(DUMBBELL, MU, (48.05, 44.49, 1.87), (8.93, 8.20, 7.94)),
                                   (DUMBBELL, MC, (2.49, 3.35, 2.46), (0.0, 0.39, 16.09))])
LEGACY = Experiment("mliki2016-legacy", "Seed 000 — legacy QCN, multicast vs multiple unicast (dumbbell and multi-link)",
                    [DUMBBELL, MULTILINK_LEGACY], CHOICES, FINDINGS_000, _claims_000(),
                    figure_index=FIGS_000, rests_on=REST_000,
                    targets=[(DUMBBELL, MU, (48.05, 44.49, 1.87), (8.93, 8.20, 7.94)),
                             (DUMBBELL, MC, (2.49, 3.35, 2.46), (0.0, 0.39, 16.09))])
ENHANCED = Experiment("mliki2016-enhanced", "Seed 001 — QCN vs enhanced QCN for multicast (star and multi-link)",
                      [STAR, MULTILINK_ENHANCED], CHOICES, FINDINGS_001, _claims_001(),
                      numbers=NUMBERS_001, figure_index=FIGS_001, rests_on=REST_001,
                      targets=[(MULTILINK_ENHANCED, QCN, (87.92, 89.02, 4.24), (None, None, None)),
                               (STAR, QCN, (13.16, 11.98, 3.8), (0.0, 3.15, 26.59)),
                               (STAR, EQCN, (8.04, 5.63, 2.27), (0.0, 2.17, 29.98))])
