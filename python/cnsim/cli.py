"""The `cnsim` command line.

Commands hang off the `cli` group: `run`, `check`, `bench` here; `sweep` and `reproduce` are to be
added the same way (`@cli.command()`), in their own modules if they grow.
"""

import json
import logging
import sys
import warnings
from pathlib import Path

import click

from . import _core, api
from .metrics import seed_metrics

SCENARIO = click.argument("scenario", type=click.Path(exists=True, dir_okay=False, path_type=Path))
SETS = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a scenario key, e.g. --set 'defaults.queue.capacity=100 frames' (repeatable).",
)





class _Count(click.ParamType):
    """A whole number in [1, 2^64 - 1] (the engine's counts are u64) in any form a number is printed
    in: 1000000, 1e6, 1e+06, 1_000_000."""

    name = "integer"
    HIGH = 2**64 - 1

    def convert(self, value, param, ctx):
        try:
            text = str(value).strip().replace("_", "")
            number = int(text) if text.lstrip("+").isdigit() else float(text)
            if number == int(number) and 1 <= number <= self.HIGH:
                return int(number)
        except (ValueError, OverflowError):
            pass
        self.fail(f"{value!r} is not a whole number in [1, {self.HIGH}]", param, ctx)


class _Finite(click.ParamType):
    """A finite number in (low, high]: NaN and infinity are refused by name of the option, as are
    values the engine could not hold (`high`)."""

    name = "number"

    def __init__(self, low: float = 0.0, high: float = 1e12):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if x != x or x in (float("inf"), float("-inf")):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if not self.low < x <= self.high:
            self.fail(f"{value!r} is not in ({self.low:g}, {self.high:g}]", param, ctx)
        return x


def _plain(x: float) -> str:
    """A number without exponent (the engine's durations and sizes do not take 1e+06)."""
    import numpy as np

    return np.format_float_positional(x, trim="-")


def _guard_options(fn):
    """--max-events, --max-wall, --max-series-mb: the scenario's run guards (docs/scenarios.md)."""
    fn = click.option("--max-series-mb", type=_Finite(0, 1e9), metavar="MB",
                      help="Stop a run once its recorded series exceed MB megabytes (simulation.max_series_memory).")(fn)
    fn = click.option("--max-wall", type=_Finite(0, 1e9), metavar="SECONDS",
                      help="Stop a run after SECONDS of wall time (simulation.max_wall_time).")(fn)
    fn = click.option("--max-events", type=_Count(), metavar="N",
                      help="Stop a run after N events (simulation.max_events; 1000000, 1e6 or 1e+06).")(fn)
    return fn


def _set_memory_budget(ctx, param, value) -> None:
    if value is not None:
        from . import _core

        _core.set_memory_budget(round(value * 1e6))


def _memory_option(fn):
    """--max-memory: the budget for building a network (default: 80 % of the memory available at start)."""
    return click.option("--max-memory", type=_Finite(0, 1e12), metavar="MB", expose_value=False, is_eager=True,
                        callback=_set_memory_budget,
                        help="Refuse, before building it, a network whose estimated memory exceeds MB megabytes "
                             "[80 % of the memory available at start].")(fn)


def _guard_sets(max_events: int | None, max_wall: float | None, max_series_mb: float | None) -> list[str]:
    """The guard options as `--set` items (after the user's, so they win)."""
    sets = []
    if max_events is not None:
        sets.append(f"simulation.max_events={max_events}")
    if max_wall is not None:
        sets.append(f"simulation.max_wall_time={_plain(max_wall)}s")
    if max_series_mb is not None:
        sets.append(f"simulation.max_series_memory={_plain(max_series_mb)}MB")
    return sets


class _Cli(click.Group):
    """A group that reports a user's error — a bad scenario or argument (ValueError), an output
    location that cannot be used (OSError) — as `error: <message>` (exit 2), without traceback."""

    def make_context(self, *args, **kwargs):
        _setup_logging()  # before -v/-q are parsed
        return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (ValueError, OSError) as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


LOG = logging.getLogger("cnsim")


def _set_verbosity(ctx, param, value) -> None:
    """-v (repeatable) / -q, on the group and on every command: the `cnsim` logger's level."""
    if not value:
        return
    if param.name == "quiet":
        LOG.setLevel(logging.ERROR)
    else:
        LOG.setLevel(logging.INFO if value == 1 else logging.DEBUG)


def quiet() -> bool:
    """-q was given: no progress, no summary, no warnings (errors only)."""
    return LOG.getEffectiveLevel() >= logging.ERROR


def _verbosity(fn):
    fn = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set_verbosity,
                      help="Errors only: no progress, summary or warnings.")(fn)
    fn = click.option("-v", "--verbose", count=True, expose_value=False, callback=_set_verbosity,
                      help="More detail (-vv: even more).")(fn)
    return fn


def _wrote(path, err: bool = False) -> None:
    """Say which file a command wrote (not under -q: errors only)."""
    if not quiet():
        click.echo(f"wrote {path}", err=err)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    if not quiet():
        click.echo(f"warning: {message}", err=True)


def _version(ctx, param, value) -> None:
    if not value or ctx.resilient_parsing:
        return
    from . import _core
    from .identity import build_id

    click.echo(f"cnsim {_core.version()} (engine build {build_id()}, source revision {_core.source_revision()})")
    ctx.exit()


def _setup_logging() -> None:
    """`cnsim` log records to stderr as plain lines (level WARNING until -v/-q say otherwise);
    Python warnings (e.g. the scenario's likely mistakes) as `warning: …` lines."""
    if not LOG.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOG.addHandler(handler)
        LOG.propagate = False
    for handler in LOG.handlers:
        handler.setStream(sys.stderr)
    LOG.setLevel(logging.WARNING)
    warnings.showwarning = _show_warning


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Print cnsim's version, the engine's build id and source revision, and exit.")
@_verbosity
def cli() -> None:
    """Packet-level simulation of congestion notification (QCN and kin).

    Shell completion (bash, zsh, fish): see docs/cli.md, e.g.
    eval "$(_CNSIM_COMPLETE=bash_source cnsim)" in ~/.bashrc.
    """


@cli.command()
@_verbosity
@SCENARIO
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Output directory [out/<stem>].")
@SETS
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Replace the scenario's seed.")
@click.option("--no-figures", is_flag=True, help="Do not draw figures.")
@click.option("--force", is_flag=True,
              help="Write into an output directory that holds other files too: cnsim replaces only its own files "
                   "(those its manifest .cnsim-run.json lists) and keeps every other file as it is.")
@click.option("--pcap", "pcap", is_flag=False, flag_value="", default=None, metavar="[FILTER]",
              help="Capture frames into OUT/capture.pcapng (pcapng, one interface per port). FILTER: "
                   "'node=NAME port=NODE>PEER kind=KIND,…' (all optional, wildcards allowed; kinds: "
                   + ", ".join(_core.capture_kinds()) + "); "
                   "put it after SCENARIO or write --pcap=FILTER.")
@click.option("--pcap-max-mb", type=_Finite(0, 1e9), metavar="MB",
              help="Stop capturing once the capture reaches MB megabytes (the run goes on; the summary says when).")
@click.option("--pcap-snaplen", type=click.IntRange(64, 262_144), default=256, show_default=True, metavar="BYTES",
              help="Bytes kept of each captured frame.")
@click.option("--trace", "trace", metavar="KINDS",
              help="Record protocol events into OUT/trace.parquet: 'all' or some of "
                   + ", ".join(_core.trace_kinds()[0]) + ".")
@click.option("--top", type=click.IntRange(0, 1000), default=5, show_default=True, metavar="N",
              help="Show the N busiest queues, flows and pausing ports after the global metrics (0: none).")
@click.option("--rank", metavar="METRIC",
              help="Rank the entities of METRIC's scope by it (e.g. throughput_mbps, drops, paused_s) "
                   "[queues: q_mean_frames, flows: throughput_mbps, ports: paused_s].")
@_guard_options
@_memory_option
def run(scenario: Path, out: Path | None, sets, seed, no_figures: bool, force: bool,
        pcap: str | None, pcap_max_mb: float | None, pcap_snaplen: int, trace: str | None, top: int,
        rank: str | None, max_events, max_wall, max_series_mb) -> None:
    """Run SCENARIO; write summary.json, series.parquet, figures/ and scenario.toml to the output.

    The output directory must be new, empty or a previous run's (every file in it listed in its
    .cnsim-run.json), which is then replaced atomically; anything else is refused before the run
    starts, unless --force. A run stopped by a guard (--max-events, --max-wall, --max-series-mb)
    keeps what it recorded and says which guard stopped it.
    """
    from .capture import CaptureSpec
    from .metrics import DEFINITIONS
    from .outputs import file_name

    rankable = {d["metric"] for d in DEFINITIONS if d["scope"] in ENTITY_SCOPES}
    if rank is not None and rank not in rankable:  # checked before the run
        raise click.BadParameter(f"{rank!r} is not a queue, flow or port metric; one of {', '.join(sorted(rankable))}",
                                 param_hint="--rank")
    out = out or Path("out") / file_name(scenario.stem)
    spec = None
    if pcap is not None:
        spec = CaptureSpec(filter=pcap, snaplen=pcap_snaplen, max_bytes=round(pcap_max_mb * 1e6) if pcap_max_mb else 0)
    result = api.run(
        scenario,
        set=[*sets, *_guard_sets(max_events, max_wall, max_series_mb)],
        seed=seed,
        out=out,
        progress=False if quiet() else "auto",
        figures=not no_figures,
        force=force,
        pcap=spec,
        trace=trace,
    )
    if result.capture is not None and result.capture.note():
        click.echo(result.capture.note(), err=True)
    if not quiet():
        with api.gc_paused():
            _print_summary(result, out, top, rank)
    elif result.stats.get("stopped_by"):
        click.echo(f"stopped early: {result.stats['stopped_by']}", err=True)


# entity scope of the summary → (summary section, default ranking metric, columns shown where the
# run has what they need: `cnsim.metrics.shown`; None: every metric the engine declares for the scope)
ENTITY_SCOPES = {
    "queue": ("queues", "q_mean_frames", ("q_mean_frames", "q_std_frames", "utilisation", "drops", "feedback_sent")),
    "flow": ("flows", "throughput_mbps", ("throughput_mbps", "goodput_mbps", "slowdown", "loss_pct", "source_loss_pct")),
    "port": ("ports", "paused_s", None),
}


def _print_summary(result, out: Path, top: int = 5, rank: str | None = None) -> None:
    """What ran, the global metrics that mean something for it (the main CP's queue among them),
    then the `top` entities of each scope that did something (a queue that held or dropped frames,
    a flow, a port that paused), ranked by their default metric or by `rank` where it belongs to the
    scope, and the FCT slowdown per flow size of a run with transfers."""
    from rich.console import Console
    from rich.table import Table

    from .metrics import mechanisms, ran, shown

    present = mechanisms(result.stats)
    defs = {(d["scope"], d["metric"]): d for d in result.summary["definitions"]}
    console = Console()
    what = ran(result.stats)
    if what:
        console.print(f"ran: {what}", highlight=False)
    table = Table("metric", "value", "unit", "window", box=None)
    row = seed_metrics(result.summary)
    for key in shown("global", row, present):
        d = defs.get(("global", key)) or defs["queue", key]
        table.add_row(key, _format(row[key]), d["unit"], d["window"])
    console.print(table)
    for scope, (section, default, columns) in ENTITY_SCOPES.items() if top else ():
        entities = result.summary.get(section, {})
        active = _active(scope, entities)
        if not active:
            continue
        if columns is None:
            columns = [d["metric"] for d in result.summary["definitions"] if d["scope"] == scope]
        columns = shown(scope, columns, present)
        key = rank if rank in columns or (scope, rank) in defs else default
        ranked = sorted(active.items(), key=lambda item: -(item[1].get(key) or 0.0))[:top]
        cols = list(dict.fromkeys([key, *columns]))
        t = Table(section[:-1], *(f"{c} ({defs[scope, c]['unit']})" for c in cols), box=None,
                  title=f"{min(top, len(active))} of {len(active)} {section} by {key}", title_justify="left")
        for name, e in ranked:
            t.add_row(name, *(_format(e.get(c)) for c in cols))
        console.print(t)
    fct = result.summary.get("fct", {})
    if fct:
        columns = list(result.table("fct").columns)
        t = Table("size", *columns, box=None, title="FCT slowdown (fct ÷ ideal) by transfer size", title_justify="left")
        for bucket, metrics in fct.items():
            t.add_row(bucket, *(_format(metrics.get(c)) for c in columns))
        console.print(t)
    if result.stats.get("stopped_by"):
        console.print(f"[yellow]stopped early: {result.stats['stopped_by']}[/]")
    console.print(f"wrote {out}")


def _active(scope: str, entities: dict) -> dict:
    """The `entities` (name → metrics) of `scope` that did something: a queue that held or dropped
    frames, any flow, a port with a metric other than 0 (one that sent or received flow control)."""
    if scope == "queue":  # inline, not a call per entity: a million-host fabric has a million queues
        return {n: e for n, e in entities.items() if e.get("q_mean_frames") or e.get("drops")}
    if scope == "port":
        return {n: e for n, e in entities.items() if any(v for v in e.values() if isinstance(v, int | float))}
    return entities


def _format(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


@cli.command()
@_verbosity
@SCENARIO
@SETS
@click.option("--resolved", is_flag=True, help="Also print the resolved scenario as TOML.")
@_memory_option
def check(scenario: Path, sets, resolved: bool) -> None:
    """Validate SCENARIO without running it."""
    text, lints = api.check_and_lint(scenario, set=list(sets))   # one build for both
    for message in lints:
        warnings.warn(message, api.ScenarioWarning, stacklevel=1)
    if resolved:
        click.echo(text, nl=False)
    click.echo(f"ok: {scenario}", err=resolved)


def _int_list(ctx, param, value: str) -> list[int]:
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter("expected a comma-separated list of integers") from None


# The protocol the fixed benchmark runs with or without, and its cases: the engine's registrations say.
BENCH_CONTROL = _core.bench_control()
BENCH_CASES = _core.bench_cases()


@cli.command()
@_verbosity
@click.option("--sources", default="10,100", callback=_int_list, help="Source counts, e.g. 10,100.")
@click.option(f"--{BENCH_CONTROL}/--no-{BENCH_CONTROL}", "control", default=True,
              help=f"With or without {BENCH_CONTROL.upper()} (the benchmark's congestion control).")
@click.option("--both", is_flag=True, help=f"Run each case with and without {BENCH_CONTROL.upper()}.")
@click.option("--duration", default=1.0, show_default=True, help="Simulated seconds per case.")
@click.option("--case", type=click.Choice(BENCH_CASES), default="cbr", show_default=True,
              help="cbr: constant-rate sources (the fixed benchmark); " + "; ".join(
                  f"{c}: one bulk connection per source over {c.upper()}" for c in BENCH_CASES if c != "cbr") + ".")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--suite", is_flag=True,
              help="Run the benchmark suite instead (dumbbells, seed-000 multicast, TCP, PAUSE incast, fat trees).")
@click.option("--size", type=click.Choice(["full", "smoke"]), default="full", show_default=True,
              help="Suite size: full (docs/performance.md) or smoke (tiny, checks the output only).")
@click.option("--reps", default=3, show_default=True, type=click.IntRange(1), help="Suite repetitions (medians).")
@click.option("--only", "only", multiple=True, metavar="CASE", help="Suite: run only this case (repeatable).")
@click.option("--compare", "compare", metavar="BUILD", type=click.Path(exists=True, path_type=Path),
              help="Suite: also run BUILD (a Python interpreter, or a checkout with .venv) interleaved, with ratios.")
@click.option("--out", "out_json", type=click.Path(path_type=Path), help="Suite: also write the rows as JSON here.")
def bench(sources: list[int], control: bool, both: bool, duration: float, case: str, as_json: bool, suite: bool,
          size: str, reps: int, only: tuple[str, ...], compare: Path | None, out_json: Path | None) -> None:
    """Time a benchmark scenario (docs/performance.md): N sources over one 10 Gb/s bottleneck,
    or with --suite every case of the benchmark suite in child processes."""
    if suite:
        return _bench_suite(size, reps, only, compare, out_json, as_json)
    from ._core import bench as core_bench

    rows = []
    for n in sources:
        for with_control in (False, True) if both else (control,):
            rows.append({"sources": n, BENCH_CONTROL: with_control, **core_bench(n, with_control, duration, case)})
            if not as_json:
                _print_bench_row(rows[-1], header=len(rows) == 1)
    if as_json:
        click.echo(json.dumps(rows, indent=2))


def _bench_suite(size: str, reps: int, only: tuple[str, ...], compare: Path | None, out_json: Path | None,
                 as_json: bool) -> None:
    from . import benchsuite
    from .sweep import write_atomic

    if out_json is not None and out_json.exists():  # checked before the run; never overwrite a user's file
        raise click.BadParameter(f"{out_json} exists; choose a new file", param_hint="--out")
    try:
        rows = benchsuite.run(size=size, reps=reps, cases=only or None, compare=compare,
                              progress=lambda m: click.echo(m, err=True))
    except (ValueError, FileNotFoundError, RuntimeError) as e:
        raise click.ClickException(str(e)) from None
    text = json.dumps(rows, indent=2)
    if out_json is not None:
        write_atomic(out_json, text + "\n")
    click.echo(text if as_json else benchsuite.table(rows))


def _print_bench_row(row: dict, header: bool) -> None:
    fmt = "{:>5} {:>8} {:>5} {:>8} {:>8} {:>14} {:>14} {:>16}"
    if header:
        titles = ("case", "sources", BENCH_CONTROL, "sim_s", "wall_s", "events", "events/s", "delivered/s")
        click.echo(fmt.format(*titles))
    click.echo(
        fmt.format(
            row["case"],
            row["sources"],
            "yes" if row[BENCH_CONTROL] else "no",
            f"{row['sim_s']:.3f}",
            f"{row['wall_s']:.3f}",
            f"{row['events']:,}",
            f"{row['events_per_s']:,.0f}",
            f"{row['delivered_per_s']:,.0f}",
        )
    )


def _grid(ctx, param, value: tuple[str, ...]) -> dict[str, list[str]]:
    from .grid import parse

    try:
        return parse(value, f"--{param.name}")
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@cli.command()
@_verbosity
@click.argument("scenario", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--grid", "grid", multiple=True, callback=_grid, metavar="KEY=V1,V2,...",
              help="Values of a scenario key to sweep: a list (--grid 'defaults.queue.capacity=50 frames,100 frames'; quote "
                   "a value holding a comma) or a range (--grid 'defaults.queue.capacity=50..200 step 50 frames'). "
                   "Repeatable: the product.")
@click.option("--zip", "zipped", multiple=True, callback=_grid, metavar="KEY=V1,V2,...",
              help="Keys whose values vary together (same number of values each), e.g. --zip 'a=1,2' --zip 'b=x,y'.")
@SETS
@click.option("--seeds", default=3, show_default=True, type=click.IntRange(1), help="Seeds 1..N per grid point.")
@click.option("--jobs", type=click.IntRange(1), help="Worker processes [all cores].")
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Output directory [out/<stem>-sweep].")
@click.option("--dask", "dask_address", metavar="tcp://HOST:PORT",
              help="Run on the Dask cluster of this scheduler instead of local processes.")
@click.option("--retry-failed", is_flag=True, help="Run again the runs stored as failed.")
@click.option("--keep", "keep", type=click.Choice(["tables", "series", "none"]), multiple=True,
              help="What each run keeps in OUT/runs/<key>/ besides its row: tables (per-flow, per-queue, per-RP "
                   "summaries; the default), series (its time series; repeat --keep for both), none.")
@click.option("--status", "status_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR",
              help="Print the done / failed / missing counts of the sweep in DIR and exit.")
@_guard_options
@_memory_option
def sweep(scenario: Path | None, grid: dict, zipped: dict, sets, seeds: int, jobs: int | None, out: Path | None,
          dask_address: str | None, retry_failed: bool, keep: tuple, status_dir: Path | None,
          max_events, max_wall, max_series_mb) -> None:
    """Run SCENARIO at every point of the grid × seeds; write sweep.parquet (one row per run).

    Each finished run is kept in OUT/runs/ as it completes; running the same sweep again runs only
    the missing ones (and the failed ones with --retry-failed), then rebuilds sweep.parquet.
    """
    from .sweep import PARQUET, sweep_with_counts

    if status_dir is not None:
        _print_status(status_dir)
        return
    if scenario is None:
        raise click.UsageError("missing argument 'SCENARIO' (or give --status DIR)")
    from .outputs import file_name

    out = out or Path("out") / file_name(f"{scenario.stem}-sweep")
    sets = [*sets, *_guard_sets(max_events, max_wall, max_series_mb)]
    client = _dask_client(dask_address) if dask_address else None
    try:
        kept = () if "none" in keep else (keep or ("tables",))
        df, counts = sweep_with_counts(scenario, grid, seeds, jobs, False if quiet() else None, out, sets, client, retry_failed,
                            zipped, kept)
    finally:
        if client is not None:
            client.close()
    _print_sweep(df, [*grid, *zipped], out / PARQUET, counts, errors_only=quiet())
    if df["error"].notna().any():
        click.get_current_context().exit(1)


def _dask_client(address: str):
    from .execution import import_distributed

    try:
        distributed = import_distributed()
    except ImportError as exc:
        raise click.UsageError(f"--dask: {exc}") from None
    try:
        return distributed.Client(address, timeout="10s")
    except OSError as exc:
        raise click.UsageError(f"--dask: cannot reach the scheduler at {address}: {exc}") from None


def _print_status(out: Path) -> None:
    from .sweep import code_mismatch, status

    try:
        counts = status(out)
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    stopped = f" ({counts['stopped']} stopped by a guard)" if counts["stopped"] else ""
    click.echo(f"done: {counts['done']}{stopped}")
    click.echo(f"failed: {counts['failed']}")
    click.echo(f"missing: {counts['missing']}")
    click.echo(f"total: {counts['total']}")
    mismatch = code_mismatch(out)
    if mismatch:
        click.echo(f"code changed: this sweep ran with cnsim {mismatch[0]}, this is cnsim {mismatch[1]}; "
                   "results of other code are not reused (counted as missing): running the sweep again recomputes them")


def _print_sweep(df, keys: list[str], path: Path, counts: dict | None = None, errors_only: bool = False) -> None:
    """The sweep's table (mean ± std-dev per grid point), failures, early stops and the file
    written; with `errors_only` (-q) only the failures, on stderr."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Column, Table

    failed = df[df["error"].notna()]
    if errors_only:
        for message, count in failed["error"].value_counts(sort=False).items():
            click.echo(f"error: {count} run(s) failed: {message}", err=True)
        return
    metrics = _sweep_metrics(df[df["error"].isna()])
    table = Table(*keys, "seeds", *(Column(m, min_width=len(m)) for m in metrics), box=None)  # names whole
    groups = df.groupby(keys, sort=False, dropna=False) if keys else [((), df)]
    for point, rows in groups:
        ok = rows[rows["error"].isna()]
        n = f"{len(ok)}" if len(ok) == len(rows) else f"{len(ok)}/{len(rows)} ok"
        cells = [_mean_std(ok[m].dropna()) for m in metrics]
        table.add_row(*(escape(str(v)) for v in (point if isinstance(point, tuple) else (point,))), n, *cells)
    console = Console()
    if not console.is_terminal:  # a log or a pipe: the whole table, not cut to 80 columns
        console.width = max(console.width, console.measure(table, options=console.options.update_width(1000)).maximum)
    console.print(table)
    for message, count in failed["error"].value_counts(sort=False).items():
        console.print(f"[red]{count} run(s) failed:[/] {escape(message)}", highlight=False)
    stopped = df[df["stopped_by"].notna()]
    for guard, count in stopped["stopped_by"].value_counts(sort=False).items():
        console.print(f"[yellow]{count} run(s) stopped early:[/] {escape(guard)}", highlight=False)
    if counts and counts["skipped"]:
        console.print(f"{counts['skipped']} run(s) already in the store, {counts['ran']} run now")
    console.print(f"wrote {path}")


def _sweep_metrics(ok) -> list[str]:
    """The columns of a sweep's table for what its runs had: the feedback rate where they had
    congestion points, the spread of the sources' rates where they had reaction points (else the
    receivers' mean throughput and its fairness), the loss rate always."""
    from .metrics import MARKERS, row_mechanisms, shown

    present = set().union(*map(row_mechanisms, ok.to_dict("records"))) if len(ok) else set(MARKERS)
    metrics = shown("global", ["feedback_rate_pct", "loss_rate_pct", "cr_std_mbps"], present)
    return metrics if "rp" in present else [*metrics, "throughput_mean_mbps", "jain_throughput"]


def _mean_std(values) -> str:
    if values.empty:
        return "-"
    if len(values) == 1:
        return f"{values.iloc[0]:.4g}"
    return f"{values.mean():.4g} ± {values.std():.2g}"


@cli.command()
@_verbosity
@click.argument("experiment", required=False)
@click.option("--list", "list_", is_flag=True, help="List the experiments that can be reproduced.")
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Output directory [out/<experiment>].")
@click.option("--seeds", type=click.IntRange(2),
              help="Seeds per configuration, at least 2 (no verdict rests on one run), in one look [the experiment's "
                   "sequential schedule, shown by --list; --quick: 3].")
@click.option("--jobs", type=click.IntRange(1), help="Worker processes [all cores].")
@click.option("--dask", "dask_address", metavar="tcp://HOST:PORT",
              help="Run on the Dask cluster of this scheduler instead of local processes.")
@click.option("--quick", is_flag=True, help="Short runs, 3 seeds: a smoke test of the whole pipeline.")
@_memory_option
def reproduce(experiment: str | None, list_: bool, out: Path | None, seeds: int | None, jobs: int | None,
              dask_address: str | None, quick: bool) -> None:
    """Re-run a seed paper's experiment and write its report next to the paper's numbers.

    Runs go through the sweep machinery: each finished run is kept in OUT/runs/ as it completes,
    and running the same command again runs only the missing (and failed) ones.
    """
    import time

    from . import reproduce as rep

    if list_ or not experiment:
        for name, title in rep.titles().items():
            looks = " → ".join(map(str, rep.experiment(name).looks()))
            click.echo(f"{name:24} {title} [seeds {looks}]")
        return
    if experiment not in rep.REGISTRY:
        raise click.BadParameter(f"unknown experiment {experiment!r}; see --list", param_hint="EXPERIMENT")
    t0 = time.monotonic()
    client = _dask_client(dask_address) if dask_address else None
    try:
        report = rep.reproduce(experiment, out or Path("out") / experiment, seeds=seeds, jobs=jobs, quick=quick,
                               client=client)
    except RuntimeError as exc:  # some runs failed; the others are kept
        click.echo(f"error: {exc}", err=True)
        click.get_current_context().exit(1)
    finally:
        if client is not None:
            client.close()
    click.echo(_verdict_line(report.parent / "verdicts.json"))
    for line in _findings(report.parent / "verdicts.json"):
        click.echo(f"  {line}")
    click.echo(f"wrote {report} ({time.monotonic() - t0:.0f} s)")


def _findings(path: Path) -> list[str]:
    """The report's three most important rows (reproduce/verdicts.py's `most_important` says which)."""
    import json

    from .reproduce.verdicts import most_important

    return most_important(json.loads(path.read_text(encoding="utf-8")))


def _verdict_line(path: Path) -> str:
    """The report's verdict counts in one line, as its header states them."""
    import json

    v = json.loads(path.read_text(encoding="utf-8"))
    n = v["counts"]
    return (f"{v['experiment']}: {n['supported']} supported, {n['not supported']} not supported, "
            f"{n['inconclusive']} inconclusive of the paper's claims ({n['holds by construction']} hold by "
            f"construction, {n.get('not testable as stated', 0)} not testable as stated; up to {v['seeds']} seeds)")


@cli.command()
@_verbosity
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--where", metavar="EXPR",
              help="Keep the rows where EXPR holds (pandas query syntax; quote keys with backticks: "
                   "'`defaults.queue.capacity [frames]` >= 100 and seed < 3').")
@click.option("--by", metavar="COL,...",
              help="Aggregate over seeds per group of these columns: mean and 95 % CI (default with --agg: the grid keys).")
@click.option("--agg", is_flag=True, help="Aggregate over seeds per grid point (mean, 95 % CI, n).")
@click.option("--metrics", metavar="M,...", help="Only these metrics (default: all).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the table as CSV.")
@click.option("--parquet", "parquet_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the table as Parquet.")
@click.option("--plot", "plot_metric", metavar="METRIC", help="Draw METRIC (mean ± 95 % CI over seeds) over --x.")
@click.option("--x", "x", metavar="KEY", help="The swept parameter on the x axis (its numeric 'KEY [UNIT]' column is used).")
@click.option("--hue", metavar="KEY", help="One line per value of KEY.")
@click.option("-o", "--out", "fig_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Figure file for --plot [METRIC.png].")
@click.option("--force", is_flag=True, help="Replace existing --csv, --parquet or --out files.")
def results(paths, where, by, agg, metrics, csv_path, parquet_path, plot_metric, x, hue, fig_path, force) -> None:
    """List, filter, aggregate, export and plot the results in run and sweep directories.

    PATHS are `cnsim run` or `cnsim sweep` output directories, or folders holding them. Without
    --by/--agg the table has one row per run.
    """
    from . import query

    if plot_metric and not fig_path:
        fig_path = Path(f"{plot_metric}.png")
    for path, option in ((csv_path, "--csv"), (parquet_path, "--parquet"), (fig_path, "--out")):
        if path is not None and path.exists() and not force:  # checked before any work
            raise click.BadParameter(f"{path} exists: cnsim does not replace a file it may not have written "
                                     "(choose another name, or --force)", param_hint=option)
    try:
        df = query.load(paths)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    grid = df.attrs.get("grid", [])
    if where:
        try:
            df = df.query(where)
        except Exception as exc:  # pandas raises many kinds for a bad expression
            raise click.BadParameter(f"{where!r}: {exc}", param_hint="--where") from None
    known = query.metric_columns(df)
    hidden = [] if metrics else query.hidden_metrics(df)  # by default, what means something for these runs
    wanted = None
    if metrics:
        wanted = list(dict.fromkeys(m.strip() for m in metrics.split(",") if m.strip()))
        bad = [m for m in wanted if m not in known]
        if bad:
            raise click.BadParameter(f"{', '.join(map(repr, bad))}: no such metric here; metrics are {', '.join(known)}",
                                     param_hint="--metrics")
    if plot_metric:
        if plot_metric not in known:
            raise click.BadParameter(f"{plot_metric!r} is not a metric here; metrics are {', '.join(known)}",
                                     param_hint="--plot")
        if not _has_values(df, plot_metric):
            raise click.BadParameter(f"{plot_metric!r} has no value in these results: nothing to draw",
                                     param_hint="--plot")
        if not x:
            if len(grid) != 1:
                raise click.UsageError("--plot needs --x KEY (the swept parameter on the x axis)")
            x = grid[0]
        try:
            query.plot(df, plot_metric, x, hue, fig_path)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        _wrote(fig_path)
        return
    keys = [c.strip() for c in by.split(",")] if by else (grid if agg else None)
    if keys is not None:
        try:
            default = [m for m in query.metric_columns(df, exclude=keys) if m not in hidden]
            table = query.aggregate(df, keys, wanted or default or None)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--by") from None
    else:
        table = df.drop(columns=hidden) if wanted is None else df[[c for c in df.columns if c not in known] + wanted]
    if csv_path:
        table.to_csv(csv_path, index=False)
        _wrote(csv_path, err=True)
    if parquet_path:
        table.to_parquet(parquet_path, index=False)
        _wrote(parquet_path, err=True)
    if not csv_path and not parquet_path:
        import pandas as pd

        with pd.option_context("display.max_rows", 60, "display.max_columns", 30, "display.width", 200):
            click.echo(table.to_string(index=False))
    if keys is not None and not quiet() and (note := _identical_seeds_note(table)):
        click.echo(note, err=True)


def _identical_seeds_note(table) -> str | None:
    """A word on 95 % intervals of exactly 0: the seeds gave identical values, which a reader would
    otherwise take for certainty."""
    cols = [c for c in table.columns if c.endswith("_ci95")]
    zero = [c.removesuffix("_ci95") for c in cols if ((table[c] == 0) & (table["n"] > 1)).any()]
    if not zero:
        return None
    return (f"note: {', '.join(zero)}: a 95 % interval of 0 means every seed gave the same value — the seed does "
            "not move this quantity here (e.g. no drop in any run, or CBR sources with fixed start times), so the "
            "interval is exact, not a sign of too few seeds")


def _has_values(df, column: str) -> bool:
    """Whether `column` holds at least one number (a figure of it would not be empty)."""
    import pandas as pd

    return bool(pd.to_numeric(df[column], errors="coerce").notna().any())


@cli.command("wireshark-plugin")
@_verbosity
def wireshark_plugin() -> None:
    """Print the path of cnsim's Wireshark Lua dissector (CN-TAG, CNM, BCN, cnsim's shim).

    Use it as `wireshark -X lua_script:$(cnsim wireshark-plugin) OUT/capture.pcapng`, or copy it
    into Wireshark's personal Lua plugins folder.
    """
    from .capture import dissector_path

    click.echo(str(dissector_path()))


def main() -> None:
    """Entry point of the `cnsim` command."""
    cli()
