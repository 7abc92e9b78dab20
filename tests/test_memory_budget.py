"""The memory budget: a network whose estimated memory exceeds --max-memory (or the scenario's
simulation.max_memory, or by default 80 % of the memory available) is refused before it is built, with the
estimate and its parts, and without taking that memory; the estimate follows what a build takes."""

import subprocess
import sys

import pytest

import scenario_factory
from cnsim import _core
from scenario_factory import hosts


def star(n: int) -> str:
    """n hosts on one switch, each sending 1 Mb/s to D."""
    return scenario_factory.star(hosts(n), duration="1ms", measure_from="0.5ms", record_interval=None, delay="1us",
                                 capacity=None, traffic='{ kind = "cbr", rate = "1Mbps" }')


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True)


PEAK = ("def peak_bytes():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            return int(line.split()[1]) * 1024\n")  # this process's own peak (not inherited)


def test_a_million_hosts_are_refused_under_a_small_budget_without_taking_the_memory(tmp_path):
    path = tmp_path / "million.toml"
    path.write_text(star(1_000_000))
    code = (PEAK + "import sys\nfrom cnsim.cli import main\n"
            f"sys.argv = ['cnsim', 'run', {str(path)!r}, '--max-memory', '200', '-o', {str(tmp_path / 'o')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    print('exit', e.code)\nprint('peak', peak_bytes())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert lines["exit"] == "2" and "memory budget of 200.0 MB" in r.stderr and "ports and queues" in r.stderr
    assert int(lines["peak"]) < 1.5e9   # the refused run's peak memory: far below the 7.7 GB it needs
    assert not (tmp_path / "o").exists()


def test_the_scenario_can_set_its_own_limit():
    with pytest.raises(_core.ScenarioError, match="memory budget of 1.0 MB"):
        _core.check(star(1000), "s.toml", [("simulation.max_memory", "1MB")])


def test_a_sweep_under_a_small_budget_is_refused_before_any_run(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(star(20_000))
    r = cli("sweep", path, "--grid", "simulation.seed=1,2", "--max-memory", "20", "-o", tmp_path / "sw")
    assert r.returncode == 2 and "memory budget" in r.stderr and not (tmp_path / "sw" / "sweep.parquet").exists()


def test_the_default_budget_is_most_of_the_memory_available():
    fields = dict(line.split(":", 1) for line in open("/proc/meminfo"))
    available = int(fields["MemAvailable"].split()[0]) * 1024
    assert _core.memory_budget() == pytest.approx(0.8 * available, rel=0.05)   # MemAvailable moves a little


def test_the_estimate_follows_what_a_build_takes():
    """Binary search for the smallest budget that builds a 20 000-host star, against the build's
    peak resident memory growth measured in a fresh process."""
    text = star(20_000)
    lo, hi = 1, 10**10
    while hi - lo > hi // 200:
        mid = (lo + hi) // 2
        try:
            _core.check(text, "s.toml", [("simulation.max_memory", f"{mid}B")])
            hi = mid
        except _core.ScenarioError:
            lo = mid
    code = (PEAK + "from cnsim import _core\nb = peak_bytes()\n"
            f"s = _core.Simulation({text!r}, 's', [], None)\n"
            "print(peak_bytes() - b)\n")
    grown = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
    assert 0.5 * grown < hi < 2 * grown
