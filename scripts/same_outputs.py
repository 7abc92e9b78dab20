"""Check that a change leaves every shipped scenario's outputs as they were: run each scenario of
`scenarios/` with two cnsim trees (each a `python/` directory holding its compiled `_core`), the
same number of events, with capture and trace on, and compare what they wrote — series, trace,
capture bytes, and the statistics (keys renamed on purpose are given with --rename OLD=NEW, trace
kinds with --rename-kind OLD=NEW).

    python scripts/same_outputs.py --before /work/main/python --after python [--events 200000]

Exit status 0 when every scenario's outputs match, 1 otherwise (each difference is listed). Not part
of the test run: it is the check a refactor runs before it lands ("nothing else changes").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# Keys that differ between two builds by design: the code's identity and wall-clock figures.
VOLATILE = {"version", "wall_s", "wall_time_s", "events_per_s", "code", "created"}


def run(tree: Path, scenario: Path, out: Path, events: int) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-m", "cnsim", "run", str(scenario), "-o", str(out), "--max-events", str(events),
           "--pcap", "--trace", "all", "--no-figures", "-q"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    return "" if p.returncode == 0 else (p.stderr.strip() or p.stdout.strip() or f"exit {p.returncode}")


def flatten(x, prefix="") -> dict:
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if k not in VOLATILE:
                out.update(flatten(v, f"{prefix}{k}."))
        return out
    if isinstance(x, list):
        out = {}
        for i, v in enumerate(x):
            out.update(flatten(v, f"{prefix}{i}."))
        return out
    return {prefix[:-1]: x}


def renamed(flat: dict, renames: dict[str, str]) -> dict:
    out = {}
    for k, v in flat.items():
        parts = k.split(".")
        out[".".join(renames.get(p, p) for p in parts)] = v
    return out


def compare(a: Path, b: Path, renames: dict[str, str], kinds: dict[str, str]) -> list[str]:
    diffs = []
    for name in ("series.parquet", "trace.parquet"):
        pa, pb = a / name, b / name
        if pa.exists() != pb.exists():
            diffs.append(f"{name}: written by one tree only")
        elif pa.exists():
            ta, tb = pd.read_parquet(pa), pd.read_parquet(pb)
            ta = ta.rename(columns=renames)
            if name == "trace.parquet" and "kind" in ta:
                ta["kind"] = ta["kind"].astype(str).map(lambda k: kinds.get(k, k))
                tb["kind"] = tb["kind"].astype(str)
            try:
                pd.testing.assert_frame_equal(ta.reset_index(drop=True), tb.reset_index(drop=True), check_dtype=False,
                                              check_categorical=False)
            except AssertionError as e:
                diffs.append(f"{name}: {str(e).splitlines()[0]}")
    ca, cb = a / "capture.pcapng", b / "capture.pcapng"
    if ca.exists() != cb.exists() or (ca.exists() and ca.read_bytes() != cb.read_bytes()):
        diffs.append("capture.pcapng: bytes differ")
    sa = renamed(flatten(json.loads((a / "summary.json").read_text())), renames)
    sb = flatten(json.loads((b / "summary.json").read_text()))
    for k in sorted(set(sa) | set(sb)):
        if sa.get(k, "<absent>") != sb.get(k, "<absent>"):
            va, vb = sa.get(k, "<absent>"), sb.get(k, "<absent>")
            if isinstance(va, float) and isinstance(vb, float) and va != va and vb != vb:
                continue  # NaN on both sides
            diffs.append(f"summary {k}: {va!r} → {vb!r}")
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the reference tree's python/ directory")
    ap.add_argument("--after", type=Path, required=True, help="the changed tree's python/ directory")
    ap.add_argument("--events", type=int, default=200_000, help="events per run [200000]")
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW", help="an output key renamed on purpose")
    ap.add_argument("--rename-kind", action="append", default=[], metavar="OLD=NEW", help="a trace kind renamed on purpose")
    ap.add_argument("scenarios", nargs="*", type=Path, help="scenario files [every file under scenarios/]")
    args = ap.parse_args()
    renames = dict(r.split("=", 1) for r in args.rename)
    kinds = dict(r.split("=", 1) for r in args.rename_kind)
    scenarios = args.scenarios or sorted((ROOT / "scenarios").rglob("*.toml"))
    bad = 0
    with tempfile.TemporaryDirectory(prefix="cnsim-same-") as tmp:
        for i, s in enumerate(scenarios, 1):
            a, b = Path(tmp, f"a{i}"), Path(tmp, f"b{i}")
            errs = [e for e in (run(args.before.resolve(), s, a, args.events), run(args.after.resolve(), s, b, args.events)) if e]
            rel = s.resolve().relative_to(ROOT) if s.resolve().is_relative_to(ROOT) else s
            if errs:
                diffs = [f"run failed: {e.splitlines()[-1]}" for e in errs]
            else:
                diffs = compare(a, b, renames, kinds)
            bad += bool(diffs)
            print(f"[{i}/{len(scenarios)}] {rel}: {'same' if not diffs else 'DIFFERENT'}", flush=True)
            for d in diffs[:12]:
                print(f"    {d}")
            if len(diffs) > 12:
                print(f"    … and {len(diffs) - 12} more")
    print(f"{len(scenarios) - bad} of {len(scenarios)} scenarios give the same outputs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
