"""Words that tell a relation from its twins: the relations joining the same two kinds of node
('treats' and 'palliates' between a drug and a disease; 'binds', 'upregulates' and
'downregulates' between a drug and a gene).

Sentence embeddings hear what a question is about much better than the word that picks one
twin: "drugs that ease X without curing it" sits next to "drugs that cure X". The exemplar
bank's wordings do carry those words ("symptoms", "relieve", "comfort" for palliates;
"approved", "indicated" for treats), so they are learnt from it (``learn``), per group of
twins: a content word used in at least ``LEARN_MIN`` wordings of one relation and almost
never in its twins' wordings speaks for that relation, and so do its inflections. A word
under a negation ("without curing it", "not a cure", "non-curative") speaks for none. The
words only overrule the meaning: when it already puts their relation first, they add nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.understand.learn import MIN_LEN, content_words, spread, tally, telling
from engine.understand.negation import opens_negation
from engine.util.numeric import tilt

WEIGHT = 1.5
"""Log-odds added to the relation the question's words speak for, taken from its twins."""


@dataclass(frozen=True)
class TwinWords:
    """Per group of twin relations (by the pair of kinds they join), the words that speak for
    each relation of the group."""

    group_of: Mapping[str, frozenset[str]]
    """Relation -> the kinds it joins (its group's key)."""
    speaks: Mapping[frozenset[str], Mapping[str, str]]
    """Group -> word -> the relation it speaks for."""

    def says(self, text: str) -> dict[str, int]:
        """Relation -> how many of ``text``'s words speak for it (placeholders and negated
        words left out)."""
        votes: dict[str, int] = {}
        for word in set(content_words(text)):
            for words in self.speaks.values():
                rel = words.get(word)
                if rel is not None:
                    votes[rel] = votes.get(rel, 0) + 1
        return votes

    def reweigh(
        self,
        probs: dict[str, float],
        relation_of: Mapping[str, str],
        text: str,
        polar: frozenset[str] = frozenset(),
        settled: frozenset[str] = frozenset(),
    ) -> tuple[dict[str, float], frozenset[str]]:
        """Slot probabilities with each group's relation the words speak for (more words for
        it than for any twin) raised against its twins, when two of the group are among the
        three best readings and the meaning put another twin first; the group's mass is kept
        (other readings are left as they are). Also the slots so chosen. ``relation_of``:
        slot -> relation; ``polar``: relations with a direction, which ``polarity`` tells
        apart when only they are contested; ``settled``: relations whose direction the
        question's words said ("genes the liver under-expresses"), which leave their group
        to ``polarity``."""
        top = sorted(probs, key=lambda s: -probs[s])[:3]
        in_top: dict[frozenset[str], set[str]] = {}
        for s in top:
            rel = relation_of.get(s)
            if rel is not None and rel in self.group_of:
                in_top.setdefault(self.group_of[rel], set()).add(rel)
        contested = [
            g
            for g, rels in in_top.items()
            if len(rels) >= 2 and not rels <= polar and not rels & settled
        ]
        if not contested:
            return probs, frozenset()
        votes = self.says(text)
        sign: dict[str, int] = {}
        for g in contested:
            members = [r for r, k in self.group_of.items() if k == g]
            ranked = sorted(members, key=lambda r: -votes.get(r, 0))
            best = ranked[0]
            if votes.get(best, 0) == 0 or votes.get(best, 0) == votes.get(ranked[1], 0):
                continue
            leading = max(
                (s for s in probs if relation_of.get(s) in members), key=lambda s: probs[s]
            )
            if relation_of[leading] == best:
                continue  # the words agree with the meaning: they add nothing it lacks
            sign |= {r: 1 if r == best else -1 for r in members}
        if not sign:
            return probs, frozenset()
        out = dict(probs)
        for g in {self.group_of[r] for r in sign}:
            slots = [s for s in probs if self.group_of.get(relation_of.get(s, "")) == g]
            out = tilt(out, {s: sign[relation_of[s]] for s in slots}, WEIGHT)
        chosen = frozenset(s for s in probs if sign.get(relation_of.get(s, ""), 0) > 0)
        return out, chosen


def learn(
    wordings: Iterable[tuple[str, str, frozenset[str], str]],
    kind_words: Mapping[str, str] | None = None,
    function_words: frozenset[str] = frozenset(),
) -> TwinWords:
    """Twin words from the bank (``wordings``: slot, relation, the kinds it joins and the text
    of each one-hop wording). A word must be used in the wordings of every slot of its
    relation, both directions, when there are several: one slot's phrasing ("where is [Gene]
    expressed?") says nothing of the relation. A noun for one of the group's own kinds
    (``kind_words``: "diseases", "organs") names an end, not the relation, and a function word
    ("where", "have") is phrasing, unless it negates ("without"). Groups with a single
    relation teach nothing. Pure."""
    kind_words = kind_words or {}
    group_of: dict[str, frozenset[str]] = {}
    slots_of: dict[str, set[str]] = {}
    rows: dict[frozenset[str], list[tuple[str, str, list[str]]]] = {}
    for slot, rel, kinds, text in wordings:
        group_of[rel] = kinds
        slots_of.setdefault(rel, set()).add(slot)
        # a noun for an end of the group or a function word that does not negate is phrasing
        words = [
            w
            for w in {w for w in content_words(text) if len(w) >= MIN_LEN}
            if kind_words.get(w) not in kinds and (w not in function_words or opens_negation(w))
        ]
        rows.setdefault(kinds, []).append((slot, rel, words))
    speaks: dict[frozenset[str], dict[str, str]] = {}
    for kinds, group_rows in rows.items():
        if len({r for r, k in group_of.items() if k == kinds}) < 2:
            continue
        per_word, seen_in = tally(group_rows)
        taught: dict[str, str] = {}
        for w, per_rel in per_word.items():
            told = telling(per_rel)
            if told is not None and seen_in[(w, told)] == slots_of[told]:
                taught[w] = told
        speaks[kinds] = spread(taught, per_word)
    return TwinWords({r: k for r, k in group_of.items() if k in speaks}, speaks)
