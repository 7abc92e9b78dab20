"""Findings prose whose every number is computed.

A finding is a template with named fields and no digit of its own: `text("the first CNM comes at
{t}", t=fmt_s(...))`. Numbers enter only through the fields, from the runs of the report (cnsim's
values, formatted), from `PaperValue`s (the paper's, with their section) or from the scenario
(read, not typed). A template with a digit is refused, so a number typed by hand into the prose
cannot reach a report; tests render every paper's findings from real runs.

Sections, figures and seeds are named through fields too (`ref("§3.1")` is a formatter), so that
"no digit in a template" has no exceptions to remember.
"""

from __future__ import annotations

import re
import string

DIGIT = re.compile(r"\d")


def check_template(template: str) -> str:
    """`template` if it has no digit outside its fields; ValueError otherwise."""
    literal = "".join(part for part, *_ in string.Formatter().parse(template))
    m = DIGIT.search(literal)
    if m:
        at = literal[max(0, m.start() - 30): m.end() + 30]
        raise ValueError(f"findings template has a typed number ({at!r}): pass numbers as fields")
    return template


def text(template: str, **fields) -> str:
    """The template with its fields filled in (see the module)."""
    return check_template(template).format(**fields)


def ref(label: str) -> str:
    """A section, table, figure or seed name with digits ("§3.1", "Table III", "seed 000")."""
    return str(label)
