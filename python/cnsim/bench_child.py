"""One benchmark run in its own process (`cnsim bench --suite`): reads a JSON request
{"text", "path", "overrides"} on stdin, builds and runs the scenario with whatever `cnsim._core`
this interpreter imports, and prints one JSON line: build and run wall seconds, events, delivered
data frames, peak RSS (and the RSS before the scenario was built: the interpreter's own).

Only the oldest stable engine API is used (`Simulation(text, path, overrides, seed)`,
`run_until`, `events`, `stats_json`), so a suite can run this file under another build's
interpreter (`--compare`) and time both builds on the same scenario text.
"""

import json
import resource
import sys
import time


def main() -> None:
    req = json.load(sys.stdin)
    from cnsim import _core

    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    sim = _core.Simulation(req["text"], req["path"], [tuple(kv) for kv in req["overrides"]], None)
    t1 = time.perf_counter()
    sim.run_until(sim.duration_ps, 0)
    t2 = time.perf_counter()
    frames = json.loads(sim.stats_json())["frames"]
    print(json.dumps({
        "build_s": t1 - t0,
        "wall_s": t2 - t1,
        "events": sim.events,
        "delivered_frames": frames["data_delivered"],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rss_before_mb": rss0,
        "stopped_by": sim.stopped_by,
    }))


if __name__ == "__main__":
    main()
