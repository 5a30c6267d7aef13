"""Entity linking for *statements*: exact, longest-match alias n-grams, every candidate kind.

The engine's question linker drops an exact mention that touches an unlinked content chunk
and falls back to slow fuzzy/embedding matching; that suits questions, not chat statements
("Patient 6328 complaining of confusion since yesterday" must keep "confusion"). This linker
looks up alias n-grams only (microseconds per sentence) and returns one ``LinkedEntity`` per
candidate node, so the extractor can pick the kind a relation needs (an "epilepsy" mention is
both a Disease and a Side Effect).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.ports import EnginePort
from engine.result import LinkedEntity
from engine.understand.shortforms import short_forms
from engine.util.text import alias_key, normalize

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
MAX_NGRAM = 8
# Chat words that are also brand names or aliases in drug/gene vocabularies.
_COMMON = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "to",
        "was",
        "with",
        "today",
        "yesterday",
        "note",
        "notes",
        "record",
        "allergy",
        "allergies",
        "lead",
        "result",
        "results",
        "new",
        "run",
        "labs",
        "lab",
        "study",
        "screen",
        "panel",
        "assay",
        "cohort",
        "project",
        "trial",
        "work",
        "target",
        "gene",
        "patient",
        "pt",
        "mrn",
        "med",
        "meds",
        "dx",
        "visit",
        "clinic",
        "ward",
        "team",
        "review",
        "weeks",
        "week",
        "day",
        "days",
        "top",
        "hit",
        "set",
        "main",
        "our",
        "my",
        "we",
        "us",
        "i",
        "me",
        "ms",
        "mr",
        "mrs",
        "dr",
        "per",
        "see",
        "data",
        "paper",
        "preprint",
        "seminar",
        "meeting",
        "today's",
        "interesting",
        "worth",
        "idea",
        "update",
        "numbers",
        "first",
        "latest",
        "previous",
        "current",
        "now",
        "still",
        "also",
        "well",
        "due",
        "since",
        "after",
        "before",
        "off",
        "onto",
        "into",
        "via",
    }
)


@dataclass(frozen=True)
class AliasHit:
    node_id: str
    primary: bool = True
    source: str = ""


Lookup = Callable[[str], Sequence[AliasHit]]


class StatementLinker:
    """Exact alias linker over an injected ``lookup(alias_key) -> candidates``."""

    def __init__(
        self,
        lookup: Lookup,
        name_of: Callable[[str], str | None],
        kind_of: Callable[[str], str | None],
        max_ngram: int = MAX_NGRAM,
        members_of: Callable[[str], Iterable[str]] | None = None,
    ) -> None:
        """``members_of``: the compounds a pharmacologic class includes (the graph's
        ``PCiC``), which reads the drug classes of questions (``memory.classes``)."""
        self._lookup = lookup
        self._name = name_of
        self._kind = kind_of
        self.max_ngram = max_ngram
        self.members_of = members_of

    def name_of(self, node_id: str) -> str | None:
        """The graph name of a node (None when unknown)."""
        return self._name(node_id)

    def __call__(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]:
        tokens = [
            (m.group(), m.start(), m.end(), alias_key(normalize(m.group())))
            for m in _TOKEN.finditer(text)
        ]
        out: list[LinkedEntity] = []
        i = 0
        while i < len(tokens):
            found = self._longest(text, tokens, i, kinds)
            if found is None:
                i += 1
                continue
            j, entities = found
            out.extend(entities)
            i = j + 1
        return out

    def _longest(
        self, text: str, tokens: list[tuple[str, int, int, str]], i: int, kinds: set[str] | None
    ) -> tuple[int, list[LinkedEntity]] | None:
        for j in range(min(len(tokens), i + self.max_ngram) - 1, i - 1, -1):
            span = tokens[i : j + 1]
            # "amox" of "co-amox" is no short form: one is a whole word
            glued = "-" in (text[span[0][1] - 1 : span[0][1]], text[span[-1][2] : span[-1][2] + 1])
            short = [] if glued else self._short(span, uncased=text == text.lower())
            if i == j and not short and not _single_ok(span[0][0], i):
                continue
            key = " ".join(t[3] for t in span)
            uncased = text == text.lower()
            hits = [
                h for h in self._lookup(key) if i != j or _single_hit_ok(span[0][0], h, uncased)
            ]
            if i == j and _initialism(span[0][0]):
                # "am" of "this am", "bd", "ER+", "PSA": initials are read as a clinician
                # means them (``shortforms.tsv``: "CAP" is pneumonia), never as the rare
                # disease the graph also calls so; a gene symbol in capitals, or a node
                # whose own name it is, still reads
                capitals = span[0][0] == span[0][0].upper()
                hits = (
                    []
                    if short
                    else [
                        h
                        for h in hits
                        if h.primary or (capitals and h.node_id.startswith("Gene::"))
                    ]
                )
            # a short form or lay word ("dex", "lung ca", "high potassium") also reads as the
            # names it stands for; a name of the graph written out comes first
            hits += [
                AliasHit(h.node_id, False, "short-form")
                for name in short
                for h in self._lookup(name)
                if all(h.node_id != o.node_id for o in hits)
            ]
            entities = self._entities(text, span, hits, kinds)
            if entities:
                return j, entities
        return None

    def _entities(
        self,
        text: str,
        span: list[tuple[str, int, int, str]],
        hits: Sequence[AliasHit],
        kinds: set[str] | None,
    ) -> list[LinkedEntity]:
        start, end = span[0][1], span[-1][2]
        out: list[LinkedEntity] = []
        seen: set[str] = set()
        for h in hits:
            kind = self._kind(h.node_id)
            if h.node_id in seen or kind is None or (kinds and kind not in kinds):
                continue
            seen.add(h.node_id)
            out.append(
                LinkedEntity(
                    mention=text[start:end],
                    id=h.node_id,
                    name=self._name(h.node_id) or h.node_id,
                    kind=kind,
                    score=1.0 if h.primary else 0.95,
                    method="exact",
                    start=start,
                    end=end,
                )
            )
        return out

    def _short(self, span: list[tuple[str, int, int, str]], *, uncased: bool = False) -> list[str]:
        """Alias keys of the names a span stands for by ``shortforms.tsv`` (none usually).

        ``uncased``: the message is typed without capitals ("new af, rate 140s"), so letter
        case tells nothing and a form read only as written ("AF") reads in lower case too,
        unless its words are chat words ("ms" is a title)."""
        forms = short_forms()
        out: list[str] = []
        key = " ".join(t[3] for t in span)
        written = [t[0] for t in span]
        chat = any(w.lower() in _COMMON for w in written)
        for form in forms.get(key, ()):
            if form.reads(written) or (
                uncased and not chat and form.how == "case" and form.reads(list(form.tokens))
            ):
                out += form.expansions
        if len(span) > 1 and _PLURAL.fullmatch(span[-1][0]):
            # "muscle cramps": a name the graph keeps in the singular ("Muscle Cramp")
            out.append(" ".join([*(t[3] for t in span[:-1]), span[-1][3][:-1]]))
        if len(span) > 1:
            # "lung ca": the last word completes the words before it
            for form in forms.get(span[-1][3], ()):
                if form.how == "after":
                    head = " ".join(t[3] for t in span[:-1])
                    out += [f"{head} {name}" for name in form.expansions]
        return out


_PLURAL = re.compile(r"[a-z]{2,}[^isu\W]s")
"""A lower-case word in the plural ("cramps"; not "loss", "status", "analysis")."""


def _initialism(token: str) -> bool:
    """A word short enough to be a name's initials ("AM", "bd", "UO"): up to three letters."""
    return token.isalpha() and len(token) <= 3


def _single_ok(token: str, position: int) -> bool:
    low = token.lower()
    return len(token) > 1 and low not in _COMMON and not token.isdigit()


def _single_hit_ok(token: str, hit: AliasHit, uncased: bool = False) -> bool:
    """One-word gene symbols must look like symbols ("AR", "PDE5A"; not "Cell" or "Reports");
    in a message typed without capitals (``uncased``), three letters or more and a digit
    do ("jak2", "brca1"; not "egfr", which is the lab's)."""
    if hit.node_id.startswith("Gene::"):
        upper = sum(c.isupper() for c in token)
        digits = any(c.isdigit() for c in token)
        if uncased and digits and sum(c.isalpha() for c in token) >= 3:
            return True
        return upper >= 2 or (upper >= 1 and digits)
    return True


def engine_linker(engine: EnginePort) -> StatementLinker:
    """The linker of every front end's memory (chat, MCP server, replay): exact alias n-grams
    over an open engine's alias table, with its node names and kinds."""

    def lookup(key: str) -> list[AliasHit]:
        return [AliasHit(node, primary, source) for node, primary, source in engine.aliases(key)]

    def members(node: str) -> list[str]:
        return [o if s == node else s for s, _, o in engine.triples(node, "PCiC", 5000)]

    return StatementLinker(lookup, engine.node_name, engine.node_kind, members_of=members)
