"""Hand-made stats documents in the shape of `sim.stats_json()` (docs/internals/core-api.md);
tests/test_factories_schema.py checks every key against a real run's document."""

COUNTS = (
    "data_generated data_source_dropped data_injected data_replicated data_delivered "
    "data_dropped data_in_flight feedback_sent feedback_delivered feedback_dropped feedback_in_flight"
).split()


def rp(name, cr_mean_mbps, cr_std_mbps=0.0, first_cnm_s=None):
    return {
        "name": name, "flow": name, "source": name, "protocol": "qcn",
        "cr_mean_bps": cr_mean_mbps * 1e6, "cr_std_bps": cr_std_mbps * 1e6,
        "cr_min_bps": 0.0, "cr_final_bps": 0.0, "first_cnm_s": first_cnm_s,
        "feedback_received": 7, "feedback_received_window": 5, "limiters_created": 1,
    }  # fmt: skip


def queue(name, cp, q_mean, qeq=None, arrivals=0, busy_s=0.0):
    return {
        "name": name, "node": name.split(">")[0], "peer": name.split(">")[1], "cp": cp,
        "qeq_frames": qeq, "capacity": "100 frames", "q_mean_frames": q_mean, "q_std_frames": 2.0,
        "q_max_frames": 100, "arrivals": arrivals, "arrivals_window": arrivals // 2,
        "drops": 3, "drops_window": 2, "feedback_sent": 9, "feedback_sent_window": 4,
        "busy_s_window": busy_s, "rate_bps": 1e9,
    }  # fmt: skip


def flow(name, throughputs_mbps, generated=1000, source_dropped=0):
    return {
        "name": name, "source": name, "mode": "multicast", "group": "G1",
        "frames_generated": generated, "frames_generated_window": generated // 2,
        "source_dropped": source_dropped,
        "receivers": [
            {"host": h, "frames": 1, "bytes_window": 1, "throughput_bps": t * 1e6}
            for h, t in throughputs_mbps.items()
        ],
    }  # fmt: skip


def stats(rps=(), queues=(), flows=(), window=None, window_s=5.0):
    return {
        "version": "0.1.0", "seed": 1, "scenario": "x.toml",
        "time": {"end_s": 10.0, "duration_s": 10.0, "measure_from_s": 10.0 - window_s,
                 "window_s": window_s},
        "events": 1, "stopped_by": None,
        "frames": dict.fromkeys(COUNTS, 0),
        "window": {k: 0 for k in COUNTS if not k.endswith("_in_flight")} | (window or {}),  # no in-flight counts
        "rps": list(rps), "queues": list(queues), "flows": list(flows),
    }  # fmt: skip


def port(name, pause_sent=3, pause_received=0, paused_s=0.001):
    return {
        "name": name, "node": name.split(">")[0], "pause_sent": pause_sent, "pause_received": pause_received,
        "paused_s": [paused_s] * 8, "paused_s_window": [paused_s] * 8, "xoff_sent": 2, "xon_sent": 1,
    }  # fmt: skip
