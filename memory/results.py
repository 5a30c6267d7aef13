"""Memory answers as ``Result`` objects, with node names (never raw ids) wherever known."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from engine.result import Answer, Evidence, LinkedEntity, Result, Status
from memory.dosing import regimen
from memory.origin import STATED, said_as
from memory.patients import find_mrns
from memory.relations import RelationSpec
from memory.router import Temporal, TemporalIntent
from memory.subjects import SubjectRef, subject_kind
from memory.vault import Fact

NameOf = Callable[[str], str | None]


@dataclass(frozen=True)
class Parsed:
    subject: SubjectRef | None
    reverse: bool
    spec: RelationSpec | None
    key: str | None
    temporal: TemporalIntent
    anchors: tuple[LinkedEntity, ...]


def swap(f: Fact) -> Fact:
    return replace(f, obj=f.subj, obj_name=f.subj_name)


def display(
    node: str, stored: str | None, name_of: NameOf | None, said: Iterable[str | None] = ()
) -> str:
    """The name to show for ``node``: the stored one, else the graph's, else, for a patient,
    how the user named it in ``said`` (``named_as``), else the value."""
    if stored and stored != node:
        return stored
    if node.startswith("patient:"):
        return named_as(node, said)
    found = name_of(node) if name_of is not None and "::" in node else None
    return found or node


def named_as(patient: str, said: Iterable[str | None]) -> str:
    """How the user named ``patient`` ("patient:5170") in the first of ``said`` that names it
    with a prefix ("pt 5170", "MRN 5170"); "MRN 5170" when none does. Never the raw id."""
    mrn = patient.removeprefix("patient:")
    for text in said:
        for m in find_mrns(text or ""):
            if m.strong and m.mrn == mrn:
                return " ".join((text or "")[m.start : m.end].split())
    return f"MRN {mrn}"


def _with_detail(name: str, f: Fact, aside: bool = True) -> str:
    """A value with how it holds as stated ("Apixaban 5 mg twice daily"); a medication's dose
    shows how much and how often, what was said besides it ("x5d", "with meals") in brackets
    after it, or not at all without ``aside`` (the answer's own brackets then say it)."""
    if not f.detail:
        return name
    dose, besides = _regimen(f)
    return f"{name} {dose} ({besides})" if besides and aside else f"{name} {dose}"


def _regimen(f: Fact) -> tuple[str, str | None]:
    return regimen(f.detail) if f.rel == "takes" and f.detail else (f.detail or "", None)


def not_answered(question: str, text: str) -> Result:
    return Result(
        question=question,
        status=Status.NOT_ANSWERED,
        mode="memory",
        intent="memory",
        stop_reason="memory-miss",
        text=text,
    )


def who(subject: SubjectRef, said: Iterable[str | None] = ()) -> str:
    """The subject as the user named it: its name, the mention in the question, else (a
    patient of the conversation, named earlier) how ``said`` names it; never a raw id."""
    if subject.name or subject.mention:
        return subject.name or subject.mention
    return named_as(subject.id, said) if subject.id.startswith("patient:") else subject.id


def _evidence(f: Fact, score: float) -> Evidence:
    return Evidence(
        kind="memory",
        score=score,
        triple=f.triple,
        id=f"vault:{f.id}",
        text=f.evidence,
        source="vault",
    )


def answered(
    question: str, parsed: Parsed, chosen: list[Fact], rows: list[Fact], name_of: NameOf | None
) -> Result:
    subject = parsed.subject
    assert subject is not None and parsed.spec is not None
    answers, evidence = [], []
    for rank, f in enumerate(chosen[:5]):
        score = round(1.0 / (1 + rank), 4)
        obj, name = (f.subj, f.subj_name) if parsed.reverse else (f.obj, f.obj_name)
        answers.append(
            Answer(
                id=obj,
                name=display(obj, name, name_of, [f.evidence]),
                score=score,
                kind=subject_kind(obj),
                source="memory",
            )
        )
        evidence.append(_evidence(f, score))
    chosen_ids = {f.id for f in chosen}
    for f in rows:
        if f.id not in chosen_ids and (
            f.replaced_by in chosen_ids or f.id in {c.replaced_by for c in chosen}
        ):
            evidence.append(_evidence(f, 0.1))
    top = chosen[0]
    value = _with_detail(answers[0].name, top, aside=False)
    besides = _regimen(top)[1]
    since = top.t_start.strftime("%Y-%m-%d %H:%M UTC")
    status = "current" if top.current else f"until {top.t_end:%Y-%m-%d %H:%M UTC}"
    when = "" if parsed.temporal.kind == Temporal.CURRENT else f" ({parsed.temporal.kind})"
    said = [f.evidence for f in rows]
    if parsed.temporal.kind == Temporal.CURRENT and len(answers) > 1:
        # several values hold now (her medications): each is said, newest first, so a
        # question about all of them ("what is she on for her BP?") is answered whole
        value = "; ".join(_with_detail(a.name, f) for a, f in zip(answers, chosen, strict=False))
        besides = None
        since = min(f.t_start for f in chosen[: len(answers)]).strftime("%Y-%m-%d %H:%M UTC")
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=answers,
        evidence=evidence,
        mode="memory",
        intent=f"memory:{parsed.spec.name}:{parsed.temporal.kind}",
        stop_reason="memory",
        text=f"{who(subject, said)} — {parsed.spec.label or parsed.spec.name}{when}: {value} "
        f"(from {since}, {status}; {f'{besides}; ' if besides else ''}{said_as(top.source)}).",
    )


def summary(
    question: str,
    subject: SubjectRef,
    facts: list[Fact],
    name_of: NameOf | None,
    labels: Mapping[str, str] | None = None,
) -> Result:
    """Everything currently recorded about a subject, most recent first; ``labels`` name the
    relations ("medication" for ``takes``)."""
    answers, evidence, lines = [], [], []
    for rank, f in enumerate(facts[:10]):
        score = round(1.0 / (1 + rank), 4)
        name = display(f.obj, f.obj_name, name_of, [f.evidence])
        answers.append(
            Answer(id=f.obj, name=name, score=score, kind=subject_kind(f.obj), source="memory")
        )
        evidence.append(_evidence(f, score))
        lines.append(f"{(labels or {}).get(f.rel) or f.rel}: {_with_detail(name, f)}")
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=answers,
        evidence=evidence,
        mode="memory",
        intent="memory:summary:current",
        stop_reason="memory",
        text=f"{who(subject, [f.evidence for f in facts])} — "
        + "; ".join(lines)
        + f" ({said_as(STATED)}).",
    )
