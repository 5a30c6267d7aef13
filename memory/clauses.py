"""The clauses of a clinician's sentence: the parts that may each state a fact.

Clinicians pack several facts into one sentence: "On metformin 500 mg bid, started him on
empagliflozin 10 mg od today", "eGFR 38, BP 142/84", "also on amlodipine 5 mg od and ramipril
2.5 mg od", "T2DM + CKD 3b". A sentence is cut where a list or a second clause begins: a comma
or semicolon followed by a space, a dash or plus between spaces, a standalone "and", "also",
"plus", "then", "but". Parentheses are kept whole ("allergic to morphine (bronchospasm)"), so
are numbers ("1,000", "24/26 mg") and a value's own hyphens ("CA 19-9").

``memory.service.UserMemory.state_each`` reads each clause on its own when the clauses state
more facts than the whole sentence does; a clause that names no patient is about the patient
named before it in the message, or the conversation's.
"""

from __future__ import annotations

import re

_CUT = re.compile(
    r"[;,](?=\s)|\s[—–-]+\s|\s\+\s|\s/\s"
    r"|\s(?=(?:and|also|plus|then(?!\s+\d)|but|while|so)\s)",
    re.IGNORECASE,
)
"""Where a clause may end: the separator itself is left out of both sides (a connective word
stays at the head of the next clause, where the extractor's cues may read it)."""
_CONNECTIVE = re.compile(r"^(?:and|plus|then|but|while|so)\s+", re.IGNORECASE)


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``, left to right, outside parentheses; the whole sentence
    when it has one."""
    depth = 0
    cuts: list[tuple[int, int]] = []
    opened = {i: c for i, c in enumerate(sentence) if c in "()[]"}
    marks = iter(sorted(opened))
    nxt = next(marks, None)
    for m in _CUT.finditer(sentence):
        while nxt is not None and nxt < m.start():
            depth += 1 if opened[nxt] in "([" else -1
            nxt = next(marks, None)
        if depth <= 0:
            cuts.append(m.span())
    parts, start = [], 0
    for a, b in cuts:
        parts.append(sentence[start:a])
        start = b
    parts.append(sentence[start:])
    out: list[str] = []
    for part in (_CONNECTIVE.sub("", p.strip(" \t.;,")) for p in parts):
        if part and out and _ONLY_A_PERSON.match(out[-1]):
            out[-1] = f"{out[-1]} {part}"  # "she also gets hives": the person is the subject
        elif part:
            out.append(part)
    return out


_ONLY_A_PERSON = re.compile(r"^(?:she|he|they|(?:my|the|this) (?:patient|pt))$", re.IGNORECASE)
