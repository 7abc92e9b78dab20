"""Move each "Checked at" cell of docs/scenario-ranges.md to the line of its file that names the
row's key and is nearest to the line it gave, after edits have shifted the code.

tests/scenario_ranges.rs fails when a cell's line does not name its key; this script is the mend
for a shift, not for a moved check: read `git diff docs/scenario-ranges.md` afterwards (a cell that
moved far probably points at another use of the key, and wants a hand-picked line).

    python scripts/scenario_ranges_lines.py
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/scenario-ranges.md"
CELL = re.compile(r"`(crates/[^`:]+):(\d+)`")


def leaf(key: str) -> str:
    """The key's last part, as the code names it (the test's `leaf`: `[[flow]] start` → `start`)."""
    return key.rsplit("] ", 1)[-1].rsplit(".", 1)[-1]


def main() -> None:
    out, moved = [], 0
    for row in DOC.read_text(encoding="utf-8").split("\n"):
        m = CELL.search(row) if row.startswith("| `") else None
        if m:
            key = leaf(row.split("|")[1].strip().strip("`"))
            lines = (ROOT / m.group(1)).read_text(encoding="utf-8").split("\n")
            at = int(m.group(2))
            naming = [i + 1 for i, l in enumerate(lines) if key in l]
            if naming and at not in naming:
                best = min(naming, key=lambda n: (abs(n - at), n))
                row = row.replace(m.group(0), f"`{m.group(1)}:{best}`", 1)
                moved += 1
        out.append(row)
    DOC.write_text("\n".join(out), encoding="utf-8")
    print(f"{moved} cell(s) moved")


if __name__ == "__main__":
    main()
