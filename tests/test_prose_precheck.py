"""The label-value reader skips text that cannot hold a value, and only that.

``find_label_values`` looks for any character a value or a yes/no starts
with before reading a text word by word; a text it skips must give nothing
when read word by word, and the texts it reads give what they gave.
"""

from __future__ import annotations

import pytest

from langgraph_adamm.analytic.extraction import prose

HOLDING = [
    ("walked 8k steps", ("steps", "8k steps")),
    ("Mood good, sleep no", ("sleep", "no")),
    ("tip €5 and parking free", ("tip", "€5")),
    ("Paid ½ price", ("Paid", "½ price")),
    ("done ✓", ("done", "✓")),
    ("Ran TRUE", ("Ran", "TRUE")),
    ("Vegan: Yes.", None),
]
EMPTY = [
    "nothing here at all",
    "I know now, not then: nobody knew",
    "yesterday was truly falsely calm",
    "",
]


@pytest.mark.parametrize(("text", "pair"), HOLDING)
def test_texts_that_may_hold_a_value_are_read(text, pair):
    assert prose._MAY_HOLD_VALUE_RE.search(text)
    if pair is not None:
        assert pair in [
            (label, value) for label, value, _ in prose.find_label_values(text, 0)
        ]


@pytest.mark.parametrize("text", EMPTY)
def test_skipped_texts_give_nothing_read_word_by_word(text, monkeypatch):
    assert prose.find_label_values(text, 0) == []
    monkeypatch.setattr(
        prose,
        "_MAY_HOLD_VALUE_RE",
        type("All", (), {"search": staticmethod(lambda t: True)}),
    )
    assert prose.find_label_values(text, 0) == []
