"""The reproduction framework (cnsim.reproduce.runs, paper, verdicts, prose) on a small paper of
its own: real runs of a shipped example scenario, the store, the report's header and sections,
verdicts.json, the refusal of single-run verdicts, and findings prose without typed numbers."""

import ast
import json
from pathlib import Path

import pytest

import cnsim.reproduce as rep
from cnsim.reproduce import compare, prose, registry, runs
from cnsim.reproduce.paper import Paper, Report, Task
from cnsim.reproduce.verdicts import Check, PaperValue, counts, states

SCENARIO = "scenarios/examples/unicast-qcn.toml"
SHORT = {"simulation.duration": "20ms", "simulation.measure_from": "10ms"}
PACKAGE = Path(rep.__file__).parent


class TinyPaper(Paper):
    """Four QCN flows with and without QCN's CP: a claim that QCN keeps the queue shorter."""
    name, title = "tiny", "A tiny paper"

    def tasks(self, seeds, quick):
        out = []
        for variant, sets in (("qcn", {}), ("off", {"cp": '"none"'})):
            for seed in range(1, seeds + 1):
                out.append(Task({"variant": variant}, SCENARIO, {**SHORT, **sets}, seed, spec={"queue": "SW>D"},
                                keep=f"{variant}" if seed == 1 else None))
        return out

    def extract(self, result, spec):
        q = next(q for q in result.stats["queues"] if q["name"] == spec["queue"])
        return {"values": [["all", "q_mean_frames", q["q_mean_frames"]]], "extra": {"n": len(result.stats["flows"])}}

    def report(self, r):
        qcn, off = r.values("q_mean_frames", variant="qcn"), r.values("q_mean_frames", variant="off")
        checks = [
            Check("queue.shorter-with-qcn", "QCN keeps the queue shorter", "tiny §1",
                  compare.exceeds(qcn, off, 1.0, direction=-1), "Welch, minimum effect 1 frame"),
            Check("queue.near-paper", "the queue sits near 20 frames", "tiny Table 1",
                  compare.against(qcn, 20.0, compare.tolerance(20.0, "frames")), "±20 %",
                  paper=PaperValue(20.0, "frames", "tiny Table 1")),
            Check("rmin.floor", "Rmin holds", "tiny §2", compare.by_construction("Rmin is a scenario parameter"), "–"),
            Check("own.flows", "four flows run", "cnsim", compare.by_construction("the scenario has four flows"), "–",
                  kind="project"),
        ]
        body = ["## Findings", "", prose.text("QCN's mean queue is {q} frames.", q=compare.interval(qcn).show())]
        return Report(checks, body, choices=["none"])


@pytest.fixture
def tiny(monkeypatch):
    paper = TinyPaper()
    monkeypatch.setattr(registry, "experiment", lambda name: paper)
    return paper


def test_a_paper_runs_end_to_end_and_writes_its_outputs(tiny, tmp_path):
    out = tmp_path / "tiny"
    report = runs.reproduce(tiny, out, seeds=3, jobs=1, progress=False)
    text = report.read_text()
    assert "**3 seeds per configuration**" in text and compare.RULE in text
    assert "## The paper's claims" in text and "## Checks that hold by construction" in text
    assert "## Project findings" in text
    verdicts = json.loads((out / "verdicts.json").read_text())
    assert set(verdicts["states"]) == {"queue.shorter-with-qcn", "queue.near-paper", "rmin.floor", "own.flows"}
    assert verdicts["counts"]["holds by construction"] == 1       # the project's own check is not counted
    assert sum(verdicts["counts"].values()) == 3
    assert (out / "results.parquet").exists() and (out / "runs" / "qcn" / "summary.json").exists()
    # a second invocation reuses every stored run
    runs.reproduce(tiny, out, seeds=3, jobs=1, progress=False)
    assert json.loads((out / "summary.json").read_text())["ran"] == 0


def test_runs_index_values_by_configuration_and_seed(tiny, tmp_path):
    tasks = tiny.tasks(2, False)
    rows = [runs.run_task(runs._task_tuple(tiny, t)) for t in tasks]
    assert all(r["error"] is None for r in rows)
    r = rep.paper.Runs(tasks, rows, seeds=2, quick=False, out=tmp_path)
    assert sorted(r.by_seed("q_mean_frames", variant="qcn")) == [1, 2]
    assert r.extra(seed=1, variant="off") == {"n": 4}
    assert set(r.frame.columns) == {"variant", "seed", "part", "metric", "value"}


def test_one_seed_is_refused_not_capped(tiny, tmp_path):
    with pytest.raises(ValueError, match="at least 2"):
        runs.reproduce(tiny, tmp_path / "one", seeds=1, jobs=1, progress=False)
    assert not (tmp_path / "one").exists()


def test_a_failing_extract_is_a_failed_run_not_a_crash(tiny, tmp_path):
    t = tiny.tasks(2, False)[0]
    row = runs.run_task(runs._task_tuple(tiny, Task(t.label, t.scenario, t.overrides, 1, spec={"queue": "nope"})))
    assert row["error"] and row["values"] == []


def test_check_ids_are_unique_and_counted_by_kind():
    v = compare.Verdict(compare.SUPPORTED, "")
    a = Check("x", "a", "s", v, "r")
    with pytest.raises(ValueError, match="two checks"):
        states([a, a])
    with pytest.raises(ValueError):
        Check("has space", "a", "s", v, "r")
    assert counts([a, Check("y", "b", "s", v, "r", kind="project")])[compare.SUPPORTED] == 1


def test_findings_templates_refuse_typed_numbers():
    with pytest.raises(ValueError, match="typed number"):
        prose.text("congestion starts at 2 s")
    assert prose.text("congestion starts at {t} s", t=compare.num(2.0)) == "congestion starts at 2 s"


def _prose_calls(path: Path):
    """(line, first argument) of every prose.text(...) / text(...) call of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name == "text" and (not isinstance(f, ast.Attribute) or getattr(f.value, "id", "") == "prose"):
                yield node.lineno, node.args[0] if node.args else None


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_findings_template_types_a_number(path):
    """Every findings template of every paper is a literal without a digit (numbers come through fields)."""
    for line, arg in _prose_calls(path):
        assert arg is not None, f"{path.name}:{line}: prose.text needs a template"
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            prose.check_template(arg.value)
        elif isinstance(arg, ast.JoinedStr):
            pytest.fail(f"{path.name}:{line}: an f-string template can carry typed numbers; use fields")


def test_every_paper_folder_is_registered_and_one_worker_exists():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == {folder for folder, _ in registry.REGISTRY.values()}
    workers = [p for p in PACKAGE.rglob("*.py") if "_core.Simulation(" in p.read_text(encoding="utf-8")]
    assert [p.name for p in workers] == ["runs.py"]


def _name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """The modules of cnsim.reproduce that `path` imports (top level or inside functions)."""
    module = _name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
            names = [f"{target}.{a.name}" for a in node.names] if not node.module else [target]
            out.update(n for n in names if n.startswith("cnsim.reproduce"))
    return out


def test_the_reproduction_package_has_no_import_cycle():
    """Imports inside cnsim.reproduce go one way (function-level imports included; a submodule's
    implicit import of its own package does not count)."""
    mods = {_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: {t for t in _imports(p) if t in mods and t != m and not m.startswith(t + ".")} for m, p in mods.items()}
    assert sum(map(len, graph.values())) > 50          # the graph is really read
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            assert state.get(t) != 1, "import cycle: " + " → ".join(path + [m, t])
            if t not in state:
                visit(t, path + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
