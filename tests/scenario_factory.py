"""Scenario text for the tests' most common topology: sources on one switch `SW`, one bottleneck
link `SW>D` to a host `D`, and one flow from the sources to `D`.

    [[switch]] SW;  [[host]] SOURCES, D;  [[link]] SOURCES–SW;  [[link]] SW–D;  [[flow]] SOURCES → D

Every argument is TOML text pasted as is (a value, or lines inside a table), so a test reads like
the scenario it runs. A scenario with a different shape (two receivers, a group, line numbers an
assertion depends on) is better written out in full.
"""


def star(
    sources: str | list[str] = "S1..S4",
    *,
    duration: str,
    measure_from: str | None = None,
    record_interval: str | None = "0s",
    rate: str = "10Gbps",
    delay: str = "0.5us",
    capacity: str | None = "100 frames",
    cp: str | None = None,
    traffic: str = '{ kind = "cbr", rate = "10Gbps" }',
    rp: str | None = None,
    access: str = "",
    bottleneck: str = "",
    flow: str = "",
    extra: str = "",
) -> str:
    """TOML text of the single-bottleneck star.

    sources: host name or range of the sources (`"S1..S4"`, `"S"`), or a list of them.
    duration, measure_from, record_interval: the `[simulation]` times; `None` leaves a key out.
    rate, delay, capacity: `[defaults]` link rate and delay, queue capacity (`None`: no queue default).
    cp: congestion point protocol, written as an empty `[cp.<cp>]` table (`"bcn"`, `"ecm"`).
    traffic, rp: the flow's `traffic` and `rp` values (`rp = None`: no `rp` key).
    access, bottleneck: extra lines in the sources–SW and the SW–D `[[link]]` tables.
    flow: extra lines in the `[[flow]]` table; extra: text after it (more tables).
    """
    sim = [f'duration = "{duration}"']
    sim += [f'measure_from = "{measure_from}"'] if measure_from is not None else []
    sim += [f'record_interval = "{record_interval}"'] if record_interval is not None else []
    defaults = [f'link = {{ rate = "{rate}", delay = "{delay}" }}']
    defaults += [f'queue = {{ capacity = "{capacity}" }}'] if capacity is not None else []
    lines = ["", "[simulation]", *sim, "[defaults]", *defaults]
    lines += [f"[cp.{cp}]"] if cp is not None else []
    names = ", ".join(f'"{x}"' for x in ([sources] if isinstance(sources, str) else sources))
    many = f"[{names}]" if not isinstance(sources, str) else names
    lines += [
        "[[switch]]", 'names = "SW"',
        "[[host]]", f'names = [{names}, "D"]',
        "[[link]]", f'between = [{many}, "SW"]', *_lines(access),
        "[[link]]", 'between = ["SW", "D"]', *_lines(bottleneck),
        "[[flow]]", f'from = {many}', 'to = "D"', f"traffic = {traffic}",
    ]  # fmt: skip
    lines += [f"rp = {rp}"] if rp is not None else []
    lines += _lines(flow)
    return "\n".join(lines) + "\n" + extra


def _lines(text: str) -> list[str]:
    return text.splitlines()


def hosts(n: int, prefix: str = "H") -> list[str]:
    """`n` host names as ranges of at most 100 000 names each (the engine's limit per range)."""
    return [f"{prefix}{a}..{prefix}{min(a + 99_999, n)}" for a in range(1, n + 1, 100_000)]
