"""Workloads cannot exhaust memory or hang: the scenario's memory estimate counts each workload at
its max_flows, and every generated flow is charged to the memory budget before it is drawn (so many
tables, each under its own max_flows, are refused together), and a
CDF file is read only if it is a regular file under its size cap (a FIFO, a device or a huge file
is refused at once). Each hostile case runs in a child process with a deadline and a peak-memory
measurement."""

import re
import subprocess
import sys

import pytest

import odd_files

STAR = """
[simulation]
duration = "1us"

[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}

[[switch]]
names = ["SW"]
[[host]]
names = ["H1..H{n}"]
[[link]]
between = ["SW", "H1..H{n}"]
"""
WORKLOAD = """
[[workload]]
name = "w{i}"
hosts = ["H1..H{n}"]
sizes = "{sizes}"
load = 0.9
stop = "{stop}"
max_flows = {max_flows}
"""
DEADLINE_S = 30
PEAK = ("def peak_bytes():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            return int(line.split()[1]) * 1024\n")


def check(tmp_path, text: str, *args) -> tuple[int, str, int]:
    """`cnsim check` of `text` in a child: (exit code, stderr, the child's peak memory in bytes)."""
    path = tmp_path / "s.toml"
    path.write_text(text)
    code = (PEAK + "import sys\nfrom cnsim.cli import main\n"
            f"sys.argv = ['cnsim', 'check', {str(path)!r}, *{list(map(str, args))!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    print('exit', e.code)\nprint('peak', peak_bytes())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=DEADLINE_S)
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    return int(lines.get("exit", "0") or 0), r.stderr, int(lines["peak"])


def test_a_hundred_workloads_each_under_its_max_flows_are_refused_together(tmp_path):
    # 100 tables of ≈ 90 000 flows each (4 hosts × 0.9 · 10 Gb/s ÷ (8 × 1.71 MB, web-search's mean) × 34 s),
    # each under the default max_flows of 100 000: ≈ 9 M flows in all.
    text = STAR.format(n=4) + "".join(WORKLOAD.format(i=i, n=4, sizes="web-search", stop="34s", max_flows=100_000)
                                      for i in range(100))
    code, err, peak = check(tmp_path, text, "--max-memory", "500")
    # the scenario's estimate counts each table at its max_flows, before any flow is drawn
    assert code == 2 and "memory budget of 500.0 MB" in err and "[[workload]] (up to max_flows = 100000 flows)" in err, err
    assert "s.toml:" in err                          # the table that blows the budget, by file and line
    assert peak < 1.5e9


def test_a_huge_max_flows_with_tiny_transfers_is_refused_before_drawing(tmp_path):
    (tmp_path / "one.cdf").write_text("1 1\n")
    text = STAR.format(n=4) + WORKLOAD.format(i=0, n=4, sizes="one.cdf", stop="10s", max_flows=10**12)
    code, err, peak = check(tmp_path, text, "--max-memory", "500")
    assert code == 2 and "memory budget" in err and peak < 1.5e9, err


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "huge"])
def test_a_cdf_that_is_not_a_small_regular_file_is_refused_at_once(tmp_path, kind):
    target = tmp_path / "sizes.cdf"
    odd_files.make(target, kind, 64 << 20)
    text = STAR.format(n=2) + WORKLOAD.format(i=0, n=2, sizes="sizes.cdf", stop="1ms", max_flows=100)
    code, err, _ = check(tmp_path, text)
    assert code == 2 and "sizes" in err, err
    assert ("not a regular file" in err) if kind != "huge" else ("bytes, more than the" in err)


def test_workloads_are_estimated_at_what_their_flows_really_cost(tmp_path):
    # 10 tables of up to 100 000 TCP transfers: about 1.5 GB at the flat per-flow figure the
    # estimate once used (a flow spec and a flow), about 3 GB as built (the connection, its timers,
    # its sender, its series' names: build/flow_bytes.rs). Under a 2 GB budget the estimate refuses
    # it before anything is built, naming a table by its line.
    text = STAR.format(n=4) + "".join(WORKLOAD.format(i=i, n=4, sizes="web-search", stop="34s", max_flows=100_000)
                                      + 'traffic = "tcp-transfer"\n' for i in range(10))
    code, err, peak = check(tmp_path, text, "--max-memory", "2000")
    assert code == 2 and err.count("\n") == 1, err
    m = re.search(r"s\.toml:\d+:\d+: the 10 \[\[workload\]\] tables take about ([\d.]+) MB \(the largest, here: "
                  r"\[\[workload\]\] \(up to max_flows = 100000 flows\), ([\d.]+) MB\) of "
                  r"the scenario's estimated ([\d.]+) MB, more than the memory budget of 2000\.0 MB", err)
    assert m, err
    # ten equal tables: together ten times one, and nearly the whole estimate
    assert float(m.group(1)) == pytest.approx(10 * float(m.group(2)), rel=1e-3)
    assert float(m.group(1)) > 0.9 * float(m.group(3))
    total = float(re.search(r"estimated ([\d.]+) MB", err).group(1))
    assert 2000 < total < 4000
    assert peak < 0.4e9                              # refused from the estimate, not part-way through a build


def test_a_transport_s_own_buffers_are_part_of_the_estimate(tmp_path):
    # TCP makes its receive window when it makes a connection (4 B a segment): TCP's largest window
    # (2^30 B) in segments of 1 B is 2^30 segments, 4.3 GB, refused from the estimate before the
    # connection is made.
    text = STAR.format(n=2) + ('[[flow]]\nfrom = "H1"\nto = "H2"\ntraffic = { kind = "bulk" }\n'
                               f'transport = {{ tcp = {{ mss = "1B", rwnd = {2 ** 30} }} }}\n')
    code, err, peak = check(tmp_path, text, "--max-memory", "2000")
    assert code == 2 and re.search(r"s\.toml:\d+:\d+: \[\[flow\]\] \(1 flows\) takes about 429\d\.\d MB", err), err
    assert peak < 0.4e9


def test_check_holds_one_generated_flow_at_a_time(tmp_path):
    # 10 tables of ≈ 89 000 flows: a build that keeps them all peaks past 1.1 GB; `check` makes and
    # checks each flow, then drops it, so its peak is Python's and its imports'.
    text = STAR.format(n=4) + "".join(WORKLOAD.format(i=i, n=4, sizes="web-search", stop="34s", max_flows=100_000)
                                      for i in range(10))
    code, err, peak = check(tmp_path, text)
    assert code == 0, err
    assert peak < 400e6, peak
