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
from collections.abc import Sequence

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


_SUBJECT_WORD = (
    r"i|you|he|she|it|we|they|there|this|that|these|those|the|a|an|my|your|his|her|its|our|"
    r"their|mr|mrs|ms|miss|dr|mrn|pt|patient|bed|any|all|each|every|some|no"
)
_FUTURE_STATEMENT = re.compile(
    rf"^\W*(?i:{_LEAD_IN}(?:will|shall))\s+(?!(?:{_SUBJECT_WORD})\b)(?=[a-z])[a-z]+\b(?!\s*\d)"
)
"""A sentence of the future whose subject is left out, as notes are written ("will start
allopurinol 100mg od in 2 weeks", "will recheck K tomorrow"): after "will" a question puts its
subject (a pronoun, a determiner, a title, a name in capitals, a number); a statement puts the
lower-case verb. The word after the modal is read in its case ("Will Smith ..." is a name)."""


def is_question(text: str) -> bool:
    """True for a question or a request addressed to the assistant, False for a statement."""
    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    return bool(_QUESTION_START.match(stripped)) and not _FUTURE_STATEMENT.match(stripped)


PREPOSITIONS = ("in", "of", "for", "to", "from", "with", "by", "on", "at")
"""Prepositions that may open a wh-phrase ("In which tissues ...")."""
_PREPOSITION = rf"(?:{'|'.join(PREPOSITIONS)}) "
CLAUSE_OPEN = r"(?:^|[;:,.!?\u2013\u2014]|\s-)"
"""Where a clause may open: the start, or after punctuation or a dash."""
_WH_START = re.compile(rf"^\W*{_LEAD_IN}(?:{_PREPOSITION})?(?:{_INTERROGATIVE})\b", re.I)


def is_wh_question(text: str) -> bool:
    """True for a question that opens with an interrogative ("Which genes ...", "In which
    tissues ..."): it asks for things, never for a yes or a no."""
    return bool(_WH_START.match(text.strip()))


_WHETHER = re.compile(r"\bwhether\b", re.IGNORECASE)
"""An embedded yes/no question ("Confirm whether X is indicated in Y")."""
_POLITE = r"(?:can|could|would|will)\s+you\b"
_POLITE_REQUEST = re.compile(rf"^\W*{_LEAD_IN}{_POLITE}", re.IGNORECASE)


def polite_request(text: str) -> bool:
    """A request put as a question to the assistant ("Can you pull up the genes ...?",
    "Could you map X to ..."): it asks for things, unless what it asks is whether
    something holds ("Can you confirm whether X binds Y?")."""
    stripped = text.strip()
    return bool(_POLITE_REQUEST.match(stripped)) and not _WHETHER.search(stripped)


_ASKING = rf"{_LEAD_IN}(?:(?:{_PREPOSITION})?(?:{_INTERROGATIVE})|{_REQUEST})\b"
"""What opens a clause that asks for things: an interrogative or a request."""
_ASKS_FOR_THINGS = re.compile(rf"{CLAUSE_OPEN}\W*{_ASKING}(?!\s*:)", re.IGNORECASE)


def asks_for_things(text: str) -> bool:
    """True when a clause opens with an interrogative or a request ("Which drugs ...", "For
    PCOS, which medications ...", "I'm validating X; which drugs act on it?", "List ..."):
    the question asks for things, unlike a title ("Alcohol and myocardial infarction: a
    benefit?") or a yes/no question."""
    return bool(_ASKS_FOR_THINGS.search(text.strip())) or polite_request(text)


_THEN_ASKS = re.compile(rf"(?:[?;:]|\s[\u2013\u2014-])\s*{_ASKING}", re.IGNORECASE)


def then_asks_for_things(text: str) -> bool:
    """A later clause asks for things after the opening one ("Is LRRK2 worth drugging —
    which compounds bind it?", "Is X an enzyme or a channel...? What activity does it
    have?"): what the user wants is the list, the yes/no opening only leads up to it."""
    return bool(_THEN_ASKS.search(text.strip()))


def is_yes_no(text: str) -> bool:
    """True for a question answered yes or no: it opens with an auxiliary verb ("Is MRN 4471
    still on sitagliptin?", "Did clonazepam replace it?"), not with an interrogative."""
    return bool(_YES_NO_START.match(text.strip()))


_ASKED_NOUN = re.compile(
    rf"^\W*{_LEAD_IN}(?:(?:remind|tell|show)\s+(?:me|us)\s+)?(?:{_PREPOSITION})?(?:what|which)\s+(?P<noun>[a-z]+)\s+"
    rf"(?=(?:{_AUXILIARY}|got|gets|i|we|you|they|he|she|it|our|my)\b)",
    re.IGNORECASE,
)


def asked_noun(text: str) -> str | None:
    """The noun a wh-question asks for when it stands alone after the interrogative and the
    clause follows ("Which *disease* did I flag X for?", "what *drug* is MRN 4471 on?");
    None when a longer phrase names the thing ("What drug reactions are on record?")."""
    m = _ASKED_NOUN.match(text.strip())
    return m.group("noun").lower() if m else None


NEGATED_AUXILIARIES = frozenset(
    "doesn don isn aren didn wasn weren hasn haven couldn wouldn shouldn won".split()
)
"""What is left of "doesn't", "isn't", "won't" ... once the tokenizer splits at the apostrophe
("can't" leaves "can")."""
YES_NO_START = frozenset(
    "does do is are can could will would should has have did was were may might".split()
) | (NEGATED_AUXILIARIES - {"won"})
"""Words that open a question about one claim ("Does X treat Y?", "Might X bind Y?"), also
negated ("Doesn't X treat Y?": the tokenizer splits it at the apostrophe)."""
_YES_NO_AUX = "|".join(sorted(YES_NO_START | {"am", "had"}))
_LABELLED_YES_NO = re.compile(
    rf"^[^?:\u2014\u2013]{{1,60}}(?::|\s[\u2014\u2013-]\s)\s*(?:{_YES_NO_AUX})\b{_NOT_A_QUESTION}",
    re.IGNORECASE,
)
_YES_OR_NO = re.compile(r"\b(?:yes or no|true or false)\b|\bor not\W*$", re.IGNORECASE)
_TAG = re.compile(
    r"(?:,|\s)\s*(?:(?:right|yes|correct|true|(?:is that|am i) (?:right|correct))\s*\?+"
    r"|(?:right|correct|(?:is that|am i) (?:right|correct)"
    r"|true or false|(?:yes|fact) or (?:no|myth))"
    r"|(?:is|does|do|are|was|did|has|have|can)(?:n'?t)? (?:it|they|he|she))\s*\?*\s*$",
    re.IGNORECASE,
)
"""A tag that asks to confirm the statement before it ("..., yes?", "... correct", "...,
doesn't it?", "X isn't used for Y, is it"); "yes" and "true" are tags only before a question
mark."""


_DEFINING = re.compile(
    r"^\W*(?:(?:so|ok|and|hey)\W+)?(?:(?:can you |please )?(?:define|explain|describe)"
    r"|what(?:'s|\u2019s|s| is| are| was)|who is|tell me what|(?:the )?(?:definition|meaning) of)"
    r"(?:\s+(?:an?|the))?\s+(?P<name>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_MEANS = re.compile(r"^\W*what does\s+(?P<name>.+?)\s+(?:mean|stand for)[\s?.!]*$", re.IGNORECASE)


def defining(text: str, start: int, end: int) -> bool:
    """The text asks what the thing named at ``[start, end)`` is, and nothing more ("what is
    SLE?", "define sarcoidosis", "what does CML stand for")."""
    for rx in (_DEFINING, _MEANS):
        m = rx.match(text)
        if m is not None and (m.start("name"), m.end("name")) == (start, end):
            return True
    return False


def framed_yes_no(text: str) -> bool:
    """A yes/no question that does not open with its auxiliary: one after a label ("Quick
    check: is X among ...?", "pt on X — is Y a side effect?"), one that says it wants a
    yes or a no ("X binds Y, yes or no?", "... — known side effect or not?") or one that
    embeds it ("Confirm whether X is indicated in Y")."""
    stripped = text.strip()
    return bool(_LABELLED_YES_NO.match(stripped)) or asks_to_check(stripped)


def asks_to_check(text: str) -> bool:
    """The question asks to check a claim outright: it wants a yes or a no ("..., yes or
    no?", "... or not?", "X treats Y, right?") or embeds it ("Can you confirm whether X binds
    Y?")."""
    tagged = _TAG.search(text) is not None and not is_wh_question(text)
    return bool(_YES_OR_NO.search(text) or _WHETHER.search(text) or tagged)


_COPULA = re.compile(r"^(?P<subject>.+?)\s+(?P<verb>is|are)\s+(?P<rest>.+)$", re.IGNORECASE)
_DENIAL = re.compile(r"\b(?:not|no|never)\b|n't\b", re.IGNORECASE)


def untagged(text: str) -> str | None:
    """A statement with a tag asking to confirm it ("ACE inhibitors cause cough - true or
    false", "T2DM is an autoimmune disease, correct?") asked directly ("do ACE inhibitors
    cause cough?", "is T2DM an autoimmune disease?"); None for any other text, and for a
    denial, whose tag the claim reading already takes."""
    tag = _TAG.search(text)
    if tag is None or is_yes_no(text) or is_wh_question(text):
        return None
    said = text[: tag.start()].strip(" ,-–—:;")
    if not said or _DENIAL.search(said):
        return None
    copula = _COPULA.match(said)
    if copula is not None:
        return f"{copula['verb']} {copula['subject']} {copula['rest']}?"
    return f"do {said}?"


def declarative_question(text: str) -> bool:
    """A statement said as a question ("Propylthiouracil treats pancreatic cancer?", "GSDMA
    linked to nasal cavity cancer?"): it ends with a question mark, and no clause of it opens
    with an interrogative, an auxiliary or a request. A title ("Aripiprazole: a new risk
    factor for pathological gambling?") is not one: its label sets a topic."""
    stripped = text.strip()
    return (
        stripped.endswith("?")
        and ":" not in stripped
        and not _QUESTION_START.match(stripped)
        and not asks_for_things(stripped)
        and not _LABELLED_YES_NO.match(stripped)
    )


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``; a period after a known abbreviation does not
    end one."""
    out: list[tuple[int, int]] = []
    start = None
    pos = 0
    for piece in _BOUNDARY.split(text):
        at = text.index(piece, pos) if piece else pos
        pos = at + len(piece)
        if not piece.strip():
            continue
        if start is None:
            start = at + len(piece) - len(piece.lstrip())
        last = piece.rsplit(None, 1)[-1]
        if last.endswith(".") and last[:-1].lower().lstrip("(") in _ABBREVIATIONS:
            continue
        out.append((start, len(text[:pos].rstrip())))
        start = None
    if start is not None:
        out.append((start, len(text[:pos].rstrip())))
    return out


def sentences(text: str) -> list[str]:
    """The sentences of ``text``; a period after a known abbreviation does not end one."""
    return [text[a:b] for a, b in sentence_spans(text)]


_ASK_VERB = r"tell|list|give|show|name|find|explain|describe|share|provide|let (?:me|us) know"
_REQUEST_FRAME = re.compile(
    rf"^\W*(?:[^,?.]{{0,40}},\s*)?{_LEAD_IN}(?:{_AUXILIARY})\s+you\b[^?.]{{0,40}}?"
    rf"\b(?:{_ASK_VERB})\b(?!\s+(?:(?:me|us)\s+)?(?:about|whether|if)\b)"
    rf"(?:\s+(?:me|us))?\s+(?=\w)",
    re.IGNORECASE,
)
"""A polite request wrapped round the question ("Could you kindly tell me which ...", "I was
wondering, would you list the ..."): what follows it is what is asked."""
_WISH_FRAME = re.compile(
    rf"^\W*{_LEAD_IN}(?:i|we)(?:'d| would| really)?\s+(?:like|want|need|wish|am trying|'m trying)"
    rf"\s+to\s+[a-z]+(?:\s+out)?\s+(?=(?:{_INTERROGATIVE})\b)",
    re.IGNORECASE,
)
"""A wish wrapped round an embedded question ("I'd like to know which drugs ...", "I need to
confirm what ..."): its "like" is no comparison, its verb no relation."""
_POLITE_FRAME = re.compile(
    rf"^\W*{_LEAD_IN}{_POLITE}\s+(?:please\s+|kindly\s+|just\s+)?[a-z]+(?:\s+(?:me|us))?"
    rf"\s+(?=(?:{_INTERROGATIVE})\b)",
    re.IGNORECASE,
)
"""A polite request whose verb takes the question itself ("Can you check which compound
..."): whatever the verb, it is no relation."""


_FRAMES = (_REQUEST_FRAME, _WISH_FRAME, _POLITE_FRAME)
"""The frames a request or wish may wrap round the question it asks."""


def without_frame(text: str) -> str:
    """``text`` with a request or wish wrapped round its question blanked out, offsets kept
    ("Can you check which drug ..." reads as "which drug ...": its "check" is no lab check)."""
    for rx in _FRAMES:
        frame = rx.match(text)
        if frame is not None:
            return " " * frame.end() + text[frame.end() :]
    return text


_CLAUSE = re.compile(r";\s+")


NEXT_STEP = re.compile(
    r"\b(?:then|after that|from there|and on to)\b|\bstep\s*(?:2|two|ii)\b", re.IGNORECASE
)
"""Where a request made in steps goes on ("first the drugs that treat X, *then* their side
effects", "Step 1: ... Step 2: ...")."""
_NEXT_STEP_OPEN = re.compile(rf"\W*(?:{NEXT_STEP.pattern})", re.IGNORECASE)


PASTE_SENTENCES = 5
"""A message of this many sentences or more is a pasted note: its last question that names
something is what is asked (``asked_span``)."""


def pasted_question(text: str, spans: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The last question of a pasted note: of ``spans`` (``text``'s sentences or clauses), the
    last that is a question, when there are ``PASTE_SENTENCES`` or more; else None."""
    if len(spans) < PASTE_SENTENCES:
        return None
    return next(((a, b) for a, b in reversed(spans) if is_question(text[a:b])), None)


def asked_span(text: str, names: Sequence[tuple[int, int]] = ()) -> tuple[int, int]:
    """The part of what the user typed that asks the question, as (start, end) in ``text``.

    When the question names something (``names``: the spans of the linked mentions), the
    sentences around it that are neither questions nor name anything are left out ("Thank you
    so much.", "I am a student."); a request frame round an embedded question is left out
    too, whose opening auxiliary would otherwise read as a yes/no question ("Could you kindly
    tell me which genes ...?").
    """
    # a clause after a semicolon is as separate as a sentence ("I'm building a panel; which
    # genes ...?")
    spans = [(a + c0, a + c1) for a, b in sentence_spans(text) for c0, c1 in _clauses(text[a:b])]
    if not spans:
        return 0, len(text)

    def keep(a: int, b: int) -> bool:
        # a sentence that goes on to the next step of a request belongs to it
        return (
            is_question(text[a:b])
            or any(a <= s < b for s, _ in names)
            or bool(_NEXT_STEP_OPEN.match(text, a, b))
        )

    last = pasted_question(text, spans)
    if last is not None and any(last[0] <= s < last[1] for s, _ in names):
        # a pasted note ending in a question that names what it asks about: the question is
        # asked, the note is its background ("62M, PMH T2DM ... what does atorvastatin target?")
        spans = [last]
    kept = [(a, b) for a, b in spans if keep(a, b)]
    if not kept or not any(a <= s < b for a, b in kept for s, _ in names):
        # nothing named: the other sentences are the topic ("Metered-dose inhalers. Do
        # providers know what to teach?"), a literature question keeps them
        kept = spans
    start, end = kept[0][0], kept[-1][1]
    for rx in _FRAMES:
        frame = rx.match(text, start, end)
        if frame is not None and not any(start <= s < frame.end() for s, _ in names):
            start = frame.end()
            break
    return start, end


def _clauses(sentence: str) -> list[tuple[int, int]]:
    out, at = [], 0
    for m in _CLAUSE.finditer(sentence):
        if sentence[at : m.start()].strip():
            out.append((at, m.start()))
        at = m.end()
    if sentence[at:].strip():
        out.append((at, len(sentence)))
    return out


def split_turn(text: str) -> tuple[str, str]:
    """(statement sentences, question sentences) of what the user typed, each joined by spaces."""
    statements: list[str] = []
    questions: list[str] = []
    for sentence in sentences(text):
        (questions if is_question(sentence) else statements).append(sentence)
    return " ".join(statements), " ".join(questions)
