"""The Python API: `run` a scenario, `check` one.

The engine (`cnsim._core`) is imported inside the functions. (`cnsim.metrics`, and so outputs and
figures, reads the summary metrics' declarations from the engine when it is imported.)
"""

import contextlib
import gc
import json
import logging
import os
import sys
import threading
import time
import warnings
from pathlib import Path

from . import _args, jsonio
from .metrics import metric_declarations  # noqa: F401 (part of this API: cnsim.metric_declarations)
from .results import Result
from .scenario import Overrides, overrides, source, value_text  # noqa: F401 (value_text: kept importable here)

Scenario = str | Path  # or a cnsim.Scenario, or a dict (see cnsim.scenario)

LOG = logging.getLogger("cnsim")


class ScenarioWarning(UserWarning):
    """A valid scenario that probably does not mean what its author wanted (engine's `lint`)."""


CHUNKS = 200  # run in this many slices of simulated time, to show progress and catch Ctrl-C
MAX_EVENTS_PER_CALL = 5_000_000  # and at most this many events per slice (bounded wall time)


class Checked(str):
    """What `check` returns: the resolved scenario as TOML (a `str`), with `warnings`, the
    scenario's likely mistakes (one sentence each, as `cnsim check` prints them)."""

    warnings: list[str]

    def __new__(cls, resolved: str, warnings: list[str]):
        self = super().__new__(cls, resolved)
        self.warnings = list(warnings)
        return self


def check(scenario: Scenario, set: Overrides = None) -> Checked:
    """Validate a scenario; return it resolved (defaults filled, overrides applied) as TOML, with
    its likely mistakes in `.warnings` (the build's and `lint`'s, from the one build)."""
    return Checked(*check_and_lint(scenario, set))


def describe(scenario: Scenario, set: Overrides = None) -> dict:
    """The network a scenario builds, as the engine built it (it is not run): `nodes` [{name,
    kind}], `links` [{a, b, rate_bps, delay_s}], `flows` (each with its route `path`, or its
    multicast `tree` of [node, child] edges), `cps` — see docs/internals/core-api.md. Names are
    expanded and routes chosen by the engine alone, so drawings and reports agree with the runs."""
    from . import _core

    text, path = source(scenario)
    return json.loads(_core.describe(text, path, overrides(set, path)))


def run(
    scenario: Scenario,
    *,
    set: Overrides = None,
    seed: int | None = None,
    out: str | Path | None = None,
    progress: bool | None = None,
    figures: bool = True,
    force: bool = False,
    pcap=None,
    trace=None,
) -> Result:
    """Run a scenario (a path, or TOML text) and return its `Result`.

    `set` overrides scenario keys ({"cp.qcn.qeq": "25 frames"} or ["cp.qcn.qeq=25 frames"]); `seed`
    replaces the scenario's seed. With `out`, the outputs are written there (with figures unless
    `figures=False`). `progress`: True/"auto" shows progress on stderr — a bar on a terminal, plain
    lines elsewhere (CI logs, Jupyter); None means a bar on a terminal, plain lines in a notebook,
    nothing otherwise; "plain" forces the lines, False shows nothing. Where progress shows, a build
    that takes long prints how many of its workloads' flows are made (`_build_progress`). Likely
    mistakes in the scenario (a CP no reaction point hears, a queue smaller than one frame) are `ScenarioWarning`s.
    On Ctrl-C (during the build too) the run is stopped, nothing is written, and KeyboardInterrupt
    propagates.

    The output location is checked before the run (see `cnsim.outputs`): a directory holding files
    cnsim did not write there is refused (FileExistsError) unless `force`, which writes cnsim's
    files into it and keeps every other file as it is.

    `pcap` captures frames (True: all; a filter string such as "node=sw0 kind=cnm,pause"; or a
    `cnsim.capture.CaptureSpec` with a snap length and a size bound): `Result.capture`, written
    as capture.pcapng. `trace` records protocol events ("all" or kinds such as
    "cnm_sent,drop"; see `cnsim.trace`): `Result.trace`, written as trace.parquet.
    """
    from .outputs import check_output, locked

    text, path = source(scenario)
    if seed is not None:
        seed = _args.seed(seed)
    if out is None:
        return _run(text, path, set, seed, None, progress, figures, force, pcap, trace)
    out = _args.path(out, "out")
    check_output(out, force=force)  # before taking the lock: a refused location creates nothing
    with locked(out):  # held until the outputs are written: a second writer is refused
        return _run(text, path, set, seed, out, progress, figures, force, pcap, trace)


def _run(text, path, set, seed, out, progress, figures, force, pcap, trace) -> Result:
    from . import _core
    from .outputs import check_output

    if out is not None:
        check_output(out, force=force)
    pairs = overrides(set, path)
    mode = _progress_mode(progress)
    sim = _core.Simulation(text, path, pairs, seed, None if mode == "off" else _build_progress(path))
    if LOG.isEnabledFor(logging.DEBUG):  # -vv: what exactly runs
        from .identity import build_id

        LOG.debug("%s: cnsim %s; overrides %s; %.6f s simulated", path, build_id(),
                  ", ".join(f"{k}={v}" for k, v in pairs) or "none", sim.duration_ps / 1e12)
    for message in sim.warnings():
        warnings.warn(message, ScenarioWarning, stacklevel=3)  # the caller of `run`
    taps = _enable_taps(sim, pcap, trace)
    t0 = time.perf_counter()
    try:
        if mode == "bar":
            _drive_with_progress(sim, path)
        elif mode == "plain":
            drive(sim, _plain_progress(sim, path))
        else:
            drive(sim, lambda: None)
    except KeyboardInterrupt:
        sim.stop("interrupted")
        raise
    wall = time.perf_counter() - t0
    events = sim.events
    with _Steps(path, mode != "off") as step, gc_paused():
        step("collecting the statistics")
        collected = _collect_taps(sim, taps)
        (stats_text, cuts), series, scenario_toml = sim.stats_json_cut(jsonio.ROWS), sim.take_series(), sim.resolved_toml()
        # The simulation (its network: a third of a large fabric's peak memory) is let go before the
        # stats document is parsed, not held beside it.
        del sim
        step("reading the statistics")
        result = Result(jsonio.loads_tables(stats_text, cuts), series, scenario_toml)
        del stats_text
        result.capture, result.trace = collected.get("pcap"), collected.get("trace")
        LOG.info("%s: seed %s, %s events in %.3f s wall (%s events/s)", path, result.stats.get("seed"),
                 f"{events:,}", wall, f"{events / max(wall, 1e-9):,.0f}")
        LOG.debug("%s: frames %s; stopped by %s", path, result.stats.get("frames"), result.stats.get("stopped_by"))
        if out is not None:
            step(f"writing the summary, series{' and figures' if figures else ''} to {out}")
            result.write(out, figures=figures, force=force)
    return result


def lint(scenario: Scenario, set: Overrides = None) -> list[str]:
    """Likely mistakes in a scenario (it is built, not run): one sentence each."""
    return check_and_lint(scenario, set)[1]


def check_and_lint(scenario: Scenario, set: Overrides = None) -> tuple[str, list[str]]:
    """`check` and `lint` from one build: the resolved scenario and its likely mistakes (each
    generated flow checked as a run builds it, then dropped: time linear in the flows, memory of one)."""
    from . import _core

    text, path = source(scenario)
    resolved, warnings = _core.check_and_lint(text, path, overrides(set, path))
    return resolved, list(warnings)


def _enable_taps(sim, pcap, trace) -> dict:
    """Turn on the capture and the trace the caller asked for (before the run)."""
    from . import capture, trace as trace_mod

    taps = {}
    spec = capture.CaptureSpec.of(pcap)
    if spec is not None:
        taps["pcap"] = capture.enable(sim, spec)
    if trace is not None and trace is not False:
        sim.enable_trace(trace_mod.mask(trace))
        taps["trace"] = True
    return taps


def _collect_taps(sim, taps: dict) -> dict:
    """What the taps turned on by `_enable_taps` recorded: {"pcap": the `Capture`, "trace": the
    trace's DataFrame}, for those that were on."""
    from . import capture, trace as trace_mod

    collected = {}
    if "pcap" in taps:
        collected["pcap"] = capture.Capture.from_simulation(sim, taps["pcap"])
    if "trace" in taps:
        d = json.loads(sim.describe_json())
        collected["trace"] = trace_mod.frame(sim.trace(), sim.port_names(), [n["name"] for n in d["nodes"]],
                                             [f["name"] for f in d["flows"]])
    return collected


def _progress_mode(progress) -> str:
    """"bar", "plain" or "off" for a `progress` argument (see `run`)."""
    if progress is False:
        return "off"
    if progress == "plain":
        return "plain"
    tty = sys.stderr.isatty()
    if progress is None:
        return "bar" if tty else ("plain" if "ipykernel" in sys.modules else "off")
    return "bar" if tty else "plain"


BUILD_PROGRESS_AFTER = 2.0  # s of building before the first progress line (env CNSIM_PROGRESS_AFTER)
BUILD_PROGRESS_EVERY = 5.0  # s between the later lines


class _Pace:
    """When a long piece of work talks: not before `CNSIM_PROGRESS_AFTER` seconds (default
    `BUILD_PROGRESS_AFTER`), then every `BUILD_PROGRESS_EVERY` seconds, or at once for news."""

    def __init__(self):
        self.start = time.perf_counter()
        self.after = self.next = float(os.environ.get("CNSIM_PROGRESS_AFTER", BUILD_PROGRESS_AFTER))

    def due(self, news: bool = False) -> float | None:
        """The seconds elapsed when a line is due now (news: something new to say), else None."""
        elapsed = time.perf_counter() - self.start
        if elapsed >= self.after and (news or elapsed >= self.next):
            self.next = elapsed + BUILD_PROGRESS_EVERY
            return elapsed
        return None


def _build_progress(label: str):
    """A callback for the build (`Simulation(..., progress=)`): told (flows made, flows to make),
    it prints a line on stderr at the `_Pace`."""
    pace, name = _Pace(), Path(label).name

    def update(made: int, total: int) -> None:
        elapsed = pace.due()
        if elapsed is not None:
            print(f"cnsim: {name} building: {made:,} of {total:,} flows made ({made / max(total, 1):.0%}), "
                  f"{elapsed:.1f} s", file=sys.stderr, flush=True)

    return update


@contextlib.contextmanager
def gc_paused():
    """The cyclic garbage collector paused (as it was after): the statistics, the summary and their
    texts are millions of small acyclic dicts for a large fabric, and every full collection walked
    them all again while they were built (a million-host run: 3 s of the after-run steps)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Steps:
    """The steps after the run (statistics, summary, outputs: a minute or more for a fabric of tens of
    thousands of hosts), named on stderr at the build's `_Pace`: each step as it starts and a long
    one again every `BUILD_PROGRESS_EVERY` seconds, by a watcher thread, so a long step talks while
    it works. Silent when `on` is false."""

    def __init__(self, label: str, on: bool):
        self.name, self.on, self.step = Path(label).name, on, None
        self.pace, self.said = _Pace(), None
        self.lock, self.done = threading.Lock(), threading.Event()
        self.watcher = threading.Thread(target=self._watch, daemon=True) if on else None

    def __enter__(self):
        if self.watcher:
            self.watcher.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        if self.watcher:
            self.watcher.join()

    def __call__(self, step: str) -> None:
        self.step = step
        self._tick()

    def _tick(self) -> None:
        with self.lock:
            if not (self.on and self.step):
                return
            # A new step is named at once (past the first wait), the same one again every so often.
            elapsed = self.pace.due(news=self.step != self.said)
            if elapsed is not None:
                print(f"cnsim: {self.name}: {self.step}, {elapsed:.1f} s after the run", file=sys.stderr, flush=True)
                self.said = self.step

    def _watch(self) -> None:
        while not self.done.wait(0.25):
            self._tick()


def _plain_progress(sim, label: str, step: float = 0.1):
    """A chunk callback printing one line per `step` of the run (no terminal control codes)."""
    start = time.perf_counter()
    state = {"next": step}
    name = Path(label).name

    def update() -> None:
        done = sim.now_ps / max(sim.duration_ps, 1)
        if done + 1e-12 >= state["next"] or sim.stopped_by:
            rate = sim.events / max(time.perf_counter() - start, 1e-9)
            print(f"cnsim: {name} {done:4.0%} ({sim.now_ps / 1e12:.6g}/{sim.duration_ps / 1e12:.6g} s simulated, "
                  f"{rate:,.0f} events/s)", file=sys.stderr, flush=True)
            while state["next"] <= done + 1e-12:
                state["next"] += step

    return update


def drive(sim, after_chunk) -> None:
    """Advance `sim` to its end in slices of simulated time, calling `after_chunk` after each."""
    duration = sim.duration_ps
    step = max(1, -(-duration // CHUNKS))
    target, done = 0, False
    while not done:
        target = min(target + step, duration)
        done = sim.run_until(target, MAX_EVENTS_PER_CALL)
        after_chunk()


def _drive_with_progress(sim, label: str) -> None:
    """A bar that fits 80 columns: name, bar, percentage, simulated time, events/s, elapsed and ETA."""
    from rich.console import Console
    from rich.progress import (BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = (
        TextColumn("{task.description}"),
        BarColumn(bar_width=12),
        TaskProgressColumn(),
        TextColumn("{task.completed:.3g}/{task.total:.3g} s"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    from .execution import short

    start = time.perf_counter()
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(short(Path(label).name), total=sim.duration_ps / 1e12, rate="")

        def update() -> None:
            rate = sim.events / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=sim.now_ps / 1e12, rate=f"{rate / 1e6:.2g} M ev/s")

        drive(sim, update)
