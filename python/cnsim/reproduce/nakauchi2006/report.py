"""The report of the Nakauchi & Kobayashi 2006 reproduction: the checks (claims.py), the project's
findings, the numbers per case over every seed, the differences from the paper explained with
numbers from these runs, the figures (seed 1) and the choices where the paper is silent."""

from __future__ import annotations

from .. import compare, prose
from ..paper import Report, Runs
from ..verdicts import Check
from . import claims, figures
from .experiment import BURST, CASE, CASES, QUICK_BURST
from .measure import CBR_MBPS, CHANNEL_MBPS, LOSSY, TOP_LEVEL

CHOICES = [
    "Topology (Fig. 3 is not in the text): sources → router RA → 50 Mb/s, 28 ms bottleneck → router RB → "
    "receivers, 1 Gb/s 1-ms access links; one-way delay 30 ms (70 ms: bottleneck 68 ms).",
    "RED on every queue: 100 packets, min_th 50 (the paper), max_th 100, max_p 0.1, w_q 0.002, gentle "
    "[assumed: ns-2 defaults; the paper gives only min_th].",
    "TCP: cnsim's Reno with SACK, 1460-B MSS, receiver window 1000 segments so that TCP is congestion-"
    "limited [assumed: the paper gives no TCP settings]; the 5 flows share one source and sink host.",
    "EMcast: evaluated once per Interval (0.2 s) with r_i the loss rate over that Interval; Fig. 2's add "
    "loop (several levels at once); T = the smallest fresh SIRENS available bandwidth on the path, the "
    "receiver's own channel not added back; RTT in R_i = twice the one-way delay; MTU 1500 B.",
    "SIRENS: LINK profile, TTL mode; the sender cycles req_ttl over the 2 routers; available bandwidth "
    "over 0.2-s windows; samples older than 1 s are stale.",
    "RLM: layers 100 kb/s, then 100·2^(k−2) kb/s (cumulative level k = EMcast's channel k); join timer "
    "3 s, detection timer 4 s, loss threshold 0.1 (the paper); α = 2, β = 0.75, gains 0.25 "
    "(docs/protocols.md §8); loss measured over 0.5-s ticks, detection timer TD + 2·TDvar [assumed].",
    "Group membership: joins and leaves take effect at once (leave latency 0 s [assumed]: ns-2's "
    "multicast prunes immediately).",
    "Throughput of a figure: bytes received per 1-s bin; the 10-receiver figures also plot the paper's "
    "'total throughput of all the ongoing groups in the session'.",
    "Verdicts: over every seed (the figures show seed 1). Seed 003's text keeps only the captions of Figs. 4–9, "
    "so no figure can be read: \"fair\" is on the channel nearest the fair share (within half a level, a factor "
    "√2: the channels are a factor 2 apart); \"about X seconds\" is X ± 5 s (the paper's times are round tens); "
    "\"quickly\" is faster than RLM's 3-s join timer; \"almost all\" of ten receivers is at least 9 (claims.py).",
]


def report(runs: Runs) -> Report:
    checks = claims.checks(runs) + project_findings(runs)
    burst = QUICK_BURST if runs.quick else BURST
    body = differences(runs) + numbers(runs) + draw(runs, burst)
    return Report(checks, body, CHOICES)


def _iv(runs: Runs, case: str, metric: str) -> str:
    return compare.interval(runs.values(metric, case=case)).show()


def project_findings(runs: Runs) -> list[Check]:
    """cnsim's own observations (not claims of the paper)."""
    em = runs.by_seed("emcast_mbps", case="fig5")
    tcp = runs.by_seed("tcp_mean_mbps", case="fig5")
    return [Check("fig5.emcast-above-tcp-at-70ms", "At 70 ms EMcast takes more than a TCP flow (paired by seed)",
                  "Fig. 5 case", compare.exceeds(em, tcp, compare.tolerance(max(tcp.values(), default=0.0), "Mb/s"),
                                                 paired=True),
                  "paired difference, minimum effect 20 % of the TCP rate", kind="project")]


def _shed(runs: Runs, top: int | None = None) -> str:
    """Layers RLM had to shed at the burst: from its level when the burst began (or `top`) down to the
    level that fits, as an interval over the seeds."""
    before = runs.by_seed("level_before_burst", case="fig8")
    fit = runs.by_seed("burst_fit_level", case="fig8")
    return compare.interval([(top if top is not None else before[s]) - fit[s] for s in before if s in fit]).show()


def _when(runs: Runs, burst: tuple[float, float]) -> str:
    """Where RLM's first arrival at the top level falls against the burst, in words, from the runs."""
    t = list(runs.values("t_reach_level9_s", case="fig8"))
    if not t:
        return "never, in any run"
    if min(t) >= burst[1]:
        return f"in every run after the burst has ended at {compare.num(burst[1])} s"
    if max(t) <= burst[0]:
        return f"in every run before the burst begins at {compare.num(burst[0])} s"
    return "in some runs before the burst and in others after it"


def differences(runs: Runs) -> list[str]:
    """The differences from the paper, explained; every number comes from these runs."""
    iv = lambda case, m: _iv(runs, case, m)  # noqa: E731
    burst = QUICK_BURST if runs.quick else BURST
    return ["## Differences from the paper, explained", "",
            "- " + prose.text(
                "{figs}: at {d4} EMcast receives {em4} Mb/s against {tcp4} Mb/s per TCP flow (fair share "
                "{fair4} Mb/s); at {d5} {em5} Mb/s against {tcp5} Mb/s (fair share {fair5} Mb/s). A TCP flow's rate "
                "falls with its RTT while EMcast's level rests on SIRENS' available bandwidth and drops only when "
                "an Interval sees a loss; with RED dropping rarely at the slower TCP rates, EMcast keeps a higher "
                "level at {d5} than its TCP share. The paper's figures show fair sharing at both delays.",
                figs=prose.ref("Figs. 4–5"), d4=prose.ref("30 ms"), d5=prose.ref("70 ms"),
                em4=iv("fig4", "emcast_mbps"), tcp4=iv("fig4", "tcp_mean_mbps"), fair4=iv("fig4", "fair_mbps"),
                em5=iv("fig5", "emcast_mbps"), tcp5=iv("fig5", "tcp_mean_mbps"), fair5=iv("fig5", "fair_mbps")),
            "- " + prose.text(
                "{fig}: RLM first reaches level {top}, the top that fits the empty bottleneck, at {t9} s ({when}), "
                "against the paper's {p50}. When the burst began at {start} s it held level {before} "
                "(reached at {t8} s), with a join timer of {join} s and a detection time per failed join. Beside the {cbr} Mb/s CBR flow the level "
                "that fits is {fit}, so RLM had {shed} layers to shed rather than the {shed_top} of a receiver at "
                "its optimal level, one detection time each: the seconds with more than {lossy} loss number {secs}, "
                "against the paper's {p10}. Both rows rest on how far RLM had climbed when the burst began.",
                fig=prose.ref("Fig. 8"), top=str(TOP_LEVEL), p50=prose.ref("'about 50 seconds'"),
                p10=prose.ref("'about 10 seconds'"), t9=iv("fig8", "t_reach_level9_s"),
                when=_when(runs, burst), start=compare.num(burst[0]), before=iv("fig8", "level_before_burst"),
                t8=iv("fig8", "t_reach_pre_burst_level_s"), join=compare.num(claims.JOIN_TIMER_S), cbr=compare.num(CBR_MBPS),
                fit=iv("fig8", "burst_fit_level"), shed=_shed(runs), shed_top=_shed(runs, TOP_LEVEL),
                lossy=f"{LOSSY:.0%}", secs=iv("fig8", "lossy_s_in_burst")),
            "- " + prose.text(
                "{figs}: the receivers' share on the most common final level is {s6} (one TCP flow) and {s7} (five): "
                "they sit behind the same router port, so they see the same SIRENS values and losses and decide "
                "alike; the paper's topology may have given them different paths.",
                figs=prose.ref("Figs. 6–7"), s6=iv("fig6", "share_at_modal"), s7=iv("fig7", "share_at_modal")),
            "- " + prose.text(
                "{fig}: against one TCP flow the ten receivers get {em} Mb/s, {ratio} of the fair share of {fair} "
                "Mb/s. The channels double from level to level, so between the level below the fair share and the "
                "one above it lies a factor of two: the receivers settle on the most common final level {lvl}, the "
                "last one below the fair share, and drop from the next one on the losses it brings. With five TCP flows ({fig7}) the fair share lies near a channel rate and the ratio is {ratio7}.",
                fig=prose.ref("Fig. 6"), fig7=prose.ref("Fig. 7"), em=iv("fig6", "emcast_mbps"),
                ratio=iv("fig6", "emcast_over_fair"), fair=iv("fig6", "fair_mbps"), lvl=iv("fig6", "modal_level"),
                ratio7=iv("fig7", "emcast_over_fair")),
            ""]


def numbers(runs: Runs) -> list[str]:
    """Every number per case: mean ± 95 % interval over the seeds, and the range."""
    lines = ["## Numbers per case (mean ± 95 % interval over seeds, min–max)", "",
             "| case | metric | mean ± 95 % CI (n) | min | max |", "|---|---|---|---|---|"]
    df = runs.frame
    for (case, metric), g in df.groupby(["case", "metric"], sort=True):
        v = g["value"]
        lines.append(f"| {CASE[case].figure} | {metric} | {compare.interval(v.tolist()).show()} | "
                     f"{compare.num(v.min())} | {compare.num(v.max())} |")
    return lines + [""]


def draw(runs: Runs, burst: tuple[float, float]) -> list[str]:
    lines = ["## Figures (seed 1)", ""]
    for case in CASES:
        extra = runs.extra(seed=1, case=case.key)
        if not extra:
            continue
        path = figures.draw(case, extra, runs.out / "figures" / f"{case.key}.png", burst)
        lines += [f"### {case.figure}: {case.title}", "", f"![{case.key}](figures/{path.name})", ""]
    lines += [f"Channels: {', '.join(compare.num(r) for r in CHANNEL_MBPS)} Mb/s.", ""]
    return lines
