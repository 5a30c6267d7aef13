"""The runner tests' engine: the shared fake (``tests/support``) answering from a table."""

from __future__ import annotations

from typing import Any

from engine.result import Answer, Evidence, Result, Status
from tests.support.fake_engine import FakeEngine


def table_engine(table: dict[str, Result], fail_on: set[str] | None = None) -> FakeEngine:
    """The shared fake engine answering from ``table`` (anything else: NOT_ANSWERED)."""
    return FakeEngine(
        answers=dict(table),
        fallback=lambda _q, _linked, _options: Result(status=Status.NOT_ANSWERED),
        fail_on=fail_on or (),
    )


def answered(answer_id: str, triple: tuple[str, str, str], **extra: Any) -> Result:
    return Result(
        status=Status.ANSWERED,
        answers=[Answer(id=answer_id, name=answer_id, score=0.9)],
        evidence=[Evidence(kind="triple", triple=triple, score=0.9)],
        paths=[[triple]],
        **extra,
    )
