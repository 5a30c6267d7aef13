"""Question or statement: the one place every front end (chat, MCP server, replay) asks.

A sentence is a question when it ends with "?" or opens the way questions and requests open:
an interrogative ("which", "how"), an auxiliary verb ("is", "did", "has"), or a request verb
addressed to the assistant ("list", "show me", "remind me"). Everything else is a statement
("Switched MRN 4471 to sitagliptin." is noted, not answered). ``split_turn`` separates what a
user typed into its statements and its questions, sentence by sentence; abbreviations such as
"Mr." or "pt." and decimals ("7.5") do not end a sentence.
"""

from __future__ import annotations

import re

_INTERROGATIVE = r"what|what's|whats|which|who|who's|whom|whose|when|where|why|how"
_AUXILIARY = r"is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|any"
_REQUEST = (
    r"list|name|show|tell|give|find|explain|describe|remind me|look up|what about|"
    r"please (?:list|show|tell|give|find|explain|describe|remind)"
)
_LEAD_IN = r"(?:(?:and|so|ok|okay|then|also)[,\s]+)?"
_NOT_A_QUESTION = r"(?!\s*:|'t|\s+not\b)"
"""A label ("Name: ...") or a negated instruction ("Do not give ...") is a statement."""
_QUESTION_START = re.compile(
    rf"^\W*{_LEAD_IN}(?:{_INTERROGATIVE}|{_AUXILIARY}|{_REQUEST})\b{_NOT_A_QUESTION}",
    re.IGNORECASE,
)
_YES_NO_START = re.compile(rf"^\W*{_LEAD_IN}(?:{_AUXILIARY})\b{_NOT_A_QUESTION}", re.IGNORECASE)
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "pt", "prof", "st", "vs", "no", "approx", "e.g", "i.e", "etc", "al"}
)
_BOUNDARY = re.compile(r"(?<=[.!?])\s+")


def is_question(text: str) -> bool:
    """True for a question or a request addressed to the assistant, False for a statement."""
    stripped = text.strip()
    return stripped.endswith("?") or bool(_QUESTION_START.match(stripped))


def is_yes_no(text: str) -> bool:
    """True for a question answered yes or no: it opens with an auxiliary verb ("Is MRN 4471
    still on sitagliptin?", "Did clonazepam replace it?"), not with an interrogative."""
    return bool(_YES_NO_START.match(text.strip()))


def sentences(text: str) -> list[str]:
    """The sentences of ``text``; a period after a known abbreviation does not end one."""
    out: list[str] = []
    current = ""
    for piece in _BOUNDARY.split(text.strip()):
        current = f"{current} {piece}" if current else piece
        last = current.rsplit(None, 1)[-1] if current.split() else ""
        if last.endswith(".") and last[:-1].lower().lstrip("(") in _ABBREVIATIONS:
            continue
        out.append(current)
        current = ""
    if current:
        out.append(current)
    return [s for s in out if s.strip()]


def split_turn(text: str) -> tuple[str, str]:
    """(statement sentences, question sentences) of what the user typed, each joined by spaces."""
    statements: list[str] = []
    questions: list[str] = []
    for sentence in sentences(text):
        (questions if is_question(sentence) else statements).append(sentence)
    return " ".join(statements), " ".join(questions)
