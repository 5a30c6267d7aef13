"""A tiny deterministic engine for the runner tests."""

from __future__ import annotations

from typing import Any

from engine.result import Answer, Evidence, Result, Status


class FakeEngine:
    """Answers from a fixed table keyed by question text; records every call it receives."""

    def __init__(self, table: dict[str, Result], fail_on: set[str] | None = None) -> None:
        self.table = table
        self.fail_on = fail_on or set()
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def ask(self, *args: Any, **kwargs: Any) -> Result:
        self.calls.append((args, kwargs))
        question = args[0]
        if question in self.fail_on:
            raise RuntimeError("boom")
        return self.table.get(question, Result(status=Status.NOT_ANSWERED)).model_copy(deep=True)


def answered(answer_id: str, triple: tuple[str, str, str], **extra: Any) -> Result:
    return Result(
        status=Status.ANSWERED,
        answers=[Answer(id=answer_id, name=answer_id, score=0.9)],
        evidence=[Evidence(kind="triple", triple=triple, score=0.9)],
        paths=[[triple]],
        **extra,
    )
