"""The question forms, in the order they are tried (the first that reads wins).

Narrower forms come first: "A or B" and a share before two sides compared, a
measure of the top group before groups ranked, a period an event bounds last
(the others read their own event anchors). A question no form reads is the
single-operator question the rule planner maps.
"""

from __future__ import annotations

from langgraph_adamm.planning.anchored import ANCHORED
from langgraph_adamm.planning.comparisons import COMPARISON, EITHER
from langgraph_adamm.planning.forms import Form
from langgraph_adamm.planning.groupings import GROUPED, TOP_GROUP_MEASURE
from langgraph_adamm.planning.shares import SHARE

FORMS: tuple[Form, ...] = (
    EITHER,
    SHARE,
    COMPARISON,
    TOP_GROUP_MEASURE,
    GROUPED,
    ANCHORED,
)

__all__ = ["FORMS"]
