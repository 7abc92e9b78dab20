"""The memory budget: a network whose estimated memory exceeds --max-memory (or the scenario's
simulation.max_memory, or by default 80 % of the memory available) is refused before it is built, with the
estimate and its parts, and without taking that memory; the estimate follows what a build takes."""

import re
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
    # one line naming the table that blows the budget, with its place in the file
    assert lines["exit"] == "2" and "memory budget of 200.0 MB" in r.stderr and r.stderr.count("\n") == 1
    assert re.search(r"million.toml:\d+:\d+: \[\[link\]\] \(1000000 links\) takes about", r.stderr), r.stderr
    # refused from the estimate, before the network is made: the interpreter and the parsed text
    # (about 0.12 GB here), far below the 7.7 GB the network needs
    assert int(lines["peak"]) < 0.4e9
    assert not (tmp_path / "o").exists()


def test_the_scenario_can_set_its_own_limit():
    with pytest.raises(_core.ScenarioError, match="memory budget of 1.0 MB"):
        _core.check(star(1000), "s.toml", [("simulation.max_memory", "1MB")])


def test_membership_requests_count_in_the_estimate():
    # Two thousand [[group.change]] tables, each asking a thousand members to join or leave: two
    # million requests (about 128 MB scheduled), in a file of 100 kB over a network of 1 001 hosts.
    changes = "".join(f'[[group.change]]\nat = "{i}ns"\n{"join" if i % 2 else "leave"} = "H1..H1000"\n'
                      for i in range(1, 2001))
    text = (star(1000) + '[[group]]\nname = "G"\nmembers = "H1..H1000"\n' + changes
            + '[[flow]]\nname = "m"\nfrom = "D"\nto = "G"\ntraffic = { kind = "cbr", rate = "1Mbps" }\n')
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("join = "))
    with pytest.raises(_core.ScenarioError, match=rf"^g.toml:{line}:8: \[\[group.change\]\] \(2000000 membership "
                       r"requests\) takes about 128.0 MB .* memory budget of 60.0 MB"):
        _core.check(text, "g.toml", [("simulation.max_memory", "60MB")])


def test_a_sweep_under_a_small_budget_is_refused_before_any_run(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(star(20_000))
    r = cli("sweep", path, "--grid", "simulation.duration=1ms,2ms", "--max-memory", "20", "-o", tmp_path / "sw")
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


def refused(tmp_path, text: str, *args) -> tuple[str, int]:
    """`cnsim check` of `text` in a fresh process: (its one-line error, its peak RSS in bytes)."""
    path = tmp_path / "s.toml"
    path.write_text(text)
    # VmHWM, not getrusage's ru_maxrss: the latter keeps the parent's peak across exec, so under a
    # large pytest process it measures pytest.
    code = (PEAK + "import sys\nfrom cnsim.cli import main\n"
            f"sys.argv = ['cnsim', 'check', {str(path)!r}, *{list(map(str, args))!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 2, e.code\n"
            "print(peak_bytes())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr.count("\n") == 1, r.stderr
    return r.stderr, int(r.stdout)


def test_check_refuses_a_million_hosts_from_the_estimate(tmp_path):
    err, peak = refused(tmp_path, star(1_000_000), "--max-memory", "200")
    assert re.search(r"s.toml:\d+:\d+: \[\[link\]\] \(1000000 links\) takes about [\d.]+ MB of the scenario's "
                     r"estimated [\d.]+ MB, more than the memory budget of 200.0 MB", err), err
    assert peak < 0.4e9


def test_workloads_are_estimated_at_their_max_flows_before_any_is_drawn(tmp_path):
    workloads = "".join(f'[[workload]]\nname = "w{i}"\nhosts = "H1..H8"\nsizes = "web-search"\nload = 0.5\nstop = "1s"\n'
                        for i in range(100))
    err, peak = refused(tmp_path, star(8) + workloads, "--max-memory", "2000")
    assert "the 100 [[workload]] tables take about" in err and "budget of 2000.0 MB" in err
    assert "(the largest, here: [[workload]] (up to max_flows = 100000 flows)," in err
    assert peak < 0.4e9


def test_the_recorded_series_are_part_of_the_estimate(tmp_path):
    text = star(2000).replace('[simulation]', '[simulation]\nrecord_interval = "1ns"', 1)
    err, _ = refused(tmp_path, text, "--max-memory", "500")
    assert "the recorded series (" in err and "simulation.record_interval" in err


def test_many_small_tables_that_blow_the_budget_together_are_named_together(tmp_path):
    # 200 multicast flows to one 20 000-member group: each [[flow]] table is a few MB, smaller than
    # the [[link]] table, but together they take most of the estimate — the error names them.
    hosts, flows = 20_000, 200
    text = (f'[simulation]\nduration = "1ms"\n[[switch]]\nnames = "S"\n[[host]]\nnames = ["H1..H{hosts}"]\n'
            f'[[link]]\nbetween = ["H1..H{hosts}", "S"]\n[[group]]\nname = "G"\nmembers = ["H2..H{hosts}"]\n'
            + "".join(f'[[flow]]\nname = "f{i}"\nfrom = "D"\nto = "G"\ntraffic = {{ kind = "cbr", rate = "1Mbps" }}\n'
                      for i in range(flows)))
    err, peak = refused(tmp_path, text, "--max-memory", "500")
    m = re.search(rf"s.toml:(\d+):\d+: the {flows} \[\[flow\]\] tables take about ([\d.]+) MB \(the largest, here: "
                  rf"\[\[flow\]\] \(1 flows of {hosts - 1} receivers\), ([\d.]+) MB\) of the scenario's estimated ([\d.]+) MB", err)
    assert m, err
    assert int(m.group(1)) > 10                                   # at a [[flow]] table's line, not the link's
    assert float(m.group(2)) > 0.5 * float(m.group(4)) > float(m.group(3))
    assert peak < 0.4e9
