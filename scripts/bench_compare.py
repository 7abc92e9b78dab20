"""Compare two builds of the benchmark harness (docs/performance.md), interleaved, medians.

    python scripts/bench_compare.py BASE_BENCH NEW_BENCH [ROUNDS] [N ...]

BASE_BENCH and NEW_BENCH are `target/release/examples/bench` of the two builds (e.g. main built
in a `git worktree` under /tmp, and this branch). Each round runs base then new (then new then base
the next round, so neither always goes first) for every N, and prints per (N, QCN) the median
wall time of each and new/base − 1.
"""

import statistics
import subprocess
import sys


def run(binary: str, ns: list[str]) -> dict:
    out = subprocess.run([binary, *ns], capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    walls = {}
    for line in out:
        n, qcn, wall, *_ = line.split()
        walls[(int(n), qcn)] = float(wall)
    return walls


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
    print(f"{'N':>5} {'qcn':>6} {'base median s':>14} {'new median s':>13} {'new/base-1':>11}   ({rounds} rounds)")
    for key in times["base"]:
        b, n = statistics.median(times["base"][key]), statistics.median(times["new"][key])
        print(f"{key[0]:>5} {key[1]:>6} {b:>14.4f} {n:>13.4f} {n / b - 1:>+10.2%}")


if __name__ == "__main__":
    main()
