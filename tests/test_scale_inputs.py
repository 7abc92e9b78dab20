"""Checking and building stay near-linear in flows, names and group members (time limits are
generous: several times what this code takes, below what the quadratic code took), and a group
that only its source belongs to is refused at check time."""

import time

import pytest

from cnsim import _core


def line_of_flows(n_flows: int, hosts_per_switch: int = 100, host_tables: bool = False) -> str:
    """A line of switches, each with `hosts_per_switch` hosts; host k sends to a host one switch on.
    The hosts are one `[[host]]` table, or with `host_tables` one table per switch (any size)."""
    n_sw = n_flows // hosts_per_switch
    hosts = ([f'[[host]]\nnames = "H{(i - 1) * hosts_per_switch + 1}..H{i * hosts_per_switch}"\n' for i in range(1, n_sw + 1)]
             if host_tables else [f'[[host]]\nnames = "H1..H{n_sw * hosts_per_switch}"\n'])
    parts = ['[simulation]\nduration = "1ms"\nmeasure_from = "0.5ms"\n[defaults]\n'
             'link = { rate = "10Gbps", delay = "1us" }\n', f'[[switch]]\nnames = "S1..S{n_sw}"\n', *hosts]
    parts += [f'[[link]]\nbetween = ["S{i}", "S{i + 1}"]\n' for i in range(1, n_sw)]
    parts += [f'[[link]]\nbetween = ["H{(i - 1) * hosts_per_switch + 1}..H{i * hosts_per_switch}", "S{i}"]\n'
              for i in range(1, n_sw + 1)]
    parts += [f'[[flow]]\nfrom = "H{k}"\nto = "H{(k + hosts_per_switch) % (n_sw * hosts_per_switch) + 1}"\n'
              'traffic = { kind = "cbr", rate = "1Mbps" }\n' for k in range(1, n_flows + 1)]
    return "\n".join(parts)


def scenario_of_size(megabytes: float) -> str:
    """A line of flows (`line_of_flows`, one host table per switch) whose text is about `megabytes` MB."""
    per_flow = len(line_of_flows(10_000, host_tables=True)) / 10_000
    return line_of_flows(max(100, round(megabytes * 1e6 / per_flow / 100) * 100), host_tables=True)


def two_level_group(edges: int, per_edge: int, members: str | None = None) -> str:
    """A root switch over `edges` edge switches of `per_edge` hosts; H1 multicasts to the others."""
    m = edges * per_edge
    links = "".join(f'[[link]]\nbetween = ["H{(i - 1) * per_edge + 1}..H{i * per_edge}", "E{i}"]\n'
                    for i in range(1, edges + 1))
    return f"""[simulation]
duration = "1ms"
measure_from = "0.5ms"
[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}
[[switch]]
names = ["R", "E1..E{edges}"]
[[host]]
names = "H1..H{m}"
[[link]]
between = ["E1..E{edges}", "R"]
{links}[[group]]
name = "G"
members = "{members or f'H2..H{m}'}"
[[flow]]
from = "H1"
to = "G"
traffic = {{ kind = "cbr", rate = "1Mbps" }}
"""


def timed_check(text: str) -> float:
    """The check's CPU time in this process (not wall time: a loaded machine must not fail it; the
    bounds guard against a quadratic algorithm, which costs CPU whatever the load)."""
    t0 = time.process_time()
    _core.check(text, "scale.toml", [])
    return time.process_time() - t0


def test_forty_thousand_flows_check_in_seconds():
    # this code: about 1 s; the resolved TOML written as one document took 4.7 s
    assert timed_check(line_of_flows(40_000)) < 3.5


def test_a_fifty_thousand_member_group_checks_in_seconds():
    # this code: about 0.6 s; a breadth-first search per member took 12.6 s
    assert timed_check(two_level_group(100, 500)) < 4.0


def test_ten_flows_to_a_group_behind_one_switch_check_in_seconds():
    # Every member hangs off one switch, so that switch's row of each tree has a port per member:
    # this code about 0.5 s; a scan of the row per member's branch took 7 s (most of a second per flow).
    text = two_level_group(1, 50_000) + "".join(
        f'[[flow]]\nname = "f{i}"\nfrom = "H1"\nto = "G"\ntraffic = {{ kind = "cbr", rate = "1Mbps" }}\n' for i in range(9))
    assert timed_check(text) < 5.0


def test_a_group_whose_only_member_is_the_source_is_refused():
    with pytest.raises(_core.ScenarioError, match="no member other than the flow's source H1"):
        _core.check(two_level_group(2, 2, members="H1"), "lonely.toml", [])


@pytest.mark.parametrize("mode", ["multicast", "multiple-unicast"])
def test_both_group_modes_refuse_a_source_only_group(mode):
    text = two_level_group(2, 2, members="H1").replace('to = "G"', f'to = "G"\nmode = "{mode}"')
    with pytest.raises(_core.ScenarioError, match="nothing would be received"):
        _core.check(text, "lonely.toml", [])


def test_port_tables_naming_every_port_of_a_wide_switch_check_in_seconds():
    # Eight [[port]] tables each naming the 20 000 ports of one switch: this code about 1 s; a scan
    # of the switch's ports per named port took 1.2 s per table (10 s).
    hosts = 20_000
    text = (f'[simulation]\nduration = "1ms"\n[[switch]]\nnames = "S"\n[[host]]\nnames = "H1..H{hosts}"\n'
            f'[[link]]\nbetween = ["H1..H{hosts}", "S"]\n')
    text += "".join(f'[[port]]\nat = "S>H1..H{hosts}"\nqueue = {{ capacity = "{i + 1} frames" }}\n' for i in range(8))
    assert timed_check(text) < 4.0


def ports_named(tables: int, hosts: int = 2_000) -> str:
    """A switch S with `hosts` hosts, and `tables` `[[port]]` tables each naming every host port of S."""
    ports = "".join(f'[[port]]\nat = "S>H1..H{hosts}"\nqueue = {{ capacity = "{100 + i} frames" }}\n' for i in range(tables))
    return (f'[simulation]\nduration = "1ms"\n[[switch]]\nnames = "S"\n[[host]]\nnames = "H1..H{hosts}"\n'
            f'[[link]]\nbetween = ["H1..H{hosts}", "S"]\n' + ports)


def test_port_tables_that_name_each_port_too_often_are_refused_before_any_is_applied():
    # 2 000 links: 4 000 ports. Sixteen tables naming S's 2 000 ports (32 000 namings, 8 per port)
    # are applied; a seventeenth is refused at its own line, counted before any naming is resolved.
    _core.check(ports_named(16), "ports.toml", [])
    with pytest.raises(_core.ScenarioError, match=r"ports\.toml:\d+:\d+: the \[\[port\]\] tables name at least 34000 ports "
                                                  r"in all, over 8 times the network's 4000 ports") as e:
        _core.check(ports_named(17), "ports.toml", [])
    text = ports_named(17)
    line = int(str(e.value).split(":")[1])
    assert text.splitlines()[line - 1] == 'at = "S>H1..H2000"' and text.splitlines()[line].endswith('"116 frames" }')
    # forty million namings from a few hundred kB: refused at once, not applied for a minute
    assert timed_check_refused(ports_named(20_000, 2_000)) < 2.0


def timed_check_refused(text: str) -> float:
    t0 = time.process_time()
    with pytest.raises(_core.ScenarioError, match="name each port in a few tables at most"):
        _core.check(text, "ports.toml", [])
    return time.process_time() - t0
