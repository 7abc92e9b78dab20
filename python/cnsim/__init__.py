"""cnsim: packet-level simulation of congestion notification (QCN and kin).

    import cnsim
    res = cnsim.run("scenarios/mliki2016/dumbbell-multicast.toml", set={"cp.qcn.qeq": "25 frames"})
    res.summary["global"]["feedback_rate_pct"]; res.series("rp_cr_bps.S1").plot()
    df = cnsim.sweep("scenarios/mliki2016/dumbbell-multicast.toml", {"cp.qcn.qeq": ["25 frames", "50 frames"]}, seeds=3)

`ScenarioError` and `__version__` come from the engine module and are loaded on first use, so the
pure-Python parts (metrics, outputs, figures) import without a built engine.
"""

from .api import ScenarioWarning, check, describe, lint, run
from .metrics import metric_declarations
from .results import Result
from .scenario import Builder, Scenario
from .sweep import sweep

__all__ = ["run", "check", "describe", "lint", "metric_declarations", "sweep", "Result", "ScenarioError",
           "ScenarioWarning", "Scenario", "Builder", "__version__"]


def __getattr__(name: str):
    if name == "ScenarioError":
        from ._core import ScenarioError

        return ScenarioError
    if name == "__version__":
        from ._core import version

        return version()
    raise AttributeError(f"module 'cnsim' has no attribute {name!r}")
