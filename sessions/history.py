"""Searching one user's history across sessions: full text (SQLite FTS5) fused with meaning
(the engine's embedder, when it is loaded).

Each user's sessions live in that user's own file, so a search never sees another user's turns.
Text hits and meaning hits are merged by reciprocal-rank fusion; a turn found both ways ranks
above one found either way alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from sessions.hits import TurnHit

Embed = Callable[[list[str]], Any]
"""Texts -> L2-normalised vectors (rows), as ``engine.ports.Embed``."""

RRF_K = 60
MEANING_FLOOR = 0.45
"""Cosine similarity below which a turn is not a meaning hit."""
MEANING_POOL = 500
"""How many recent turns a meaning search compares the query with."""

How = Literal["text", "meaning", "both"]


class SearchableStore(Protocol):
    def search_turns(self, query: str, limit: int = 20) -> Sequence[TurnHit]: ...
    def recent_turns(self, limit: int = 500) -> Sequence[TurnHit]: ...


@dataclass(frozen=True)
class HistoryHit:
    hit: TurnHit
    how: How
    score: float
    """Fused score: higher is better."""

    def to_dict(self) -> dict[str, Any]:
        h = self.hit
        return {
            "session_id": h.session_id,
            "session_title": h.session_title,
            "turn_id": h.turn_id,
            "position": h.position,
            "question": h.question,
            "snippet": h.snippet,
            "created_at": h.created_at.isoformat(),
            "how": self.how,
            "score": round(self.score, 6),
        }


def meaning_hits(
    store: SearchableStore, query: str, embed: Embed, limit: int = 20
) -> list[TurnHit]:
    """Recent turns close in meaning to ``query``: the better of its similarity to the turn's
    question and to the question with its answer."""
    pool = list(store.recent_turns(MEANING_POOL))
    if not pool or not query.strip():
        return []
    texts = [t for h in pool for t in (h.question, f"{h.question} {h.snippet}"[:512])]
    qvec = embed([query])[0]
    sims = [float(v @ qvec) for v in _vectors(texts, embed)]
    best = [max(sims[2 * i], sims[2 * i + 1]) for i in range(len(pool))]
    ranked = sorted(zip(best, pool, strict=True), key=lambda p: (-p[0], -p[1].turn_id))
    return [replace(h, score=s) for s, h in ranked if s >= MEANING_FLOOR][:limit]


_CACHE: dict[str, Any] = {}
_CACHE_MAX = 4096


def _vectors(texts: list[str], embed: Embed) -> list[Any]:
    """``embed`` over ``texts``, remembering each text's vector (keyed by the text alone)."""
    missing = list(dict.fromkeys(t for t in texts if t not in _CACHE))
    if missing:
        if len(_CACHE) + len(missing) > _CACHE_MAX:
            _CACHE.clear()
        _CACHE.update(zip(missing, embed(missing), strict=True))
    return [_CACHE[t] for t in texts]


def search_history(
    store: SearchableStore, query: str, *, embed: Embed | None = None, limit: int = 20
) -> list[HistoryHit]:
    """The turns matching ``query`` best first: text hits, and meaning hits when ``embed``."""
    text = list(store.search_turns(query, limit))
    meaning = meaning_hits(store, query, embed, limit) if embed is not None else []
    fused: dict[int, tuple[TurnHit, set[str], float]] = {}
    for source, hits in (("text", text), ("meaning", meaning)):
        for rank, hit in enumerate(hits, 1):
            kept, how, score = fused.get(hit.turn_id, (hit, set(), 0.0))
            if source == "text":
                kept = hit  # the text hit carries the highlighted snippet
            fused[hit.turn_id] = (kept, how | {source}, score + 1.0 / (RRF_K + rank))
    out = [
        HistoryHit(hit, "both" if len(how) == 2 else next(iter(how)), score)  # type: ignore[arg-type]
        for hit, how, score in fused.values()
    ]
    out.sort(key=lambda h: (-h.score, -h.hit.turn_id))
    return out[:limit]
