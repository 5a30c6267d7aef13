"""Where a question denies a relation rather than asks for it.

"Compounds that soothe gout *but never cure* it", "help with the itch *rather than heal*
the skin", "given for comfort, *not to treat* it": the relation word after a negation says what
the answer is not, so it is no cue for the relation asked. A negation reaches to the end of
its clause (a comma, a colon, "but") and at most ``REACH`` words; a prefix ("non-curative")
negates only the word it is joined to. A yes/no question that negates its verb ("Doesn't X
treat Y?") still asks about that relation: callers apply this to questions that ask for
things.

The negation words are written here once. The twin words (``twins``, ``learn``) read them word
by word instead (``opens_negation``): no look-ahead and no clause, ``WORD_REACH`` words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.understand.form import NEGATED_AUXILIARIES, YES_NO_START
from engine.understand.mentions import Token
from engine.util.text import lower_words

REACH = 4
"""Words after a negation it can scope over."""
_UNMARKED = frozenset(f"{a}t" for a in NEGATED_AUXILIARIES) | {"cant"}
"""Negated auxiliaries typed without the apostrophe ("isnt", "doesnt", "dont", "cant")."""
_NEGATORS = frozenset({"not", "never", "without", "nor", "no", "cannot"}) | _UNMARKED
"""Words that negate what follows them."""
_TWO_WORD = frozenset({("rather", "than"), ("instead", "of"), ("other", "than")})
"""Pairs of words that do ("rather than")."""
_PREFIXES = frozenset({"non"})
"""Prefixes that negate only the word they are joined to ("non-curative")."""
_CONTRACTED = NEGATED_AUXILIARIES | {"can"}
"""Auxiliaries an "n't" negates, as the tokenizer leaves them ("doesn" of "doesn't", "can" of
"can't")."""
_CLAUSE_END = re.compile(r"[,;:()\u2014\u2013]|\s-\s")
_STOPPERS = frozenset({"but", "and", "or", "while", "whereas", "which", "that", "who"})


def negated_spans(text: str, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Character ranges of ``text`` a negation scopes over."""
    spans: list[tuple[int, int]] = []
    n = len(tokens)
    for i in range(n):
        first = _scope_start(tokens, i)
        if first is None:
            continue
        if first == -1:  # a prefix: the joined word only
            j = i + 1
            while j + 1 < n and tokens[j + 1].joined:
                j += 1
            spans.append((tokens[i + 1].start, tokens[j].end))
            continue
        last = first - 1
        for j in range(first, min(n, first + REACH)):
            if _CLAUSE_END.search(text[tokens[j - 1].end : tokens[j].start]):
                break
            if tokens[j].norm in _STOPPERS:
                break
            last = j
        if last >= first:
            spans.append((tokens[first].start, tokens[last].end))
    return spans


def _scope_start(tokens: Sequence[Token], i: int) -> int | None:
    """The first token index a negation at ``i`` scopes over; -1 for a negating prefix; None
    when token ``i`` negates nothing."""
    t = tokens[i].norm
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if t in _NEGATORS:
        return i + 1
    if t == "t" and in_negative_contraction(tokens, i):
        return i + 1
    if nxt is not None and (t, nxt.norm) in _TWO_WORD:
        return i + 2
    if t in _PREFIXES and nxt is not None and nxt.joined:
        return -1
    return None


def in_negative_contraction(tokens: Sequence[Token], i: int) -> bool:
    """Token ``i`` is a part of a negated auxiliary the tokenizer split at its apostrophe
    ("doesn" or "t" of "doesn't")."""
    t = tokens[i]
    if t.norm == "t" and i > 0:
        prev = tokens[i - 1]
        return prev.norm in _CONTRACTED and t.start == prev.end + 1
    if t.norm in _CONTRACTED and i + 1 < len(tokens):
        nxt = tokens[i + 1]
        return nxt.norm == "t" and nxt.start == t.end + 1
    return False


def unmarked_negation(word: str) -> bool:
    """``word`` is a negated auxiliary typed without its apostrophe ("arent", "isnt")."""
    return word in _UNMARKED


def is_negated(spans: Sequence[tuple[int, int]], start: int) -> bool:
    return any(s <= start < e for s, e in spans)


WORD_REACH = 3
"""Words after a negation that a reading word by word leaves out ("without really curing it");
it knows no clause ends."""
_UNHEARD_ALONE = frozenset({"nor", "cannot", "other"})
"""Negation words a reading word by word does not hear: "other" negates only before "than";
"nor" and "cannot" were never part of it, and hearing them now would change which words tell
a relation from its twins."""
_CONTRACTED_ALONE = frozenset({"don", "doesn"})
"""The contractions a reading word by word hears ("don't", "doesn't")."""
_ALONE = (_NEGATORS | _PREFIXES | {first for first, _ in _TWO_WORD}) - _UNHEARD_ALONE


def opens_negation(word: str) -> bool:
    """``word``, read on its own (a lower-case word that keeps its apostrophe: "doesn't"),
    opens a negation of the ``WORD_REACH`` words after it: a negator, a negating prefix, the
    first word of a negating pair ("rather", "instead") or a contraction of "do"."""
    if word.endswith("'t"):
        return word[:-2] in _CONTRACTED_ALONE
    return word in _ALONE


def denies_between(text: str, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """A statement about two names denies what joins them: a negation stands between them
    ("X doesn't treat Y", "X is not linked to Y"), opens the statement ("no link between X
    and Y, right?", "not true that X causes Y") or follows both in their clause ("X and Y
    aren't related, are they"). A negated auxiliary opening a question asks for a
    confirmation ("Doesn't X treat Y?", "Isn't there a link between X and Y?") and denies
    nothing, nor does "or not" ("does X cause Y or not")."""
    earlier, later = sorted((first, second))
    if any(_denying(w) for w in lower_words(text[earlier[1] : later[0]])):
        return True
    before = lower_words(text[: earlier[0]])
    opened = bool(before) and before[0] not in YES_NO_START and before[0] not in _UNMARKED
    if opened and any(w in _NEGATORS for w in before):
        return True
    after = _untagged(lower_words(_CLAUSE_END.split(text[later[1] :], maxsplit=1)[0].split("?")[0]))
    return any(_denying(w) and (i == 0 or after[i - 1] != "or") for i, w in enumerate(after))


_TAG_PRONOUNS = frozenset({"it", "they", "he", "she", "this", "that", "there"})


def _untagged(words: list[str]) -> list[str]:
    """``words`` without a closing question tag ("... isn't it", "... doesnt it", "... is
    it"): a tag asks for a confirmation and denies nothing."""
    if len(words) >= 2 and words[-1] in _TAG_PRONOUNS:
        if words[-2] == "t" and len(words) >= 3:
            return words[:-3]
        if words[-2] in _UNMARKED or words[-2] in YES_NO_START:
            return words[:-2]
    return words


def _denying(word: str) -> bool:
    return word in _NEGATORS or word in _CONTRACTED_ALONE or word in NEGATED_AUXILIARIES
