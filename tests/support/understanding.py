"""Fixed readings and hand-made mentions for tests of the understanding layer."""

from __future__ import annotations

from engine.agent.planner import Planner
from engine.understand.bank import Bank
from engine.understand.mentions import Candidate, Mention, tokenize
from engine.understand.reading import Reading
from engine.understand.semantic import SlotScores


def fixed_reading(slot_id: str, p: float) -> Reading:
    """The packaged bank's reading of any question as ``slot_id`` with probability ``p``, the
    rest spread over three other slots."""
    slots = {s.id: s for s in Bank.load().slots}
    rest = [s for s in slots if s != slot_id][:3]
    probs = {slot_id: p, **{s: (1 - p) / len(rest) for s in rest}}
    return Reading(SlotScores("", dict(probs), probs), slots)


def reading_as(planner: Planner, reading: Reading) -> Planner:
    """A planner with ``planner``'s parts that reads every question as ``reading`` (through
    its ``reader``)."""
    return Planner(
        planner.store,
        planner.linker,
        planner.budget,
        planner.semantic,
        speller=planner.speller,
        reader=lambda question, resolved: reading,
        data=planner.data,
    )


def named(question: str, text: str, node_id: str) -> Mention:
    """A mention of ``node_id`` over ``text``, with its token positions."""
    start = question.index(text)
    covered = [i for i, t in enumerate(tokenize(question)) if start <= t.start < start + len(text)]
    cand = Candidate(node_id, text, "test", True)
    return Mention(text, start, start + len(text), covered[0], covered[-1], [cand])
