"""Questions about two things of one kind at once: what both have, or what one has and the
other lacks.

"drugs that treat both hypertension and heart failure", "genes shared by X and Y": the answers
of the one relation asked that hold for each (``BOTH``). "drugs for asthma but not COPD",
"meds used for epilepsy and not for bipolar": the first's answers that are not the second's
(``BUT_NOT``). The operation is read from the words that join the two names: a conjunction
alone joins (the answer holds for both), a negation among them excludes. Anything else between
them ("X in patients with Y") is no set question.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.understand.negation import opens_negation

SetOp = Literal["both", "but_not"]
BOTH: SetOp = "both"
BUT_NOT: SetOp = "but_not"

_JOINING = frozenset(
    {"and", "both", "as", "well", "plus", "also", "together", "with", "for", "in", "to"}
)
"""Words that may join two names the answer must hold for ("X as well as Y", "X and also
Y", "X and for Y"), with a conjunction among them ("X with Y", "X in Y" are no set)."""
_LINKING = frozenset({"but", "and", "yet", "for", "in", "of", "to", "used", "by"})
"""Words that may stand between two names besides the negation in an exclusion ("X but not
for Y", "X and not used in Y")."""
_WORD = re.compile(r"[^\W_]+")


def set_operation(text: str, first: tuple[int, int], second: tuple[int, int]) -> SetOp | None:
    """How the names at ``first`` and ``second`` (character spans of ``text``, in that order)
    are joined: ``BOTH``, ``BUT_NOT``, or None when they are not joined as a set."""
    between = text[first[1] : second[0]]
    words = [w.lower() for w in _WORD.findall(between)]
    if not words:
        return BOTH if between.strip() in {",", "&", "/"} else None
    negations = [i for i, w in enumerate(words) if opens_negation(w)]
    if negations:
        rest = [w for i, w in enumerate(words) if i not in negations]
        return BUT_NOT if all(w in _LINKING for w in rest) else None
    if "and" not in words and "plus" not in words and "well" not in words:
        return None
    return BOTH if all(w in _JOINING for w in words) else None


def says(op: SetOp, first: str, second: str) -> str:
    """The two names as the answer's headline says them ("both X and Y", "X but not Y")."""
    return f"both {first} and {second}" if op == BOTH else f"{first} but not {second}"
