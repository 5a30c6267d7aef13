"""memory.timewords: time words learnt from the bank's time slots."""

from __future__ import annotations

from memory.router import Temporal
from memory.timewords import TimeWords


def _words() -> TimeWords:
    return TimeWords(
        [
            (Temporal.PREVIOUS, "What was [Patient] on previously?"),
            (Temporal.PREVIOUS, "previous medication of [Patient]"),
            (Temporal.PREVIOUS, "[Patient]'s previous drug"),
            (Temporal.FIRST, "What was [Patient]'s original drug?"),
            (Temporal.FIRST, "original medication of [Patient]"),
            (Temporal.FIRST, "What did [Patient] start on?"),
            (Temporal.CURRENT, "Pull up [Patient]'s drug now"),
            (Temporal.CURRENT, "What is [Patient] on now?"),
            (Temporal.CURRENT, "current medication of [Patient]"),
        ]
    )


def test_a_clipped_time_word_reads_as_the_one_word_it_clips() -> None:
    words = _words()
    prev = words.log_odds("prev drug for [Patient]?")
    assert max(prev, key=lambda k: prev[k]) is Temporal.PREVIOUS
    orig = words.log_odds("orig drug for [Patient]?")
    assert max(orig, key=lambda k: orig[k]) is Temporal.FIRST
    assert words.log_odds("pre drug for [Patient]") == words.log_odds("drug for [Patient]"), (
        "too short to clip anything"
    )
