"""Adapters between the agent loop and the LLM: plain inputs in, checked values out.

Each function returns ``(value, degraded)``:

- ``(value, None)``: the LLM answered and the answer passed every check; use it.
- ``(None, None)``: no opinion (the local model, or a feature that is not enabled); use the
  local step (the normal path).
- ``(None, "llm:<feature>:<kind>")``: the LLM failed (timeout, HTTP error, bad JSON, an id or
  relation that was not offered...); use the local provider and append the reason to
  ``Result.degraded``.

A missing prompt variable raises ``prompts.PromptError`` (a programming error).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.graph.relations import verb_phrase
from engine.providers.llm.base import LanguageModel, LLMOutcome, T
from engine.providers.llm.schemas import (
    ClarifyDecision,
    EdgeScores,
    Explanation,
    ExtractedFact,
    ReviewVerdict,
)
from engine.result import Candidate, LinkedEntity, Result, Triple

NameOf = Callable[[str], str | None]
MAX_EVIDENCE = 8
_CITE = re.compile(r"\[(\d+)\]")


def _reject(outcome: LLMOutcome[T], kind: str) -> tuple[None, str]:
    return None, f"llm:{outcome.feature}:{kind}"


def llm_edge_scores(
    provider: LanguageModel,
    question: str,
    node_name: str,
    node_kind: str,
    relations: Sequence[tuple[str, str]],
    *,
    timeout: float | None = None,
) -> tuple[dict[str, float] | None, str | None]:
    """Probabilities of the offered ``relations`` ((code, description); code may end in ``^-1``).

    Codes the LLM invents are dropped; a reply with no offered code is a failure ("no-rel").
    """
    lines = "\n".join(f"- {code} - {desc}" for code, desc in relations)
    outcome = provider.complete_json(
        "edges",
        {"question": question, "node_name": node_name, "node_kind": node_kind, "relations": lines},
        EdgeScores,
        timeout=timeout,
    )
    if outcome.value is None:
        return None, outcome.degraded
    offered = {code.lower(): code for code, _ in relations}
    scores: dict[str, float] = {}
    for item in outcome.value.root:
        code = offered.get(item.rel.strip().lower())
        if code is not None:
            scores[code] = max(scores.get(code, 0.0), item.prob)
    if not scores:
        return _reject(outcome, "no-rel")
    return scores, None


def llm_clarify(
    provider: LanguageModel,
    question: str,
    mention: str,
    candidates: Sequence[Candidate],
    *,
    timeout: float | None = None,
) -> tuple[ClarifyDecision | None, str | None]:
    """Is ``mention`` ambiguous among ``candidates``? Ids outside the candidates are a failure."""
    lines = "\n".join(
        f"- {c.id} | {c.name} | {c.kind} | {c.detail or ''}".rstrip(" |") for c in candidates
    )
    outcome = provider.complete_json(
        "clarify",
        {"question": question, "mention": mention, "candidates": lines},
        ClarifyDecision,
        timeout=timeout,
    )
    decision = outcome.value
    if decision is None:
        return None, outcome.degraded
    ids = {c.id for c in candidates}
    if decision.choice is not None and decision.choice not in ids:
        return _reject(outcome, "bad-id")
    if any(o not in ids for o in decision.options):
        return _reject(outcome, "bad-id")
    if not decision.ambiguous and decision.choice is None:
        return _reject(outcome, "no-choice")
    if decision.ambiguous and not decision.options:
        decision = decision.model_copy(update={"options": [c.id for c in candidates]})
    return decision, None


def llm_extract_fact(
    provider: LanguageModel,
    statement: str,
    relations: Sequence[tuple[str, str]],
    entities: Sequence[LinkedEntity],
    known: Sequence[Triple] = (),
    *,
    timeout: float | None = None,
) -> tuple[ExtractedFact | None, str | None]:
    """The fact ``statement`` states; ``relations`` are (name, "subject -> objects") pairs.

    The relation must be offered, KG ids (``Kind::id``) must be among ``entities`` and a
    ``supersedes`` must be one of the ``known`` facts: a hallucinated supersession would
    silently retire a true fact, so it fails the call instead.
    """
    outcome = provider.complete_json(
        "extract",
        {
            "statement": statement,
            "relations": "\n".join(f"- {n}: {sig}" for n, sig in relations) or "(none)",
            "entities": "\n".join(f"- {e.mention} -> {e.id} ({e.name})" for e in entities)
            or "(none)",
            "known_facts": "\n".join(f"- {s} {r} {o}" for s, r, o in known) or "(none)",
        },
        ExtractedFact,
        timeout=timeout,
    )
    fact = outcome.value
    if fact is None:
        return None, outcome.degraded
    if fact.empty:
        return fact, None
    if fact.rel not in {n for n, _ in relations}:
        return _reject(outcome, "bad-rel")
    linked = {e.id for e in entities}
    if any("::" in v and v not in linked for v in (fact.subj or "", fact.obj or "")):
        return _reject(outcome, "bad-id")
    if fact.supersedes is not None and tuple(fact.supersedes) not in {tuple(k) for k in known}:
        return _reject(outcome, "bad-supersedes")
    return fact, None


def render_evidence(
    result: Result, name_of: NameOf | None = None, limit: int = MAX_EVIDENCE
) -> str:
    """Numbered evidence lines (1-based) as the review and explain prompts show them."""

    def label(node: str) -> str:
        name = name_of(node) if name_of else None
        return f"{name} ({node})" if name else node

    lines: list[str] = []
    for i, ev in enumerate(result.evidence[:limit], start=1):
        if ev.triple is not None:
            s, r, o = ev.triple
            lines.append(f"[{i}] {label(s)} -{verb_phrase(r)} ({r})-> {label(o)}")
        elif ev.text:
            text = " ".join(ev.text.split())
            lines.append(f"[{i}] {ev.kind} {ev.id or ''}: {text[:400]}")
        else:
            lines.append(f"[{i}] {ev.kind} {ev.id or ''}")
    return "\n".join(lines) or "(no evidence)"


def _answers(result: Result, limit: int = 5) -> str:
    return "; ".join(f"{a.name} ({a.id})" for a in result.answers[:limit]) or "(no answer)"


def llm_review(
    provider: LanguageModel,
    question: str,
    result: Result,
    *,
    name_of: NameOf | None = None,
    timeout: float | None = None,
) -> tuple[ReviewVerdict | None, str | None]:
    """The Reviewer's yes/no on ``result``'s top answers given its evidence."""
    outcome = provider.complete_json(
        "review",
        {
            "question": question,
            "answer": _answers(result),
            "evidence": render_evidence(result, name_of),
        },
        ReviewVerdict,
        timeout=timeout,
    )
    return outcome.value, outcome.degraded


def llm_explain(
    provider: LanguageModel,
    question: str,
    result: Result,
    *,
    name_of: NameOf | None = None,
    timeout: float | None = None,
) -> tuple[str | None, str | None]:
    """Plain-language text for ``result``; a citation of evidence that was not shown fails."""
    shown = min(len(result.evidence), MAX_EVIDENCE)
    outcome = provider.complete_json(
        "explain_llm",
        {
            "question": question,
            "answers": _answers(result),
            "evidence": render_evidence(result, name_of),
        },
        Explanation,
        timeout=timeout,
    )
    explanation: Explanation | None = outcome.value
    if explanation is None:
        return None, outcome.degraded
    cited = set(explanation.cites) | {int(n) for n in _CITE.findall(explanation.text)}
    if any(not 1 <= n <= shown for n in cited):
        return _reject(outcome, "bad-cite")
    return explanation.text, None
