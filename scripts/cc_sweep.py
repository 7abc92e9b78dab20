"""One fabric and one workload under every congestion control: FCT slowdowns side by side.

The k-ary fat tree of `cnsim.generators.fat_tree` (ECMP, 10 Gb/s links of 1 µs) carries the
web-search workload (Poisson arrivals at `load` of every host's link, arrivals until `arrivals`,
the run lasting `duration` so that most transfers finish). The script writes that scenario to
`OUT/fat-tree.toml` and runs it with `cnsim.sweep` over its one key `fabric.cc`, every fabric
preset of the engine's registry (`cnsim.generators.fabric_presets()`: QCN, DCQCN, DCTCP, HPCC,
TIMELY and Swift today), into `OUT/sweep` — the same as

    cnsim sweep OUT/fat-tree.toml --grid fabric.cc=NAME,... --set workload.0.stop=ARRIVALS --seeds 1 -o OUT/sweep

Each run keeps its FCT table (`fct.parquet`); from them the script writes one table (`fct.csv`:
a row per congestion control, the median and 99th-percentile FCT slowdown and the completed
transfers per flow-size bucket) and one figure (`fct.png`), and prints the table. `--from-sweep
DIR` makes the table and figure of a sweep already run. docs/scenarios.md ("One fabric, every
congestion control") gives the command and what to read in the result.

    python scripts/cc_sweep.py --out cc-sweep                 # k = 8, 20 ms: a few minutes
    python scripts/cc_sweep.py --k 4 --duration 4ms --arrivals 2ms --out /tmp/cc   # seconds
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

import pandas as pd

import cnsim
from cnsim.generators import fabric_presets, fat_tree
from cnsim.sweep import run_files

KEY = "fabric.cc"


def run_sweep(out: Path, k: int = 8, workload: str = "web-search", load: float = 0.5, duration: str = "20ms",
              arrivals: str = "10ms", seed: int = 1, ccs: list[str] | None = None, jobs: int | None = None) -> Path:
    """Write the scenario to `out/fat-tree.toml` and sweep `fabric.cc` over `ccs` (default: every
    preset) into `out/sweep`; return that directory."""
    ccs = ccs or list(fabric_presets())
    out.mkdir(parents=True, exist_ok=True)
    path = out / "fat-tree.toml"
    path.write_text(fat_tree(k, cc=ccs[0], workload=workload, load=load, duration=duration))
    cnsim.sweep(path, {KEY: ccs}, seeds=[seed], jobs=jobs, progress=False, out=out / "sweep",
                set={"workload.0.stop": arrivals})
    return out / "sweep"


def table(sweep_dir: Path) -> pd.DataFrame:
    """One row per congestion control of the sweep in `sweep_dir` (in grid order); columns
    `BUCKET p50`, `BUCKET p99` (FCT slowdown) and `BUCKET done` ("completed/flows") for each
    flow-size bucket. With several seeds, the slowdowns are their means over the seeds and `done`
    sums them. A failed run is an error naming its preset."""
    runs = pd.read_parquet(sweep_dir / "sweep.parquet")
    failed = runs[runs["error"].notna()]
    if len(failed):
        raise RuntimeError(f"{KEY} = {failed[KEY].iloc[0]}: {failed['error'].iloc[0]}")
    files = run_files(sweep_dir)
    files = files[files["file"] == "fct"] if len(files) else files
    rows = {}
    for cc in dict.fromkeys(runs[KEY]):
        fcts = [pd.read_parquet(p).set_index("bucket") for p in files[files[KEY] == cc]["path"]]
        if not fcts:
            raise RuntimeError(f"{KEY} = {cc}: the run kept no FCT table (no transfers?)")
        row = {}
        for bucket in fcts[0].index:
            per_seed = [f.loc[bucket] for f in fcts if bucket in f.index]
            row[f"{bucket} p50"] = _mean([r["slowdown_median"] for r in per_seed])
            row[f"{bucket} p99"] = _mean([r["slowdown_p99"] for r in per_seed])
            row[f"{bucket} done"] = f"{sum(int(r['completed']) for r in per_seed)}/{sum(int(r['flows']) for r in per_seed)}"
        rows[cc] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("cc")


def sweep(k: int = 8, workload: str = "web-search", load: float = 0.5, duration: str = "20ms",
          arrivals: str = "10ms", seed: int = 1, ccs: list[str] | None = None, out: Path | None = None,
          jobs: int | None = None) -> pd.DataFrame:
    """`run_sweep` then `table` (in a temporary directory without `out`)."""
    if out is not None:
        return table(run_sweep(out, k, workload, load, duration, arrivals, seed, ccs, jobs))
    with tempfile.TemporaryDirectory() as tmp:
        return table(run_sweep(Path(tmp), k, workload, load, duration, arrivals, seed, ccs, jobs))


def _mean(values) -> float:
    finite = [float(v) for v in values if _finite(v)]
    return sum(finite) / len(finite) if finite else math.nan


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
    ap.add_argument("--jobs", type=int, help="worker processes; default: every core")
    ap.add_argument("--from-sweep", type=Path, metavar="DIR",
                    help="make the table and figure of the `cnsim sweep` over fabric.cc in DIR (runs nothing)")
    ap.add_argument("--out", type=Path, required=True, help="directory for fct.csv and fct.png (and the sweep)")
    a = ap.parse_args(argv)
    if a.from_sweep is not None:
        result, title = table(a.from_sweep), f"{a.from_sweep}"
    else:
        result = table(run_sweep(a.out, a.k, a.workload, a.load, a.duration, a.arrivals, a.seed, a.cc, a.jobs))
        title = f"k = {a.k} fat tree, {a.workload} at load {a.load:g}"
    a.out.mkdir(parents=True, exist_ok=True)
    result.to_csv(a.out / "fct.csv")
    figure(result, a.out / "fct.png", title)
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(result.to_string(float_format=lambda v: f"{v:.2f}"))
    print(f"wrote {a.out / 'fct.csv'} and {a.out / 'fct.png'}")
    return result


if __name__ == "__main__":
    main()
