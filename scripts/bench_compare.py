"""Compare two builds of the benchmark harness (docs/performance.md), interleaved, medians.

    python scripts/bench_compare.py BASE_BENCH NEW_BENCH [ROUNDS] [N ...]

BASE_BENCH and NEW_BENCH are `target/release/examples/bench` of the two builds (e.g. main built
in a `git worktree` under /tmp, and this branch). Each round runs base then new (then new then base
the next round, so neither always goes first) for every N, and prints per (N, QCN) the median
wall time of each, new/base − 1, and the speed-up base/new taken within each round (both runs of
a round saw the same machine; median and quartiles over the rounds); then per N and build the
QCN-on ÷ QCN-off wall per delivered frame, also per round. Pin it to one core on a shared
machine: `taskset -c 1 python scripts/bench_compare.py …`.
"""

import statistics
import subprocess
import sys


def run(binary: str, ns: list[str]) -> dict:
    """(N, qcn) → (wall s, delivered frames) of one run of the harness."""
    out = subprocess.run([binary, *ns], capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    walls = {}
    for line in out:
        n, qcn, wall, delivered_per_s, *_ = line.split()
        walls[(int(n), qcn)] = (float(wall), float(delivered_per_s) * float(wall))
    return walls


def quartiles(xs: list[float]) -> str:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return f"{q[1]:.2f} ({q[0]:.2f}–{q[2]:.2f})"


def main() -> None:
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    ns = sys.argv[4:] or ["10", "100"]
    times: dict[str, dict] = {"base": {}, "new": {}}
    for r in range(rounds):
        order = [("base", base), ("new", new)] if r % 2 == 0 else [("new", new), ("base", base)]
        for name, binary in order:
            for key, wall in run(binary, ns).items():
                times[name].setdefault(key, []).append(wall)
    print(f"{'N':>5} {'qcn':>6} {'base median s':>14} {'new median s':>13} {'new/base-1':>11}  {'speed-up per round':>20}   ({rounds} rounds)")
    for key in times["base"]:
        bt, nt = times["base"][key], times["new"][key]
        b, n = statistics.median(w for w, _ in bt), statistics.median(w for w, _ in nt)
        paired = [x[0] / y[0] for x, y in zip(bt, nt)]
        print(f"{key[0]:>5} {key[1]:>6} {b:>14.4f} {n:>13.4f} {n / b - 1:>+10.2%}  {quartiles(paired):>20}")
    print("QCN on ÷ QCN off, wall per delivered frame, per round: median (quartiles)")
    for name in ("base", "new"):
        t = times[name]
        for n in sorted({k[0] for k in t}):
            on, off = t[(n, "true")], t[(n, "false")]
            ratios = [(a[0] / a[1]) / (f[0] / f[1]) for a, f in zip(on, off)]
            print(f"{name:>5} N={n:<5} {quartiles(ratios)}")


if __name__ == "__main__":
    main()
