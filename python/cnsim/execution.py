"""Run many independent simulations: one execution backend (`execute`) and a progress bar over runs.

`execute` is the only place that knows *how* runs are executed (in-process, a local process pool,
or a Dask cluster through a `dask.distributed.Client`); `cnsim.sweep` (and through it `cnsim
reproduce`) goes through it. Tasks and results must be picklable plain data.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any


def short(name: str, width: int = 16) -> str:
    """`name` cut to `width` characters (…) so that a progress bar keeps to one 80-column line."""
    return name if len(name) <= width else name[: width - 1] + "…"


def execute(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    jobs: int | None = None,
    *,
    on_start: Callable[[], None] | None = None,
    on_done: Callable[[int, Any], None] | None = None,
    return_exceptions: bool = False,
    client: Any = None,
) -> list:
    """`[fn(t) for t in tasks]`, in `jobs` worker processes (None: all cores; 1: in this process).

    The results are in task order whatever the completion order. `on_start()` is called once the
    workers exist (start a progress display there, not before: workers are forked), `on_done(i,
    result)` as each task finishes. With `return_exceptions`, a task that raised (or whose worker
    died) gives its exception as its result; otherwise the first one is raised and the tasks not
    yet started are cancelled. `fn` must be a module-level function; tasks and results must pickle.
    The first Ctrl-C (KeyboardInterrupt) hands out no more tasks and lets the running ones finish
    (`on_done` sees them: a sweep stores them), then raises KeyboardInterrupt; a second one kills
    the workers at once.

    With `client` (a `dask.distributed.Client`), `jobs` is ignored and each task is sent to the
    cluster as `client.submit(fn, task)`; the results come back to this process as they complete
    (`on_done` runs here). The workers must be able to import `fn`'s module (cnsim installed from
    the same commit). On an exception or Ctrl-C the outstanding futures are cancelled.
    """
    results: list = [None] * len(tasks)
    if not tasks:
        return results

    def done(i: int, result: Any) -> None:
        results[i] = result
        if on_done is not None:
            on_done(i, result)

    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if jobs == 1 and client is None:
        if on_start is not None:
            on_start()
        for i, task in enumerate(tasks):
            try:
                result = fn(task)
            except Exception as exc:
                if not return_exceptions:
                    raise
                result = exc
            done(i, result)
        return results

    if client is not None:
        return _execute_dask(client, fn, tasks, results, done, on_start, return_exceptions)

    # Ctrl-C is held back while the workers are forked: a worker that got it before its
    # initializer ignores it would die and break the pool. The parent receives it right after.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),))
        futures = {pool.submit(fn, task): i for i, task in enumerate(tasks)}
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    interrupted = started = False
    try:
        pending = set(futures)
        while pending:
            try:
                if not started:  # inside: a Ctrl-C from here on is the first or the second
                    started = True
                    if on_start is not None:
                        on_start()
                for fut in as_completed(pending):
                    pending.discard(fut)
                    if fut.cancelled():
                        continue
                    try:
                        result = fut.result()
                    except Exception as exc:
                        if not return_exceptions:
                            raise
                        result = exc
                    done(futures[fut], result)
            except KeyboardInterrupt:
                if interrupted:  # the second Ctrl-C: stop the running ones now
                    _kill_workers(pool)
                    raise
                interrupted = True  # the first: hand out no more runs, keep those that finish
                for f in pending:
                    f.cancel()
                running = sum(not f.cancelled() for f in pending)
                print(f"\ninterrupted: no new runs; {running} running run(s) finish and are kept "
                      "(Ctrl-C again to stop them now)", file=sys.stderr, flush=True)
    except BaseException:
        # Nothing will take the running runs' results: stop them, or the interpreter's exit
        # would wait for them.
        _kill_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    if interrupted:
        raise KeyboardInterrupt
    return results


def _worker_init(pid: int) -> None:
    """Worker initializer: a terminal's Ctrl-C reaches the whole process group; the workers leave
    it to the parent (which lets running runs finish, or kills them on a second Ctrl-C), and end
    with the parent however it ends (`exit_with`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with(pid)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    for process in list(getattr(pool, "_processes", {}).values()):
        try:
            process.kill()
        except (OSError, AttributeError):
            pass


def exit_with(pid: int) -> None:
    """Worker initializer: end this worker as soon as process `pid` (the one that started the
    pool) ends, however it ends — SIGKILL included, when no cleanup code of it runs."""
    threading.Thread(target=_exit_when_gone, args=(pid,), daemon=True, name="exit-with-parent").start()


def _exit_when_gone(pid: int) -> None:
    try:  # Linux ≥ 5.3: a pidfd becomes readable when the process ends
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])
    else:
        while _alive(pid) and os.getppid() != 1:
            time.sleep(0.5)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _execute_dask(client, fn, tasks, results, done, on_start, return_exceptions) -> list:
    distributed = import_distributed()
    futures = {client.submit(fn, task, pure=False): i for i, task in enumerate(tasks)}
    try:
        if on_start is not None:
            on_start()
        for fut in distributed.as_completed(futures):
            try:
                result = fut.result()
            except Exception as exc:  # the task raised, or its worker was lost too often
                if not return_exceptions:
                    raise
                result = exc
            done(futures[fut], result)
            fut.release()
    except BaseException:
        client.cancel(list(futures))
        raise
    return results


def import_distributed():
    """`dask.distributed`, imported only when a Dask backend is asked for, with a clear error."""
    try:
        import dask.distributed as distributed
    except ImportError as exc:
        raise ImportError(
            f"running on Dask needs dask.distributed ({exc}); install the `dask` extra: pip install -e '.[dask]' in the cnsim checkout"
        ) from None
    return distributed


def dask_slots(client) -> int:
    """Number of worker threads of the cluster behind `client` (tasks that can run at once)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:
        return 1


class RunProgress:
    """A rich progress bar over runs on stderr, one line of at most 80 columns: done ✓ / running ▶ /
    failed ✗ counts, runs per minute, ETA.

    A no-op unless `show`. Use as a context manager; `start()` shows it (idempotent), `advance()`
    counts a finished run. `slots` is how many runs execute at once (worker processes, or Dask
    worker threads): "running" is min(slots, runs not finished yet) once started.
    """

    def __init__(self, label: str, total: int, *, show: bool, transient: bool = False, slots: int = 1):
        self.label, self.total, self.show, self.transient = label, total, show, transient
        self.slots = max(1, slots)
        self.ok = self.failed = 0
        self.started = False
        self._bar = None

    @property
    def running(self) -> int:
        return min(self.slots, self.total - self.ok - self.failed) if self.started else 0

    def start(self) -> None:
        self.started = True
        if not self.show or self._bar is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        from rich.progress import TimeRemainingColumn

        self._bar = Progress(  # one line of at most 80 columns
            TextColumn("{task.description}"),
            BarColumn(bar_width=10),
            MofNCompleteColumn(),
            TextColumn("[green]{task.fields[ok]}✓[/] [cyan]{task.fields[running]}▶[/] [red]{task.fields[failed]}✗[/]"),
            _RunsPerMinuteColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=self.transient,
        )
        self._bar.start()
        self._task = self._bar.add_task(short(self.label, 18), total=self.total, ok=0, failed=0, running=self.running)

    def advance(self, ok: bool = True) -> None:
        if ok:
            self.ok += 1
        else:
            self.failed += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, ok=self.ok, failed=self.failed, running=self.running)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _RunsPerMinuteColumn():
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RunsPerMinute(ProgressColumn):
        def render(self, task) -> Text:
            elapsed = task.elapsed or 0.0
            rate = task.completed / elapsed * 60 if elapsed > 0 else 0.0
            return Text(f"{rate:,.{0 if rate >= 10 else 1}f}/min", style="progress.data.speed")

    return RunsPerMinute()
