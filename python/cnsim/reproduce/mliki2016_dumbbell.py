"""Seed 000 (Mliki et al. 2016, legacy QCN), the dumbbell of Fig. 2: six multicast sessions
(scenario A) vs six multiple-unicast sessions (scenario B), Qeq 25/50/75 frames.

The papers' CPs evaluate every frame (REPRODUCTION.md); the standard's sampling table is re-run as a
comparison. Paper numbers are from seed 000 §3.1–3.3 (REPRODUCTION.md's table).
"""

from __future__ import annotations

import json
import statistics as st
from pathlib import Path

import pandas as pd

from .runner import Job, run_all

NAME = "mliki2016-dumbbell"
TITLE = "Seed 000 — legacy QCN, multicast vs multiple unicast on the dumbbell (Fig. 2)"
ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = {
    "multicast": ROOT / "scenarios/mliki2016/dumbbell-multicast.toml",
    "multiple-unicast": ROOT / "scenarios/mliki2016/dumbbell-multiple-unicast.toml",
}
QEQS = (25, 50, 75)
# seed 000 §3.2–3.3 (percent of the total frame stream)
PAPER = {
    ("feedback_rate_pct", "multicast"): (2.49, 3.35, 2.46),
    ("feedback_rate_pct", "multiple-unicast"): (48.05, 44.49, 1.87),
    ("loss_rate_pct", "multicast"): (0.0, 0.39, 16.09),
    ("loss_rate_pct", "multiple-unicast"): (8.93, 8.20, 7.94),
    # "the queue load starts to build up after the first 4 s" (multicast) / "the first 3 s" (MU), §3.1
    ("first_cnm_s", "multicast"): (4.0, 4.0, 4.0),
    ("first_cnm_s", "multiple-unicast"): (3.0, 3.0, 3.0),
}
METRICS = {
    "feedback_rate_pct": ("feedback rate (% of data frames sent)", "Fig. 11"),
    "loss_rate_pct": ("loss rate (% of data frames sent)", "Fig. 12"),
    "first_cnm_s": ("RP start time of congestion detection (s)", "Figs. 3–10"),
    "cr_std_mbps": ("CR std-dev (Mb/s)", "Fig. 13"),
    "cr_mean_mbps": ("mean session CR (Mb/s); reference CR_mean = 1000/6 = 166.7", "Figs. 3–8"),
    "q_mean_frames": ("mean queue Switch1>Switch2 (frames)", "Fig. 14"),
    "q_dev_from_qeq_frames": ("mean queue − Qeq (frames)", "Fig. 15"),
    "jain_cr": ("Jain fairness over session CRs", "Fig. 16"),
}
QUICK = {"simulation.duration": "5.6s", "simulation.measure_from": "5.1s"}


def _jobs(out: Path, seeds: int, quick: bool) -> list[Job]:
    jobs = []
    samplings = ("every-frame",) if quick else ("every-frame", "table")
    for sampling in samplings:
        for mode, path in SCENARIOS.items():
            for qeq in QEQS:
                key = f"{sampling}/{mode}/qeq{qeq}"
                sets = {"cp.qeq": f"{qeq} frames", "cp.sampling": sampling, **(QUICK if quick else {})}
                for seed in range(1, seeds + 1):
                    keep = seed == 1 and sampling == "every-frame"
                    jobs.append(Job(key, str(path), tuple(sets.items()), seed,
                                    out=str(out / "runs" / f"{mode}-qeq{qeq}") if keep else None,
                                    extra={"mode": mode, "qeq": qeq, "sampling": sampling}))
    return jobs


def _row(r: dict) -> dict:
    g = r["summary"]["global"]
    main = r["summary"]["queues"].get(g.get("main_cp") or "", {})
    row = {k: r[k] for k in ("mode", "qeq", "sampling", "seed")}
    row.update({k: g.get(k) for k in ("feedback_rate_pct", "loss_rate_pct", "first_cnm_s", "cr_std_mbps",
                                       "cr_mean_mbps", "jain_cr", "source_loss_pct")})
    row["q_mean_frames"] = main.get("q_mean_frames")
    row["q_dev_from_qeq_frames"] = main.get("q_dev_from_qeq_frames")
    return row


AGREEMENT = ("agrees: |cnsim mean − paper| ≤ max(25 % of the paper's value, 0.25 in the metric's unit) "
             "+ 2 standard errors over seeds")


def _verdict(paper: float, mean: float, std: float, n: int) -> str:
    tol = max(0.25 * abs(paper), 0.25) + 2 * std / max(n, 1) ** 0.5
    if abs(mean - paper) <= tol:
        return "agrees"
    return "higher than the paper" if mean > paper else "lower than the paper"


def _fmt(x) -> str:
    return "–" if x is None or x != x else (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}")


def _table(df: pd.DataFrame, sampling: str, metric: str) -> list[str]:
    lines = [f"| mode | Qeq | paper | cnsim mean ± std (n) | agreement |", "|---|---|---|---|---|"]
    for mode in SCENARIOS:
        for i, qeq in enumerate(QEQS):
            vals = [v for v in df[(df["mode"] == mode) & (df.qeq == qeq) & (df.sampling == sampling)][metric] if v is not None and v == v]
            mean = st.fmean(vals) if vals else None
            std = st.pstdev(vals) if len(vals) > 1 else 0.0
            paper = PAPER.get((metric, mode))
            p = paper[i] if paper else None
            verdict = _verdict(p, mean, std, len(vals)) if p is not None and mean is not None else "no number in the paper"
            lines.append(f"| {mode} | {qeq} | {_fmt(p)} | {_fmt(mean)} ± {_fmt(std)} ({len(vals)}) | {verdict} |")
    return lines


FINDINGS = """\
## Findings and reasons for differences

Read these next to the tables above; they explain the mechanisms, the tables give the numbers.

- **Onset of congestion.** Multicast: the first CNM arrives just after 4 s, when the fifth 200 Mb/s
  source starts: 5 × 200 Mb/s of 1500-B frames plus 20 B of preamble and inter-frame gap per frame
  is 1.013 Gb/s on the wire, just above the 1 Gb/s link — the paper's "after the first 4 s".
  Multiple unicast: congestion starts at 2 s, not ~3 s as the paper says: with two copies per
  source the third source (t = 2 s) already offers 3 × 2 × 200 Mb/s = 1.2 Gb/s to the
  Switch1→Switch2 link. The paper's 3 s does not follow from its own stated parameters.
- **Multiple-unicast feedback (44–48 % in the paper at Qeq 25/50).** cnsim paces both copies of a
  session at CR = min r_i, which throttles the session as soon as either copy is notified; the queue
  then stays near or below Qeq and the CP has little to report. Rates of 44–48 % need a CP that finds
  Fb < 0 on about every other frame for the whole run, i.e. a queue that stays above Qeq — which
  happens only when the sources are not slowed down. The paper does not say how its 200 Mb/s CBR
  application meets the rate limiter; `rp.copy_rate = "own"` (each copy at its own RP's rate) is
  the documented alternative and can be swept.
- **Loss at high Qeq.** With every frame evaluated, cnsim's CPs react before the 100-frame buffer
  overflows and loss stays small; with the standard's sampling table (one sample per 18.75–150 kB)
  feedback is sparser and the loss at Qeq 75 comes close to the paper's order of magnitude (see the
  second set of tables). The paper's large loss at Qeq 75 fits sparse feedback better than
  per-frame evaluation, while its feedback rates fit per-frame evaluation: the two cannot both come
  from one of these readings.
- **Standard sampling.** With the sampling table the feedback rate cannot exceed ~8 % of 1500-B
  frames per CP, so the paper's 44–48 % are out of reach by construction.
"""


def reproduce(out: Path, *, seeds: int = 3, jobs: int | None = None, quick: bool = False) -> Path:
    from . import figures

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seeds = 1 if quick else seeds
    results = run_all(_jobs(out, seeds, quick), jobs, label=NAME)
    df = pd.DataFrame([_row(r) for r in results])
    df.to_parquet(out / "results.parquet")
    figs = figures.draw(df, PAPER, QEQS, tuple(SCENARIOS), out / "figures", runs=out / "runs")
    lines = [f"# {TITLE}", "",
             f"Re-run with `cnsim reproduce {NAME}{' --quick' if quick else ''}` "
             f"({seeds} seed(s) per configuration; windowed metrics over the scenario's measurement window). "
             "Scenarios: `scenarios/mliki2016/dumbbell-*.toml`; every choice the paper leaves open is marked "
             "CHOICE in them and listed below.", "",
             "## Choices where the paper is silent", "",
             "- Run length 10 s, measurement window 5–10 s (all six sources active); the paper states neither.",
             "- CPs evaluate every arriving data frame (seed 001 §2.1); Qold is updated when feedback is sent (seed 000 §2.1).",
             "- Links: 1 µs propagation delay, 20 B of preamble + IFG per frame; CNMs are 64-B frames queued like data.",
             "- RP: the 802.1Qau pseudo-code (byte counter and 10 ms timer, extra fast recovery), GD = 1/128, Rmin = 10 Mb/s; "
             "the paper's Gd·63 = 1/2 would give GD = 1/126.",
             "- Sources pace at min(application rate, CR); a rate limiter holds up to 100 frames (source-side loss beyond).",
             "- Multiple unicast: both copies leave at the session rate CR = min r_i (seed 000 §3); "
             "CR metrics use the session rate.",
             "- Rates are percentages of data frame copies sent by the sources in the window.", "",
             f"Agreement rule: {AGREEMENT}.", ""]
    for sampling, head in (("every-frame", "every frame evaluated (the papers' reading)"),
                           ("table", "802.1Qau sampling table (comparison)")):
        if sampling not in set(df.sampling):
            continue
        lines += [f"## Results — {head}", ""]
        for metric, (label, fig) in METRICS.items():
            lines += [f"### {label} — paper {fig}", ""] + _table(df, sampling, metric) + [""]
    lines += [FINDINGS, "## Figures", ""]
    lines += [f"![{p.stem}]({p.relative_to(out).as_posix()})" for p in figs]
    lines += ["", "Per-run outputs (summary.json, series.parquet, figures) of seed 1: `runs/`.", ""]
    report = out / "report.md"
    report.write_text("\n".join(lines))
    (out / "summary.json").write_text(json.dumps(df.to_dict(orient="records"), indent=1, default=str))
    return report
