"""Answering memory probes from ONE user's vault.

A question is parsed into a subject (patient by MRN/name/title, note, or KG entity), a relation
(cue lexicons of ``relations.yaml``, restricted to relations the subject can have), an optional
measurement key ("CA 19-9") and a temporal intent (router). The answer is drawn only from this
user's vault. ``None`` means "not a memory question" (the KG pipeline takes over);
NOT_ANSWERED means the question is about this user's memory but nothing matching is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.result import Answer, Evidence, LinkedEntity, Result, Status
from engine.util.text import alias_key
from memory import timeline
from memory.literals import mentioned_keys
from memory.relations import RelationCatalog, RelationSpec
from memory.router import Route, Temporal, TemporalIntent
from memory.subjects import NOTE, PATIENT, Resolver, SubjectRef, kind_of
from memory.vault import Fact, Vault

_PATIENT_RELS_MIN = 1.0


@dataclass(frozen=True)
class Parsed:
    subject: SubjectRef | None
    reverse: bool
    spec: RelationSpec | None
    key: str | None
    temporal: TemporalIntent
    anchors: tuple[LinkedEntity, ...]


class Answerer:
    def __init__(self, vault: Vault, resolver: Resolver, catalog: RelationCatalog) -> None:
        self.vault = vault
        self.resolver = resolver
        self.catalog = catalog

    def answer(
        self,
        question: str,
        linked: list[LinkedEntity],
        route: Route,
        session_subject: str | None = None,
    ) -> Result | None:
        patients = self.resolver.patients(question)
        notes = self.resolver.notes(question)
        spans = [(r.start, r.end) for r in patients + notes]
        entities = [
            e for e in linked if e.start < 0 or not any(e.start < b and a < e.end for a, b in spans)
        ]
        miss: SubjectRef | None = None
        for subject, reverse in self._candidates(
            question, patients, notes, entities, route, session_subject
        ):
            if not subject.known or not subject.id:
                miss = miss or subject
                continue
            history = (
                self.vault.about_object(subject.id) if reverse else self.vault.history(subject.id)
            )
            spec = self._relation(question, subject, history, reverse)
            if (
                spec is None
                and not reverse
                and history
                and self._summary_ok(question, subject, route)
            ):
                return _summary(question, subject, timeline.current(history))
            if spec is None:
                if not reverse and subject.kind in (PATIENT, NOTE):
                    miss = miss or subject
                continue
            rows = [f for f in history if f.rel == spec.name]
            key = self._key(question, spec)
            if key is not None:
                rows = [f for f in rows if f.key == key]
            anchors = tuple(e for e in entities if e.id != subject.id)
            parsed = Parsed(subject, reverse, spec, key, route.temporal, anchors)
            chosen = self._select(rows, parsed)
            if not chosen:
                return self._not_answered(question, subject, "nothing stored for that")
            self.vault.touch(f.id for f in chosen)
            return _result(question, parsed, chosen, rows)
        if miss is not None:
            return self._not_answered(question, miss, "nothing stored for that")
        return None

    # --- parsing -------------------------------------------------------------------------
    def _candidates(
        self,
        question: str,
        patients: list[SubjectRef],
        notes: list[SubjectRef],
        entities: list[LinkedEntity],
        route: Route,
        session_subject: str | None,
    ) -> Iterator[tuple[SubjectRef, bool]]:
        """Possible subjects, best first; unknown ones make a NOT_ANSWERED if nothing fits."""
        patient_cue = self._best_score(question, PATIENT) >= _PATIENT_RELS_MIN
        note_cue = self._best_score(question, NOTE) > 0
        for ref in patients:
            if (
                ref.known
                or ref.via == "mrn"
                or (patient_cue and (ref.via != "bare" or not entities))
            ):
                yield ref, False
        for ref in notes:
            if ref.known or note_cue:
                yield ref, False
        for ref in self.resolver.entities(entities):
            yield ref, False
            yield ref, True
        if session_subject and route.rule == "follow-up" and not patients and not notes:
            yield (
                SubjectRef(session_subject, kind_of(session_subject), "", -1, -1, True, "episodic"),
                False,
            )
        if route.rule == "own-notes":
            for ref in self.resolver.entities(entities[:1]):
                yield replace(ref, known=False), False

    def _summary_ok(self, question: str, subject: SubjectRef, route: Route) -> bool:
        """No relation asked for at all: "What do we know about MRN 4471?" gets everything
        current (for KG entities only when the question says it is about the user's notes)."""
        specs = self.catalog.relations.values()
        if any(s.score(question, ask=True) > 0 for s in specs) or any(
            self._key(question, s) is not None for s in specs
        ):
            return False  # a relation or a measurement was asked for, and is not stored
        return subject.kind in (PATIENT, NOTE) or route.rule == "own-notes"

    def _best_score(self, question: str, kind: str) -> float:
        return max(
            (s.score(question, ask=True) for s in self.catalog.for_subject(kind)), default=0.0
        )

    def _relation(
        self, question: str, subject: SubjectRef, history: list[Fact], reverse: bool
    ) -> RelationSpec | None:
        present = {f.rel for f in history}
        kind = subject.kind
        specs = [
            s
            for s in self.catalog.relations.values()
            if (kind in s.objects if reverse else s.subject == kind)
        ]
        scored = []
        for spec in specs:
            score = spec.score(question, ask=True)
            if spec.functional == "key" and self._key(question, spec) is not None:
                score += 3.0
            scored.append((score, spec.name in present, spec))
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        if not scored:
            return None
        top_score = scored[0][0]
        if top_score <= 0:
            if subject.kind not in (PATIENT, NOTE) or any(
                s.score(question, ask=True) > 0 for s in self.catalog.relations.values()
            ):
                return None  # no cue for this subject's relations: not a question about them
            candidates = [s for _, here, s in scored if here]
            return candidates[0] if len(candidates) == 1 else None
        for score, here, spec in scored:
            if here and score > 0 and top_score - score < 1.0:
                return spec
        return None

    def _key(self, question: str, spec: RelationSpec) -> str | None:
        if spec.functional != "key":
            return None
        learned = self.vault.keys(spec.name)
        found = mentioned_keys(question, [*spec.keys, *learned], spec.synonyms)
        return found[0] if found else None

    def _select(self, rows: list[Fact], parsed: Parsed) -> list[Fact]:
        t = parsed.temporal
        anchor_keys = {alias_key(e.mention) for e in parsed.anchors}
        anchor_ids = {e.id for e in parsed.anchors}
        text_key = alias_key(t.anchor or "")

        def is_anchor(f: Fact) -> bool:
            if f.obj in anchor_ids:
                return True
            names = {alias_key(f.obj), alias_key(f.obj_name or "")} - {""}
            return bool(names & (anchor_keys | {text_key}))

        if parsed.reverse:
            rows = [_swap(f) for f in rows]
        return timeline.select(rows, t.kind, anchor=is_anchor, fallback=t.fallback, instant=t.as_of)

    def _not_answered(self, question: str, subject: SubjectRef, why: str) -> Result:
        who = subject.mention or subject.id
        return Result(
            question=question,
            status=Status.NOT_ANSWERED,
            mode="memory",
            intent="memory",
            stop_reason="memory-miss",
            text=f"I have nothing in your memory for {who} ({why}).",
        )


def _swap(f: Fact) -> Fact:
    return replace(f, obj=f.subj, obj_name=f.subj_name)


def _result(question: str, parsed: Parsed, chosen: list[Fact], rows: list[Fact]) -> Result:
    subject = parsed.subject
    assert subject is not None and parsed.spec is not None
    answers, evidence = [], []
    for rank, f in enumerate(chosen[:5]):
        score = round(1.0 / (1 + rank), 4)
        obj, name = (f.subj, f.subj_name) if parsed.reverse else (f.obj, f.obj_name)
        answers.append(
            Answer(id=obj, name=name or obj, score=score, kind=kind_of(obj), source="memory")
        )
        evidence.append(
            Evidence(
                kind="memory",
                score=score,
                triple=f.triple,
                id=f"vault:{f.id}",
                text=f.evidence,
                source="vault",
            )
        )
    chosen_ids = {f.id for f in chosen}
    for f in rows:
        if f.id not in chosen_ids and (
            f.replaced_by in chosen_ids or f.id in {c.replaced_by for c in chosen}
        ):
            evidence.append(
                Evidence(
                    kind="memory",
                    score=0.1,
                    triple=f.triple,
                    id=f"vault:{f.id}",
                    text=f.evidence,
                    source="vault",
                )
            )
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=answers,
        evidence=evidence,
        mode="memory",
        intent=f"memory:{parsed.spec.name}:{parsed.temporal.kind}",
        stop_reason="memory",
        text=_explain(subject, parsed, chosen[0]),
    )


def _summary(question: str, subject: SubjectRef, facts: list[Fact]) -> Result:
    """Everything currently recorded about a subject, most recent first."""
    answers, evidence, lines = [], [], []
    for rank, f in enumerate(facts[:10]):
        score = round(1.0 / (1 + rank), 4)
        answers.append(
            Answer(
                id=f.obj,
                name=f.obj_name or f.obj,
                score=score,
                kind=kind_of(f.obj),
                source="memory",
            )
        )
        evidence.append(
            Evidence(
                kind="memory",
                score=score,
                triple=f.triple,
                id=f"vault:{f.id}",
                text=f.evidence,
                source="vault",
            )
        )
        lines.append(f"{f.rel}: {f.obj_name or f.obj}")
    who = subject.name or subject.mention or subject.id
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=answers,
        evidence=evidence,
        mode="memory",
        intent="memory:summary:current",
        stop_reason="memory",
        text=f"{who} — " + "; ".join(lines) + ".",
    )


def _explain(subject: SubjectRef, parsed: Parsed, top: Fact) -> str:
    who = subject.name or subject.mention or subject.id
    value = top.subj_name or top.subj if parsed.reverse else top.obj_name or top.obj
    since = top.t_start.strftime("%Y-%m-%d %H:%M UTC")
    status = "current" if top.current else f"until {top.t_end:%Y-%m-%d %H:%M UTC}"
    assert parsed.spec is not None
    when = "" if parsed.temporal.kind == Temporal.CURRENT else f" ({parsed.temporal.kind})"
    return f"{who} — {parsed.spec.name}{when}: {value} (from {since}, {status})."
