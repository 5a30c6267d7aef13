"""Explainer: answer text from the templates in ``prompts/`` (``answer_*.md``)."""

from __future__ import annotations

import prompts
from engine.graph.relations import verb_phrase
from engine.graph.store import KGStore
from engine.result import Answer, Triple

MAX_LISTED = 8


def render_triple(store: KGStore, t: Triple) -> str:
    s, rel, o = t
    return f"{store.name(s)} —{verb_phrase(rel)}→ {store.name(o)}"


def render_path(store: KGStore, path: list[Triple]) -> str:
    return " · ".join(render_triple(store, t) for t in path)


def kg_answer(store: KGStore, answers: list[Answer], paths: list[list[Triple]], what: str) -> str:
    names = ", ".join(a.name for a in answers[:MAX_LISTED])
    extra = f" and {len(answers) - MAX_LISTED} more" if len(answers) > MAX_LISTED else ""
    summary = f"**{what}**: {names}{extra}."
    lines = "\n".join(f"- {render_path(store, p)}" for p in paths[:5])
    more = f"\n- … {len(paths) - 5} more paths" if len(paths) > 5 else ""
    return prompts.load("answer_kg").render(summary=summary, paths=lines, more=more).strip()


def claim_yes(store: KGStore, t: Triple) -> str:
    return (
        prompts.load("answer_claim_yes")
        .render(
            subject=store.name(t[0]),
            verb=verb_phrase(t[1]),
            object=store.name(t[2]),
            path=f"- {render_triple(store, t)}",
        )
        .strip()
    )


def claim_no(subject: str, verb: str, obj: str) -> str:
    return prompts.load("answer_claim_no").render(subject=subject, verb=verb, object=obj).strip()


def not_found(missing: list[str], contained: dict[str, list[str]] | None = None) -> str:
    """'X is not in the knowledge graph' — said only of phrases that contain no node name;
    a phrase that does ("idiopathic hypersomnia") is reported with the node it contains."""
    contained = contained or {}
    absent = [m for m in missing if not contained.get(m)]
    parts: list[str] = []
    for phrase in missing:
        names = contained.get(phrase)
        if names:
            found = " and ".join(f"**{n}**" for n in dict.fromkeys(names))
            parts.append(
                prompts.load("answer_not_found_partial").render(found=found, phrase=phrase).strip()
            )
    if absent or not parts:
        text = " and ".join(f"'{m}'" for m in absent) if absent else "the entity you named"
        parts.insert(0, prompts.load("answer_not_found").render(missing=text).strip())
    return " ".join(parts)


def understood(entities: list[str]) -> str:
    """NOT_ANSWERED that says what was understood: the entities, not the question."""
    names = " and ".join(f"**{e}**" for e in dict.fromkeys(entities)) or "nothing I know"
    return prompts.load("answer_understood").render(entities=names).strip()


def no_path(entity: str, reason: str) -> str:
    return prompts.load("answer_no_path").render(entity=entity, reason=reason).strip()


def clarify(question: str) -> str:
    return prompts.load("answer_clarify").render(question=question).strip()


def literature(title: str, snippet: str, count: int, sources: list[str]) -> str:
    cited = ", ".join(sources[:3]) + (" …" if len(sources) > 3 else "")
    return (
        prompts.load("answer_literature")
        .render(title=title, snippet=snippet, count=count, sources=cited)
        .strip()
    )


def nothing() -> str:
    return prompts.load("answer_none").render().strip()


def unsupported() -> str:
    return prompts.load("answer_unsupported").render().strip()
