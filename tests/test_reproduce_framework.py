"""The reproduction framework (cnsim.reproduce.runs, paper, verdicts, prose) on a small paper of
its own: real runs of a shipped example scenario, the store, the report's header and sections,
verdicts.json, the refusal of single-run verdicts, and findings prose without typed numbers."""

import ast
import json
from pathlib import Path

import pytest

import cnsim.reproduce as rep
from cnsim.reproduce import calibration, compare, prose, registry, runs
from cnsim.reproduce.calibration import stated
from cnsim.reproduce.paper import Paper, Report, Task
from cnsim.reproduce.verdicts import Calibration, Check, PaperValue, claim, counts, states

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

    def checks(self, r):
        qcn, off = r.values("q_mean_frames", variant="qcn"), r.values("q_mean_frames", variant="off")
        shorter = lambda qcn, off: compare.exceeds(qcn, off, 1.0, direction=-1)  # noqa: E731
        near = lambda qcn: compare.against(qcn, 20.0, compare.tolerance(20.0, "frames"))  # noqa: E731
        return [
            claim("queue.shorter-with-qcn", "QCN keeps the queue shorter", "tiny §1", "Welch, minimum effect 1 frame",
                  shorter, {"qcn": qcn, "off": off},
                  Calibration({"qcn": stated(10), "off": stated(30)}, {"qcn": stated(30), "off": stated(10)},
                              "tiny Table 1: 10 and 30 frames")),
            claim("queue.near-paper", "the queue sits near 20 frames", "tiny Table 1", "±20 %", near, {"qcn": qcn},
                  Calibration({"qcn": stated(20)}, {"qcn": stated(30)}, "tiny Table 1: 20 frames"),
                  paper=PaperValue(20.0, "frames", "tiny Table 1")),
            Check("rmin.floor", "Rmin holds", "tiny §2", compare.by_construction("Rmin is a scenario parameter"), "–"),
            Check("own.flows", "four flows run", "cnsim", compare.by_construction("the scenario has four flows"), "–",
                  kind="project"),
        ]

    def report(self, r):
        qcn = r.values("q_mean_frames", variant="qcn")
        body = ["## Findings", "", prose.text("QCN's mean queue is {q} frames.", q=compare.interval(qcn).show())]
        return Report(self.checks(r), body, choices=["none"])


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
    assert "| 3 |" in text                                          # every row shows the seeds behind it
    assert set(verdicts["numbers"]["queue.near-paper"][0][1:]) != {None}   # the row's interval is kept
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


def test_every_claim_of_the_tiny_paper_is_calibrated_both_ways(tiny, tmp_path):
    checks = calibration.empty_checks(tiny, tmp_path)
    assert calibration.problems(checks) == []
    assert all(c.state == compare.INCONCLUSIVE for c in checks if c.kind == "paper" and c.decide)   # no data: no verdict


def test_a_rule_that_cannot_fail_or_cannot_pass_is_reported(tmp_path):
    always = lambda a: compare.against(a, 20.0, 1e9)    # noqa: E731  a tolerance no datum can leave
    never = lambda a: compare.against(a, 20.0, 0.0)     # noqa: E731  a band no spread fits in
    cal = Calibration({"a": stated(20)}, {"a": stated(40)}, "the paper says 20")
    rows = [claim("wide", "w", "s", "r", always, {"a": []}, cal), claim("narrow", "n", "s", "r", never, {"a": []}, cal),
            claim("bare", "b", "s", "r", always, {"a": []}, None)]
    found = calibration.problems(rows)
    assert any(p.startswith("wide: the counter-datum gives 'supported'") for p in found)
    assert any(p.startswith("narrow: the paper's own data give 'inconclusive'") for p in found)
    assert any(p.startswith("bare: no calibration") for p in found)


def test_an_untestable_claim_is_shown_apart_with_its_reason_and_not_counted():
    cal = Calibration({"a": stated(20)}, {"a": stated(40)}, "the paper says 20")
    row = claim("x.y", "words", "§1", "rule", lambda a: compare.against(a, 20.0, 1.0), {"a": stated(20, n=5)}, cal,
                reason="the paper's table contradicts its words")
    assert row.kind == "untestable" and states([row]) == {"x.y": "not testable as stated"}
    assert counts([row])["supported"] == 0 and counts([row])["not testable as stated"] == 1
    with pytest.raises(ValueError, match="needs its reason"):
        Check("x.z", "w", "s", row.verdict, "r", kind="untestable")


def test_values_of_the_same_runs_are_compared_paired_and_welch_refuses_them():
    a = compare.Values([1.0, 2.0, 3.0], runs="cfg", seeds=[1, 2, 3])
    b = compare.Values([0.9, 1.9, 2.9], runs="cfg", seeds=[1, 2, 3])
    with pytest.raises(ValueError, match="must be compared paired"):
        compare.welch(a, b)
    v = compare.exceeds(a, b, 0.05)          # paired by default: the differences are all 0.1
    assert v.state == compare.SUPPORTED and "paired" in v.evidence
    with pytest.raises(ValueError, match="must be compared paired"):
        compare.exceeds(a, b, 0.05, paired=False)
    other = compare.Values([0.9, 1.9, 2.9], runs="other", seeds=[1, 2, 3])
    assert compare.exceeds(a, other, 0.05).state == compare.INCONCLUSIVE   # Welch across runs: the spread hides 0.1


def test_the_sequential_design_spends_the_error_rate_over_its_looks_and_keeps_first_decisions():
    class Sched:
        name, seeds, quick_seeds, schedule = "s", 5, 3, (5, 10, 20)

        @classmethod
        def looks(cls):
            return cls.schedule
    looks, level = runs.schedule(Sched, None, False)
    assert looks == (5, 10, 20) and level == pytest.approx(1 - 0.05 / 3)
    assert runs.schedule(Sched, 7, False) == ((7,), 0.95) and runs.schedule(Sched, None, True) == ((3,), 0.95)
    Sched.schedule = (10, 5)
    with pytest.raises(ValueError, match="must increase"):
        runs.schedule(Sched, None, False)
    row = lambda state, n: Check("c", "w", "s", compare.Verdict(state, f"n={n}"), "r")  # noqa: E731
    done = runs.sequential([(5, [row(compare.INCONCLUSIVE, 5)]), (10, [row(compare.SUPPORTED, 10)]),
                            (20, [row(compare.NOT_SUPPORTED, 20)])])
    assert done[0].state == compare.SUPPORTED and done[0].verdict.evidence == "n=10"
    iv = compare.interval([1.0, 2.0, 3.0])
    undecided = Check("c", "w", "s", compare.Verdict(compare.INCONCLUSIVE, "n=10", (iv,)), "r")
    open_ = runs.sequential([(5, [row(compare.INCONCLUSIVE, 5)]), (10, [undecided])])
    assert open_[0].verdict.evidence.endswith("undecided at the cap of 10 seeds")
    assert open_[0].verdict.intervals == (iv,)          # its numbers stay for the golden files
