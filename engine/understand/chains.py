"""Words that say a chain's extra hop: a multi-hop reading must hear the hop a one-hop rival
lacks.

The embedding hears "Which compounds treat [Disease]?" closest to the bank's "Which
compounds treat the diseases most similar to [Disease]?": the words match and the chain's
middle ("the diseases most similar to") weighs little. A chain (drug -> disease -> symptom)
and a one-hop relation that walks the same first hop (drug -> disease) differ in the chain's
last kind; a chain and a relation joining the same two ends (disease -> ... -> drug and
disease -> drug) differ in the chain's middle. So a chain reading is kept against such a
rival only when the question says something the rival lacks: a noun for that kind
("symptoms", "pathways", "targets"), a second entity of that kind, or a word the bank's
wordings of the chain or of any other relation use and the rival's do not ("similar",
"side", "through", "resembling"), learnt from the bank per pair. The words are compared by
crude stems and a typo apart ("symtoms"). Otherwise the chain's odds against the rival drop
by ``WEIGHT``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from engine.understand.bank import PLACEHOLDER
from engine.understand.learn import LEARN_MIN, MIN_LEN, content_words, count_wordings, stem
from engine.util.numeric import tilt

RIVAL_MAX = 1
"""Wordings of the rival that may use such a word."""
TYPO_MIN = 5
TYPO_RATIO = 85.0
"""A word at least this long this close (rapidfuzz ratio) to a telling word is that word."""
WEIGHT = 3.0
"""Log-odds moved from a chain whose extra hop the question does not say to its rival."""


@dataclass(frozen=True)
class Rival:
    """A one-hop slot a chain slot may be mistaken for, and the words that tell them apart."""

    slot: str
    words: frozenset[str]
    marks: frozenset[str] = frozenset()
    """Placeholders of the kinds the rival lacks: a second entity of such a kind says it."""


@dataclass(frozen=True)
class ChainWords:
    rivals: Mapping[str, tuple[Rival, ...]]
    """Chain slot -> its one-hop rivals."""

    def unsaid(self, chain: str, rival: str, text: str, words: set[str] | None = None) -> bool:
        """Whether ``text`` (its ``stems``, when already taken) says nothing of what ``chain``
        has and ``rival`` lacks."""
        words = stems(text) if words is None else words
        return any(
            r.slot == rival and not _says(words, r.words) and not any(m in text for m in r.marks)
            for r in self.rivals.get(chain, ())
        )

    def reweigh(self, probs: dict[str, float], text: str) -> dict[str, float]:
        """Slot probabilities with a leading chain lowered against its best rival among the
        three best readings when the question does not say the chain's extra hop; the mass of
        the two is kept. Pure."""
        top = sorted(probs, key=lambda s: -probs[s])[:3]
        if not top or top[0] not in self.rivals:
            return probs
        chain, words = top[0], stems(text)
        rival = next((s for s in top[1:] if self.unsaid(chain, s, text, words)), None)
        if rival is None:
            return probs
        return tilt(probs, {chain: -1, rival: 1}, WEIGHT / 2)


def learn(
    chains: Iterable[tuple[str, tuple[str, ...], tuple[str, ...]]],
    one_hops: Iterable[tuple[str, str, str, tuple[str, ...]]],
    kind_words: Mapping[str, str],
    function_words: frozenset[str] = frozenset(),
) -> ChainWords:
    """Rivals and their telling words from the bank. ``chains``: slot, the kinds it walks
    (given kind first) and its wordings; ``one_hops``: slot, given kind, answer kind and
    wordings. A one-hop slot is a chain's rival when it walks the chain's first hop (it
    lacks the last kind) or joins the chain's two ends (it lacks the middle). Pure."""
    hops = [(slot, src, dst, _doc_counts(w)) for slot, src, dst, w in one_hops]
    phrasing = {stem(w) for w in function_words}
    kind_of = {stem(w): k for w, k in kind_words.items()}
    out: dict[str, tuple[Rival, ...]] = {}
    for chain, kinds, wordings in chains:
        in_chain = _doc_counts(wordings)
        rivals: list[Rival] = []
        for slot, src, dst, in_rival in hops:
            if (src, dst) == (kinds[0], kinds[-1]):
                lacks = set(kinds[1:-1])
            elif (src, dst) == (kinds[0], kinds[1]):
                lacks = set(kinds[2:])
            else:
                continue
            # the chain's own wordings, and those of every other one-hop relation ("similar"
            # of disease -> disease, "pathways" of gene -> pathway, "resemble" of a chain the
            # bank lacks), say what the rival lacks
            sources = [in_chain] + [counts for other, _, _, counts in hops if other != slot]
            learnt = {
                w
                for counts in sources
                for w, n in counts.items()
                if n >= LEARN_MIN
                and in_rival.get(w, 0) <= RIVAL_MAX
                and w not in phrasing
                and kind_of.get(w) not in {src, dst}
            }
            nouns = {stem(w) for w, k in kind_words.items() if k in lacks}
            words = nouns | learnt
            # the given entity's own placeholder says nothing ("[Disease]" in "drugs for
            # diseases like [Disease]")
            marks = frozenset(PLACEHOLDER[k] for k in lacks - {src, dst} if k in PLACEHOLDER)
            rivals.append(Rival(slot, frozenset(words), marks))
        if rivals:
            out[chain] = tuple(rivals)
    return ChainWords(out)


def _says(words: set[str], said: frozenset[str]) -> bool:
    """Some word is one of ``said``, or a slip of the keys away from one ("symtoms")."""
    return bool(words & said) or any(
        process.extractOne(w, said, scorer=fuzz.ratio, score_cutoff=TYPO_RATIO) is not None
        for w in words
        if len(w) >= TYPO_MIN
    )


def _doc_counts(wordings: Iterable[str]) -> dict[str, int]:
    return count_wordings(stems(text) for text in wordings)


def stems(text: str) -> set[str]:
    """Stems of the content words of ``text`` (placeholders and negated words left out)."""
    return {stem(w) for w in content_words(text) if len(w) >= MIN_LEN}
