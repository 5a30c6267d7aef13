"""Reading a question's structure: relation cues with positions, the answer kind, the form.

Pure functions over the token list; no store access.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from engine.understand.form import (
    CLAUSE_OPEN,
    NEXT_STEP,
    PREPOSITIONS,
    YES_NO_START,
    declarative_question,
    framed_yes_no,
    polite_request,
    then_asks_for_things,
)
from engine.understand.lexicon import COMPILED_CUES, FORM_WORDS, KIND_WORDS, Cue
from engine.understand.mentions import Mention, Token
from engine.understand.spans import outermost
from engine.util.ids import kind_of
from engine.util.text import normalize

MECHANISM = re.compile(
    r"\bmechanism\w*|\bhow (?:might|could|would|does|do|can|may)\b|\bthrough (?:which|what)\b"
    r"|\bbiological (?:link|route|path|basis|rationale)\w*|\bwhy (?:might|could|would|does)\b"
    r"|\bexplain (?:how|why)\b|\bby what (?:route|means|pathway)\b|\bmode of action\b|\bmoa\b"
)
SHARE = re.compile(r"\bshar\w*|\bcommon\b|\bsame\b|\balso\b|\bother\b")
GENERIC = re.compile(
    r"\bknown about\b|\bentities\b|\btell me about\b|\boverview\b"
    r"|\bwhat is \S+ (?:associated|linked|related|connected)\b"
)


@dataclass(frozen=True)
class Features:
    norm: str
    cues: tuple[Cue, ...]
    target_kind: str | None
    target_pos: int
    named_kinds: frozenset[str]
    """Every kind the question names outside its mentions (the asked kind among them)."""
    noun_chain: tuple[str, ...]
    """The kinds of those nouns in the order they are said ("classes of drugs for diseases
    like X" -> Pharmacologic Class, Compound, Disease): the answer first, then each kind the
    question passes through on its way back to the entity it names."""
    yes_no: bool
    declarative: bool
    """A yes/no question said as a statement ("X treats Y?"): it may still ask how."""
    mechanism: bool
    share: bool
    generic: bool


def find_cues(norm: str, mentions: list[Mention], question: str) -> list[Cue]:
    """Relation cues in the normalised question, outside entity mentions."""
    spans = [(m.start, m.end) for m in mentions]
    cues: list[Cue] = []
    for rx, rels, weight in COMPILED_CUES:
        for m in rx.finditer(norm):
            if any(s <= m.start() < e for s, e in spans):
                continue
            if any(c.start == m.start() for c in cues):
                continue
            cues.append(Cue(rels, m.start(), m.end(), m.group(), weight))
    # a cue inside a longer one is part of it ("regulated" in "up-regulated")
    return sorted(outermost(cues), key=lambda c: c.start)


FORM_GAP = 1
"""Words between a drug's name and its form ("latanoprost *eye* drops")."""


def kind_nouns(tokens: list[Token], mentions: list[Mention]) -> list[tuple[str, int]]:
    """Kind nouns outside mentions, in order, with their offsets ("Which *drugs* treat
    *diseases* that ..." -> Compound, Disease)."""
    covered = {i for m in mentions for i in range(m.first_token, m.last_token + 1)}
    # the kinds of the names each token is next to (a phrase linked only by meaning is no
    # name the noun could stand beside)
    beside: dict[int, set[str]] = {}
    after_drug: set[int] = set()
    for m in mentions:
        if m.method == "embedding":
            continue
        kinds = {k for n in m.node_ids if (k := kind_of(n)) is not None}
        for i in (m.first_token - 1, m.last_token + 1):
            beside.setdefault(i, set()).update(kinds)
        if "Compound" in kinds:
            # a drug's form, said after it ("latanoprost eye drops")
            after_drug.update(range(m.last_token + 1, m.last_token + FORM_GAP + 2))
    found: list[tuple[str, int]] = []
    for i, t in enumerate(tokens):
        if i in covered:
            continue
        kind = KIND_WORDS.get(t.norm)
        if kind is None:
            continue
        if kind in beside.get(i, ()) or (t.norm in FORM_WORDS and i in after_drug):
            continue  # names the mention beside it ("the LRRK2 *protein*", "the gene BRCA1")
        if i + 1 < len(tokens) and tokens[i + 1].joined:
            continue  # the first part of a compound adjective ("disease-modifying drugs")
        nxt = tokens[i + 1].norm if i + 1 < len(tokens) else ""
        prev = tokens[i - 1].norm if i > 0 else ""
        if t.norm in {"drug", "pharmacologic", "pharmacological"} and nxt in {"class", "classes"}:
            found.append(("Pharmacologic Class", t.start))
            continue
        if t.norm in {"side"} or (t.norm in {"effect", "effects"} and prev != "side"):
            continue
        if t.norm in {"effect", "effects"}:
            found.append(("Side Effect", t.start))
            continue
        if t.norm in {"gene", "genes"} and nxt in {"targets", "target", "products", "product"}:
            found.append(("Gene", t.start))
            continue
        if t.norm in {"target", "targets"} and i + 1 < len(tokens) and nxt == "of":
            found.append(("Gene", t.start))
            continue
        if t.norm == "body" and nxt not in {"parts", "part", "sites", "site", "structures"}:
            continue
        head = "Side Effect" if nxt == "side" else KIND_WORDS.get(nxt)
        if head is not None and head != kind and i + 1 not in covered:
            continue  # a modifier of the noun after it ("drug targets", "therapeutic indications")
        found.append((kind, t.start))
    return found


WH_REACH = 3
"""A kind noun at most this many tokens after "which"/"what" is the one the wh-phrase asks
for ("which existing *drugs*")."""


_CLAUSE_END = re.compile(rf"{CLAUSE_OPEN}\s*$")


def _interrogative(question: str, tokens: list[Token], i: int) -> bool:
    """Token ``i`` opens its clause, maybe after a preposition ("In which tissues ...",
    "...; which drugs ..."); "diseases for which drugs ..." is a relative clause."""
    if i > 0 and tokens[i - 1].norm in PREPOSITIONS:
        i -= 1
    return bool(_CLAUSE_END.search(question[: tokens[i].start]))


def target_kind(
    question: str, tokens: list[Token], nouns: list[tuple[str, int]]
) -> tuple[str | None, int]:
    """The kind of thing asked for: the kind noun of an interrogative wh-phrase ("I'm
    validating X as a target; which existing *drugs* act on it?"), else the first kind noun
    outside mentions (``nouns`` from ``kind_nouns``), or a body part for a question starting
    with "where"."""
    if tokens and tokens[0].norm == "where":
        return "Anatomy", tokens[0].start
    at = {start: kind for kind, start in nouns}
    for i, t in enumerate(tokens):
        if t.norm in {"which", "what"} and _interrogative(question, tokens, i):
            for u in tokens[i + 1 : i + 1 + WH_REACH]:
                if u.start in at:
                    return at[u.start], u.start
    return nouns[0] if nouns else (None, -1)


_SAME_THING = re.compile(r"\s*(?:(?:is|are|was|were)(?:\s+the)?\s*)?", re.IGNORECASE)
"""Between two nouns of one kind that name the same things ("gene targets", "genes are
targets of ...")."""
ANAPHORA = re.compile(r"\b(?:those|ones)\b", re.IGNORECASE)


def noun_chain(
    question: str, nouns: list[tuple[str, int]], mentions: list[Mention]
) -> tuple[str, ...]:
    """Kinds of the nouns said before the first mention, in order; two nouns of one kind
    written next to each other ("gene targets") or joined by a copula ("genes are targets
    of") count once. Nouns after a mention describe it ("the SMPD1 gene product") rather than
    a hop towards the answer."""
    first = min((m.start for m in mentions), default=len(question))
    # "those" / "ones" after a noun stands for another thing of that noun's kind
    # ("diseases resembling those treated by ...")
    for rx in ANAPHORA.finditer(question[:first]):
        before = [k for k, s in nouns if s < rx.start()]
        if before:
            nouns = sorted([*nouns, (before[-1], rx.start())], key=lambda n: n[1])
    chain: list[str] = []
    prev_end = -1
    for kind, start in nouns:
        if start >= first:
            break
        end = start + len(re.match(r"\S+", question[start:]).group(0))  # type: ignore[union-attr]
        if chain and chain[-1] == kind and _SAME_THING.fullmatch(question[prev_end:start]):
            prev_end = end
            continue
        chain.append(kind)
        prev_end = end
    return tuple(chain)


def step_chain(question: str, nouns: list[tuple[str, int]]) -> tuple[str, ...]:
    """For a request made in steps, the kind each step asks for, the last step first (the
    answer, then each kind the steps pass through): "diseases similar to X, then the drugs
    that treat them" -> Compound, Disease. Empty unless two steps each name a kind."""
    cuts = [0, *(m.start() for m in NEXT_STEP.finditer(question)), len(question)]
    kinds: list[str] = []
    for lo, hi in itertools.pairwise(cuts):
        first = next((k for k, s in nouns if lo <= s < hi), None)
        if first is not None and (not kinds or kinds[-1] != first):
            kinds.append(first)
    return tuple(reversed(kinds)) if len(kinds) >= 2 else ()


def features(question: str, tokens: list[Token], mentions: list[Mention]) -> Features:
    norm = normalize(question)
    # normalize() keeps offsets only when lengths match; fall back to the raw lower-case text
    if len(norm) != len(question):
        norm = question.lower()
    nouns = kind_nouns(tokens, mentions)
    kind, pos = target_kind(question, tokens, nouns)
    chain = noun_chain(question, nouns, mentions)
    steps = step_chain(question, nouns)
    if steps:
        # a request made in steps asks for what its last step names
        chain = steps
        kind, pos = next((k, s) for k, s in reversed(nouns) if k == steps[0])
    first = tokens[0].norm if tokens else ""
    declarative = kind is None and len(mentions) >= 2 and declarative_question(question)
    return Features(
        norm=norm,
        cues=tuple(find_cues(norm, mentions, question)),
        target_kind=kind,
        target_pos=pos,
        named_kinds=frozenset(k for k, _ in nouns),
        noun_chain=chain,
        yes_no=(
            (
                first in YES_NO_START
                and not (polite_request(question) and (kind is not None or len(mentions) < 2))
            )
            or framed_yes_no(question)
            or declarative
        )
        and not _asks_for_a_list(question, tokens, mentions),
        declarative=declarative,
        mechanism=bool(MECHANISM.search(norm)),
        share=bool(SHARE.search(norm)),
        generic=bool(GENERIC.search(norm)),
    )


def _asks_for_a_list(question: str, tokens: list[Token], mentions: list[Mention]) -> bool:
    """'Is there any list of genes turned down in X?', 'Are there drugs for Y?': an existential
    question about one thing asks for the things, not for a yes or a no (about two things it
    is a claim: 'Is there evidence that X treats Y?'); so does one about one thing that goes on
    to ask for them ('Is LRRK2 worth drugging — which compounds bind it?')."""
    if len(tokens) < 2 or len(mentions) >= 2:
        return False
    return tokens[1].norm == "there" or then_asks_for_things(question)
