"""Write the golden verdict files of the reproductions: tests/golden/<experiment>.json from a full
run, as `cnsim reproduce` makes it (the record a referee reads, and what
tests/test_golden_verdicts.py re-runs and compares). A changed verdict or interval is then a
reviewed diff of these files.

    .venv/bin/python scripts/golden.py [EXPERIMENT …] [--jobs N] [--out DIR]
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from golden_verdicts import GOLDEN, golden_record  # noqa: E402

import cnsim.reproduce as rep  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiments", nargs="*", default=list(rep.REGISTRY))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("out/golden"))
    args = ap.parse_args()
    for name in args.experiments:
        t0 = time.monotonic()
        out = args.out / name
        rep.reproduce(name, out, jobs=args.jobs)
        record = golden_record(json.loads((out / "verdicts.json").read_text(encoding="utf-8")),
                               wall_s=time.monotonic() - t0)
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path}: {record['counts']} ({record['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
