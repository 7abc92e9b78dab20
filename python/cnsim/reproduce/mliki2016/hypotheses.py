"""What could the papers have measured as "feedback rate" (44–48 % multiple unicast, 88–89 %
multi-link) and "loss rate" (16–30 % at Qeq 75)? Each hypothesis is a metric variant of the
baseline runs (metrics.py) or a run with one choice changed (sensitivity.py settings), compared
with the paper's feedback numbers by the rule of compare.py (supported at each Qeq); switch loss and total loss (source
limiter drops + switch drops) are shown beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..compare import SUPPORTED
from .claims import paper_cell as cell
from .spec import QEQS, samples, show


@dataclass(frozen=True)
class Hypothesis:
    text: str
    setting: str          # "baseline", "cp.qcn.sampling=table" or a sensitivity.SETTINGS name
    metric: str = "feedback_rate_pct"
    note: str = ""


HYPOTHESES = [
    Hypothesis("cnsim's definition: CNMs sent ÷ data copies sent by the sources", "baseline"),
    Hypothesis("samples with Fb < 0 rather than CNMs sent", "baseline", "fb_negative_samples_pct",
               note="the CP sends a CNM only when QntzFb ≥ 1, so a sample whose Fb is negative by less than one "
                    "quantum (Qeq·(2W+1)/63) sends none (docs/modelling.md): samples with Fb < 0 outnumber CNMs"),
    Hypothesis("a CNM for every sample with Fb < 0 (QntzFb at least 1), as the papers word it",
               "cp.qcn.cnm_on_any_negative_fb=true"),
    Hypothesis("CNMs ÷ frames arriving at the CPs", "baseline", "feedback_per_cp_frame_pct"),
    Hypothesis("CNMs ÷ frames arriving at the busiest notifying CP", "baseline", "feedback_busiest_cp_pct"),
    Hypothesis("CNMs per copy received (per receiver)", "baseline", "feedback_per_delivered_pct"),
    Hypothesis("sparser sampling: the 802.1Qau table", "cp.qcn.sampling=table"),
    Hypothesis("sources that do not pace to CR: each copy at its own RP's rate", "limiter.copy_rate=own"),
    Hypothesis("sources that do not pace at all: no RP (CPs still notify)", "rp=none"),
    Hypothesis("a different decrease: GD = 1/126 (the papers' Gd × 63 = 1/2)", "rp.gd=1/126"),
    Hypothesis("a different RP: the papers' byte-counter-only wording", "rp.qcn.variant=byte-counter"),
    Hypothesis("a larger rate-limiter buffer (1000 frames)", "limiter.buffer=1000"),
]


def table(view, targets) -> list[str]:
    """Markdown: one block per target (topology, variant, paper feedback, paper loss); `view(setting)`
    gives the rows of a setting (None if it was not run)."""
    lines = []
    for topo, variant, fb, loss in targets:
        lines += [f"**{topo.title}, {variant}** — paper feedback {' / '.join(map(str, fb))} %, loss "
                  f"{' / '.join('–' if x is None else str(x) for x in loss)} % at Qeq 25/50/75.", "",
                  "| hypothesis | feedback % at Qeq 25 / 50 / 75 (mean ± 95 % CI) | vs paper | switch loss % | "
                  "total loss % | reproduces |", "|---|---|---|---|---|---|"]
        for h in HYPOTHESES:
            df = view(h.setting)
            if df is None:
                continue
            s = [samples(df, topo.key, variant, h.metric, q) for q in QEQS]
            if not any(s):
                lines.append(f"| {h.text} | {h.note or 'does not apply to this configuration'} | | | | |")
                continue
            v = [cell(p, x, h.metric).state for p, x in zip(fb, s)]
            sl = [samples(df, topo.key, variant, "loss_rate_pct", q) for q in QEQS]
            tl = [samples(df, topo.key, variant, "total_loss_pct", q) for q in QEQS]
            rep = "yes" if all(x == SUPPORTED for x in v) else ("partly" if SUPPORTED in v else "no")
            lines.append(f"| {h.text}{' — ' + h.note if h.note else ''} | {' / '.join(show(x) for x in s)} | "
                         f"{' / '.join(v)} | {' / '.join(show(x) for x in sl)} | {' / '.join(show(x) for x in tl)} | {rep} |")
        lines.append("")
    return lines


def reproduced(view, targets) -> list[str]:
    """The hypotheses whose feedback rows agree with the paper at every Qeq, per target."""
    out = []
    for topo, variant, fb, _ in targets:
        for h in HYPOTHESES:
            df = view(h.setting)
            if df is None:
                continue
            s = [samples(df, topo.key, variant, h.metric, q) for q in QEQS]
            if any(s) and all(cell(p, x, h.metric).state == SUPPORTED for p, x in zip(fb, s)):
                out.append(f"{topo.key}/{variant}: {h.text}")
    return out

