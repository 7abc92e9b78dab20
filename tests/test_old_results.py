"""A run directory written before the per-entity feedback counters were renamed (`cnms_sent` →
`feedback_sent`, `cnms_received` → `feedback_received`, and their `_window` forms) reopens with the
current names: tests/data/run-before-feedback-rename was written by the engine of that time
(examples/unicast-qcn.toml, 3 ms, measured from 1 ms)."""

import copy
import json
from pathlib import Path

from cnsim.metrics import summarize
from cnsim.results import RENAMED_ENTITY_COUNTERS, Result, upgrade_stats, upgrade_summary

OLD = Path(__file__).parent / "data/run-before-feedback-rename"


def stored() -> dict:
    return json.loads((OLD / "summary.json").read_text(encoding="utf-8"))


def test_the_fixture_holds_the_old_names():
    text = (OLD / "summary.json").read_text(encoding="utf-8")
    for names in RENAMED_ENTITY_COUNTERS.values():
        for old in names:
            assert f'"{old}"' in text
    assert '"feedback_sent_window"' not in text


def test_old_stats_get_the_new_names_with_their_values():
    doc = stored()
    before = copy.deepcopy(doc["stats"])
    after = upgrade_stats(doc["stats"])
    for section, names in RENAMED_ENTITY_COUNTERS.items():
        assert before[section]
        for old_entry, entry in zip(before[section], after[section]):
            assert all(old not in entry for old in names)
            for old, new in names.items():
                if old in old_entry:
                    assert entry[new] == old_entry[old]
            # the other keys stay, in their order
            assert [k for k in entry if k not in names.values()] == [k for k in old_entry if k not in names]
    assert sum(q["feedback_sent_window"] for q in after["queues"]) > 0


def test_old_summary_is_what_the_current_formulas_give_for_the_upgraded_stats():
    doc = stored()
    summary = upgrade_summary(doc["summary"])
    fresh = summarize(upgrade_stats(doc["stats"]))
    def numbers(s: dict) -> dict:  # the definitions' texts changed with the names
        return {k: v for k, v in s.items() if k != "definitions"}

    assert numbers(summary) == numbers(fresh)
    assert [(d["scope"], d["metric"]) for d in summary["definitions"]] == \
        [(d["scope"], d["metric"]) for d in fresh["definitions"]]


def test_an_old_run_directory_reopens_with_the_new_names():
    res = Result.load(OLD)
    assert all("feedback_sent" in q and "cnms_sent" not in q for q in res.stats["queues"])
    assert all("feedback_received_window" in f for f in res.stats["flows"])
    rps = res.table("rps")
    assert "feedback_received" in rps.columns and "cnms_received" not in rps.columns
    assert rps["feedback_received"].sum() == sum(r["feedback_received_window"] for r in res.stats["rps"]) > 0
    assert "feedback_sent" in res.table("queues").columns


def test_a_current_document_is_left_as_it_is():
    doc = {"queues": [{"name": "q", "feedback_sent": 3, "feedback_sent_window": 2}],
           "rps": [{"name": "r", "feedback_received": 1}], "flows": [{"name": "f", "feedback_received_window": 0}]}
    assert upgrade_stats(copy.deepcopy(doc)) == doc
