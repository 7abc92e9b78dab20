"""The choices the papers leave open, as alternative settings re-run beside the baseline.

Each `Setting` is one alternative value of one open choice; `overrides(path, protocol, quick)` gives
the scenario overrides for a configuration (scenario `path`, reaction point `protocol` "qcn" or
"eqcn"), or None when the choice does not apply to it (the configuration's baseline runs then stand
for it). Settings of kind "hypothesis" serve the feedback/loss hypotheses only (hypotheses.py) and
are not part of the sensitivity verdicts. Table sampling is the baseline's comparison run set
(`sampling = "table"`), so it has no overrides of its own here.

`label(outcomes)` turns a verdict state per setting into "supported under every choice" (or another
state) or "depends on X, … (state in the baseline)". Every setting runs the baseline's seed count.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Callable

TABLE = "cp.qcn.sampling=table"
NOT_MODELLED = [
    "buffer per queue vs shared (Mliki et al. 2016a/b §3/§4 say \"one queue per switch output port\"; a shared "
    "switch buffer is not modelled in cnsim, so this choice is not re-run)",
]


@dataclass(frozen=True)
class Setting:
    name: str                 # "key=value", as shown in the report
    choice: str               # the open choice (the scenario key) it varies
    overrides: Callable[[str, str, bool], dict | None]
    kind: str = "sensitivity"


def _flows(path: str) -> list[dict]:
    from ..paper import scenario_file

    return tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", [])


def _per_flow(key: str, value, only=lambda f, proto: True) -> Callable:
    def make(path: str, protocol: str, quick: bool) -> dict | None:
        flows = _flows(path)
        if not any(only(f, protocol) for f in flows):
            return None
        return {f"flow.{i}.{key.format(rp=protocol)}": value for i, f in enumerate(flows) if only(f, protocol)}
    return make


def _global(key: str, value, quick_value=None) -> Callable:
    return lambda path, protocol, quick: {key: quick_value if quick and quick_value is not None else value}


def _mu(f: dict, protocol: str) -> bool:
    return f.get("mode") == "multiple-unicast"


SETTINGS = [
    Setting("cp.qcn.qold=every-sample", "cp.qcn.qold", _global("cp.qcn.qold", "every-sample")),
    # "if Fb is negative, the CP sends a CNM" (Mliki et al. 2016a/b §2.1): QntzFb at least 1
    Setting("cp.qcn.cnm_on_any_negative_fb=true", "cp.qcn.cnm_on_any_negative_fb",
            _global("cp.qcn.cnm_on_any_negative_fb", True)),
    Setting(TABLE, "cp.qcn.sampling", lambda *a: None),
    Setting("limiter.copy_rate=own", "limiter.copy_rate", _per_flow("limiter.copy_rate", "own", _mu)),
    Setting("defaults.link.overhead=0B", "defaults.link.overhead", _global("defaults.link.overhead", "0B")),
    Setting("rp.gd=1/126", "rp.qcn.gd / rp.eqcn.gd", _per_flow("rp.{rp}.gd", 1 / 126)),
    Setting("limiter.buffer=1000", "limiter.buffer", _per_flow("limiter.buffer", 1000)),
    Setting("rp.eqcn.fb_hat_reset=on-release", "rp.eqcn.fb_hat_reset",
            _per_flow("rp.eqcn.fb_hat_reset", "on-release", lambda f, p: p == "eqcn")),
    Setting("rp.eqcn.fb_hat_reset=expire", "rp.eqcn.fb_hat_reset",
            _per_flow("rp.eqcn.fb_hat_reset", "expire", lambda f, p: p == "eqcn")),
    Setting("simulation.measure_from=7s", "simulation.measure_from", _global("simulation.measure_from", "7s", "5.3s")),
    # hypotheses only (hypotheses.py): sources that do not pace, a different decrease
    Setting("rp=none", "rp", _per_flow("rp", "none", lambda f, p: p == "qcn"), kind="hypothesis"),
    Setting("rp.qcn.variant=byte-counter", "rp.qcn.variant",
            _per_flow("rp.{rp}.variant", "byte-counter", lambda f, p: p == "qcn"), kind="hypothesis"),
]
SENSITIVITY = [s for s in SETTINGS if s.kind == "sensitivity"]
QUICK = ["defaults.link.overhead=0B", "rp.eqcn.fb_hat_reset=expire", "rp=none"]  # --quick: a smoke test of the machinery
BY_NAME = {s.name: s for s in SETTINGS}


def label(outcomes: dict[str, str]) -> str:
    """outcomes: setting name ("baseline" included) → the verdict's state under it."""
    states = set(outcomes.values())
    if len(states) == 1:
        return f"{states.pop()} under every choice"
    base = outcomes.get("baseline")
    flip = sorted({BY_NAME[k].choice if k in BY_NAME else k for k, v in outcomes.items() if v != base and k != "baseline"})
    return "depends on " + ", ".join(flip) + f" ({base} in the baseline)"
