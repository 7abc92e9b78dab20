"""One fabric and one workload under every congestion control: FCT slowdowns side by side.

The k-ary fat tree of `cnsim.generators.fat_tree` (ECMP, 10 Gb/s links of 1 µs) carries the
web-search workload (Poisson arrivals at `load` of every host's link, arrivals until `arrivals`,
the run lasting `duration` so that most transfers finish); the sweep's one key is `cc`, the fabric
preset, taken from the engine's registry (`cnsim.generators.fabric_presets()`: QCN, DCQCN, DCTCP,
HPCC, TIMELY and Swift today). It writes one table (`fct.csv`: a row per congestion control, the
median and 99th-percentile FCT slowdown and the completed transfers per flow-size bucket) and one
figure (`fct.png`), and prints the table. docs/scenarios.md ("One fabric, every congestion
control") gives the command and what to read in the result.

    python scripts/cc_sweep.py --out cc-sweep                 # k = 8, 20 ms: a few minutes
    python scripts/cc_sweep.py --k 4 --duration 4ms --arrivals 2ms --out /tmp/cc   # seconds
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

import cnsim
from cnsim.generators import fabric_presets, fat_tree


def run_one(cc: str, k: int, workload: str, load: float, duration: str, arrivals: str, seed: int) -> pd.DataFrame:
    """The FCT table (one row per size bucket) of one run under preset `cc`."""
    text = fat_tree(k, cc=cc, workload=workload, load=load, duration=duration)
    result = cnsim.run(text, set={"workload.0.stop": arrivals, "simulation.seed": seed}, figures=False)
    return result.table("fct")


def sweep(k: int = 8, workload: str = "web-search", load: float = 0.5, duration: str = "20ms",
          arrivals: str = "10ms", seed: int = 1, ccs: list[str] | None = None) -> pd.DataFrame:
    """One row per congestion control; columns `BUCKET p50`, `BUCKET p99` (FCT slowdown) and
    `BUCKET done` ("completed/flows") for each flow-size bucket."""
    rows = {}
    for cc in ccs or list(fabric_presets()):
        fct = run_one(cc, k, workload, load, duration, arrivals, seed)
        row = {}
        for bucket, r in fct.iterrows():
            row[f"{bucket} p50"] = r["slowdown_median"]
            row[f"{bucket} p99"] = r["slowdown_p99"]
            row[f"{bucket} done"] = f"{int(r['completed'])}/{int(r['flows'])}"
        rows[cc] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("cc")


def buckets(table: pd.DataFrame) -> list[str]:
    return [c[: -len(" p50")] for c in table.columns if c.endswith(" p50")]


def figure(table: pd.DataFrame, path: Path, title: str) -> None:
    """Grouped bars: per size bucket, one bar per congestion control (median slowdown), its 99th
    percentile as a tick above it; buckets with no completed transfer are left empty."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bs = buckets(table)
    width = 0.8 / max(len(table), 1)
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, (cc, row) in enumerate(table.iterrows()):
        xs = [j + (i - (len(table) - 1) / 2) * width for j in range(len(bs))]
        p50 = [row[f"{b} p50"] for b in bs]
        p99 = [row[f"{b} p99"] for b in bs]
        bars = ax.bar(xs, [v if _finite(v) else 0 for v in p50], width, label=cc)
        ax.scatter([x for x, v in zip(xs, p99) if _finite(v)], [v for v in p99 if _finite(v)],
                   marker="_", s=120, color=bars.patches[0].get_facecolor() if bars.patches else None)
    ax.set_xticks(range(len(bs)), bs)
    ax.set_yscale("log")
    ax.set_ylabel("FCT slowdown (bar: median, tick: p99)")
    ax.set_title(title)
    ax.legend(ncol=3, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)


def main(argv: list[str] | None = None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=8, help="fat tree arity (k³/4 hosts); default 8")
    ap.add_argument("--workload", default="web-search")
    ap.add_argument("--load", type=float, default=0.5)
    ap.add_argument("--duration", default="20ms", help="the run's length; default 20ms")
    ap.add_argument("--arrivals", default="10ms", help="transfers arrive until then; default 10ms")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cc", action="append", help="a fabric preset (repeatable); default: every one")
    ap.add_argument("--out", type=Path, required=True, help="directory for fct.csv and fct.png")
    a = ap.parse_args(argv)
    table = sweep(a.k, a.workload, a.load, a.duration, a.arrivals, a.seed, a.cc)
    a.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(a.out / "fct.csv")
    figure(table, a.out / "fct.png", f"k = {a.k} fat tree, {a.workload} at load {a.load:g}")
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(table.to_string(float_format=lambda v: f"{v:.2f}"))
    print(f"wrote {a.out / 'fct.csv'} and {a.out / 'fct.png'}")
    return table


if __name__ == "__main__":
    main()
