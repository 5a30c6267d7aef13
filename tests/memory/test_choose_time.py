"""memory.choose.temporal: the bank moving a question off "current"."""

from __future__ import annotations

from memory.asks import AskReading
from memory.choose import temporal
from memory.router import Temporal, TemporalIntent


def test_before_words_without_an_anchor_ask_for_the_previous_value() -> None:
    """The relation has no "before" slot ("the INR reading prior to the latest one"): the words that
    speak for "before" still move an unanchored question to the previous value."""
    reading = AskReading(
        "[Patient]'s INR reading prior to the latest one",
        {("lab_value", Temporal.CURRENT): 0.60, ("lab_value", Temporal.PREVIOUS): 0.60},
        {Temporal.CURRENT: 0.0, Temporal.PREVIOUS: 0.0, Temporal.BEFORE: 6.0},
    )
    read = temporal(TemporalIntent(), reading, "lab_value", anchored=False)
    assert read.kind is Temporal.PREVIOUS
    anchored = temporal(TemporalIntent(), reading, "lab_value", anchored=True)
    assert anchored.kind is Temporal.CURRENT, "with an anchor, 'before' is about it"
