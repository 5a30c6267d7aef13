"""One turn of a conversation, the same for every front end (chat, MCP ``ask``, ``helix-chat
ask``): what the user typed is noted, asked, or both.

The rule:

- a clarification ``choice`` resumes the question being clarified: the text is asked whole,
  with the choice, and nothing is offered to memory (the choice answers the clarification);
- otherwise the text is split into its statements and its questions (``split_turn``), and the
  statements are offered to the user's memory;
- when a statement was noted, only the questions are asked (none: the turn only noted);
- when nothing was noted (no statement, no memory, or no fact found in it), the whole text is
  asked, so words the split took for a statement still reach the engine.

A memory that fails (``MemoryFault``: a damaged or unwritable store, an unreachable database)
does not take the graph down: a question is answered without memory, the reason kept in
``TurnOutcome.memory_error``; a turn that only stated something has nothing else to do, and
raises it.

A conversation's follow-ups read the session's context (``SessionContext``: the last graph
question and its subject): a question that names nothing and refers back ("and its side
effects?") is asked of the last subject, and one that names only a new subject ("same for
asthma?") is the last question asked of it. What was read so is said first in the answer
("Reading 'its' as Metformin.").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, replace
from functools import partial

from engine.config import MAX_QUESTION_CHARS, Mode
from engine.events import EventSink
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.result import LinkedEntity, Result, Status
from engine.understand.followup import (
    KIND_PLURALS,
    ONES,
    PLURAL,
    PRONOUN,
    anaphor,
    asks_something,
    attach,
    bare_request,
    described,
    elliptical,
    group_word,
    object_kinds,
    ordinal,
    others_of,
    plural,
    substitute,
)
from engine.understand.form import sentences, split_turn
from engine.understand.lexicon import is_structural
from engine.understand.negation import opens_negation
from engine.understand.sets import asks_common
from engine.util.faults import MemoryFault
from engine.util.text import lower_words

OnNoted = Callable[[FactPort], object]
"""Told of a noted fact before anything is asked (the chat shows it at once)."""


EARLIER_SUBJECTS = 3
"""Earlier subjects a conversation's context keeps."""

GROUP_SIZE = 5
"""A plural follow-up ("what do they target") stands for at most this many of the last
answers, the first shown."""

ASKED_OF_A_SUBJECT = frozenset(
    {"one_hop", "multi_hop", "claim", "mechanism", "overview", "no_relation", "out_of_scope"}
)
"""Intents of a question asked of the graph about a subject, answered or not."""

PEOPLE = frozenset({"he", "she", "him", "her", "his"})
"""Pronouns that stand for a person (a patient in memory), never for a graph subject."""


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


@dataclass(frozen=True)
class SessionContext:
    """What a conversation's next question may refer back to: the last graph question that was
    answered or asked back, and the entity it was about."""

    question: str
    """The text that was asked (after any follow-up reading of its own)."""
    subject: LinkedEntity
    """The entity the question named (its span is in ``question``)."""
    answers: tuple[str, ...] = ()
    """The answer ids shown, best first."""
    answer_names: tuple[str, ...] = ()
    """Their names, in the same order ("the first one" is the first of them)."""
    others: tuple[LinkedEntity, ...] = ()
    """The question's other named entities (a claim's other end: "and prostate cancer?"
    after "is BRCA1 associated with ovarian cancer" replaces it)."""
    before: tuple[LinkedEntity, ...] = ()
    """The conversation's earlier subjects, the latest first ("do they share any targets"
    after a question about ramipril and one about candesartan: the two of them)."""

    def following(self, previous: SessionContext | None) -> SessionContext:
        """This context with the subjects of ``previous`` (and its own earlier ones) before it."""
        if previous is None:
            return self
        earlier = [previous.subject, *previous.before]
        kept = {self.subject.id}
        before: list[LinkedEntity] = []
        for e in earlier:
            if e.id not in kept and len(before) < EARLIER_SUBJECTS:
                kept.add(e.id)
                before.append(e)
        return replace(self, before=tuple(before))

    def group(self) -> tuple[str, ...]:
        """The first answers as a group a plural follow-up may stand for ("what do they
        target"): empty unless the last answer was a list."""
        return self.answer_names[:GROUP_SIZE] if len(self.answer_names) > 1 else ()

    @classmethod
    def of(cls, asked: str, result: Result) -> SessionContext | None:
        """The context a graph answer leaves (one that found nothing about its subject too:
        "and for apixaban?" after no side effects of warfarin); None for one that names nothing
        in ``asked``, that was not asked of the graph, or that memory answered (its subjects are
        memory's own)."""
        if (
            result.status == Status.NOT_ANSWERED and result.intent not in ASKED_OF_A_SUBJECT
        ) or any(a.source == "memory" for a in result.answers):
            return None
        named = [
            e
            for e in result.linked
            if 0 <= e.start < e.end and _letters(asked[e.start : e.end]) == _letters(e.mention)
        ]
        if not named:
            return None
        return cls(
            asked,
            named[0],
            tuple(a.id for a in result.answers),
            tuple(a.name for a in result.answers),
            tuple(e for e in named[1:] if e.id != named[0].id),
        )


def context_from(turns: Iterable[tuple[str, Result]]) -> SessionContext | None:
    """The context a stored conversation leaves for its next turn: that of its last turn that
    named a graph subject. Each turn is (what the user typed, its answer)."""
    context = None
    for typed, result in turns:
        now = SessionContext.of(result.question or typed, result)
        context = now.following(context) if now is not None else context
    return context


@dataclass(frozen=True)
class Reading:
    """A follow-up read against the session's context."""

    text: str
    """What is asked of the engine."""
    note: str
    """What was read, said first in the answer."""
    pinned: tuple[str, ...] = ()
    """The nodes the reading put into ``text`` by name: none of them is asked back about."""
    among: tuple[str, ...] = ()
    """The last answers the question picks from: the engine keeps its answers to them."""


def read_follow_up(engine: EnginePort, text: str, context: SessionContext | None) -> Reading | None:
    """``text`` read against ``context`` when it leans on it; None when it stands alone."""
    if context is None:
        return None
    if (setting := _in_setting(engine, text, context)) is not None:
        return setting
    named = engine.link(text) or _said_short(engine, text, context)
    placed = ordinal(text) if not named else None
    if placed is not None and context.answer_names:
        start, end, index = placed
        if -len(context.answer_names) <= index < len(context.answer_names):
            return _answer_at(text, start, end, context, index)
    if not named and (headed := _with_head(engine, text, context.subject, None)) is not None:
        named = [headed]
    if not named and (first := _first_answers(text, context)) is not None:
        return first
    if not named:
        if (pair := _earlier_pair(text, context)) is not None:
            return pair
        if (one := _described_one(text, context)) is not None:
            return one
        if (group := _answer_group(engine, text, context)) is not None:
            return group
        if (top := _top_answer(engine, text, context)) is not None:
            return top
        found = anaphor(_without_people(text), context.subject.kind)
        if found is None:
            if anaphor(text) is not None:
                # only the patient is referred to ("any side effects I should warn her
                # about"): the graph subject is left unsaid
                return _unsaid(engine, text, context)
            return _bare_relation(engine, text, context)
        start, end, possessive = found
        if (first := _first_answer(engine, text, found, context)) is not None:
            return first
        subject = _as_object(text, start, context)
        asked = substitute(text, start, end, subject.name, possessive)
        pinned: tuple[str, ...] = (subject.id,)
        if subject.id != context.subject.id and (
            ELSE.search(text) or others_of(text, context.subject.kind)
        ):
            # "what else treats it" after "does montelukast treat asthma": besides montelukast
            asked = f"{asked.rstrip(' ?.!')} other than {context.subject.name}"
            pinned = (*pinned, context.subject.id)
        return Reading(asked, f"Reading '{text[start:end]}' as {subject.name}.", pinned)
    spans = [(e.start, e.end) for e in named if e.start >= 0]
    if (added := _added(engine, text, context, named)) is not None:
        return added
    if (beside := _pronoun_beside(text, context, named)) is not None:
        return beside
    if (among := _among_answers(engine, text, context, named)) is not None:
        return among
    new = named[0]
    old = context.subject
    if (other := _other_end(text, context, named)) is not None:
        return other
    if len(named) == 1 and (headed := _with_head(engine, text, old, new)) is not None:
        new = headed
    if len(named) == 1 and new.kind != old.kind:
        # "and bipolar?" after a disease: the name's sense of the last subject's kind, when it
        # has one ("bipolar" is a side effect too)
        new = _in_kind(engine, text, new, old.kind)
    if len(named) != 1 or new.kind != old.kind or new.id == old.id:
        return None
    if (narrowed := _narrowed(engine, text, context, new)) is not None:
        return narrowed
    if not elliptical(text, spans):
        return None
    asked = substitute(context.question, old.start, old.end, new.name)
    return Reading(asked, f"Reading this as: {asked}")


def _without_people(text: str) -> str:
    """``text`` with the pronouns that stand for a person blanked out (same length)."""
    return PRONOUN.sub(
        lambda m: " " * len(m.group()) if m.group().lower() in PEOPLE else m.group(), text
    )


UNSAID_MAX_WORDS = 10
"""Words of a follow-up that names nothing and refers only to the patient, read of the last
subject or its first answer; a longer one is a question of its own."""


def _unsaid(engine: EnginePort, text: str, context: SessionContext) -> Reading | None:
    """A follow-up that names nothing and whose pronouns stand for the patient ("any side
    effects I should warn her about" after the first-line drug for a disease): asked of
    the last answers' first when the question fits the graph far better of it than of the
    last subject (a disease has no side effects), else of the last subject when it fits
    the graph so at all; None when it asks for nothing the graph holds."""
    if len(lower_words(text)) > UNSAID_MAX_WORDS or not asks_something(text):
        return None
    of_subject = attach(text, context.subject.name)
    if context.answers and engine.node_kind(context.answers[0]) != context.subject.kind:
        of_first = attach(text, context.answer_names[0])
        if _reads_better(engine, of_first, of_subject):
            note = (
                f"Reading this as about {context.answer_names[0]}, the first of the last answers."
            )
            return Reading(of_first, note, (context.answers[0],))
    if engine.fit(of_subject) is None:
        return None
    return Reading(
        of_subject, f"Reading this as about {context.subject.name}.", (context.subject.id,)
    )


SETTING = re.compile(
    r"^\W*(?:(?:and|so|ok|what about|how about)\s+)?(?P<prep>in|during|among|while|for)\s+"
    r"(?P<setting>[a-z][\w' -]{0,40}?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
"""A follow-up that only adds a setting to the last question ("what about in kids", "and in
pregnancy?", "in CKD pts?", "and for long term prevention")."""


def _in_setting(engine: EnginePort, text: str, context: SessionContext) -> Reading | None:
    """The last question asked again for a follow-up that only adds a setting: the sources
    record no answer by patient group or circumstance, and say so, rather than answering
    about the setting's own name ("what about in CKD pts" after a dose question is no
    question about the drugs for kidney disease). After "for", a setting names nothing the
    graph holds ("and for prevention"; "and for asthma?" asks the last question of asthma)."""
    m = SETTING.match(text)
    if m is None:
        return None
    setting = m.group("setting").strip()
    if m.group("prep").lower() == "for" and (
        engine.link(setting) or _said_short(engine, text, context)
    ):
        return None
    if _with_head(engine, f"and {setting}", context.subject, None) is not None:
        # "and in type 1?" after type 2 diabetes: the thing with the last subject's head
        return None
    note = (
        f"The sources record no answers for '{setting}' apart, so this is the last question "
        f"again: {context.question}"
    )
    return Reading(context.question, note, (context.subject.id,))


ANOTHER = re.compile(r"^\W*(?:and|what about|how about|same for|what of|ok and)\b", re.IGNORECASE)
"""How a follow-up that asks the last question of another thing opens ("what about for ra")."""
SHORT = re.compile(r"\b[a-z]{2,4}\b")


def _with_head(
    engine: EnginePort, text: str, old: LinkedEntity, new: LinkedEntity | None
) -> LinkedEntity | None:
    """A follow-up naming only a modifier of the last subject's head noun means the thing
    with that head ("what about ovarian" after breast cancer: ovarian cancer, not ovarian
    disease; "what about type 1" after type 2 diabetes mellitus: type 1 diabetes mellitus):
    the words said (``new``'s mention, or the follow-up's words after its opening when it
    names nothing) and the last subject's last words, when that links whole to one other
    thing of the last subject's kind; None otherwise."""
    opening = ANOTHER.match(text)
    if opening is None:
        return None
    said = new.mention if new is not None else _unset(text[opening.end() :].strip(" ?.!"))
    start = new.start if new is not None else text.index(said, opening.end()) if said else -1
    words = old.name.split()
    if not said or len(said.split()) > HEAD_MODIFIER_WORDS or said.lower() in old.name.lower():
        return None
    for k in range(1, len(words)):
        phrase = f"{said} {' '.join(words[-k:])}"
        found = [
            e for e in engine.link(phrase, {old.kind}) if e.start == 0 and e.end == len(phrase)
        ]
        if len(found) == 1 and found[0].id != old.id:
            return found[0].model_copy(
                update={"mention": said, "start": start, "end": start + len(said)}
            )
    return None


def _unset(said: str) -> str:
    """``said`` without a leading preposition ("in type 1": type 1)."""
    first, _, rest = said.partition(" ")
    return rest if rest and first.lower() in ("in", "for", "with", "of") else said


HEAD_MODIFIER_WORDS = 2
"""Words a follow-up may say before the last subject's head noun (``_with_head``)."""


def _said_short(engine: EnginePort, text: str, context: SessionContext) -> list[LinkedEntity]:
    """The names of a follow-up asking the last question of another thing, read with its
    short lower-case words as the initials they may be ("what about for ra" after the drugs
    for MS: rheumatoid arthritis), of the last subject's kind only; empty for any other text.
    Alone, two lower-case letters are too often a word to be read as initials."""
    if ANOTHER.match(text) is None:
        return []
    shouted = SHORT.sub(
        lambda m: m.group().upper() if not is_structural(m.group()) else m.group(), text
    )
    if shouted == text:
        return []
    return engine.link(shouted, {context.subject.kind})


ELSE = re.compile(r"\belse\b", re.IGNORECASE)
"""A follow-up asking for things besides the last subject ("what else treats it")."""


def _as_object(text: str, start: int, context: SessionContext) -> LinkedEntity:
    """What a pronoun stands for: the last subject, or the last question's other named thing
    when the pronoun is the object of a relation word and only that thing is of the kind
    the relation leads to ("what else treats it" after "does montelukast treat asthma":
    asthma)."""
    kinds = object_kinds(text, start)
    if not kinds or context.subject.kind in kinds:
        return context.subject
    return next((e for e in context.others if e.kind in kinds), context.subject)


def _other_end(text: str, context: SessionContext, named: list[LinkedEntity]) -> Reading | None:
    """A name alone of the kind of the last question's other end ("and prostate cancer?"
    after "is BRCA1 associated with ovarian cancer"): the last question asked of it."""
    if len(named) != 1 or not elliptical(text, [(e.start, e.end) for e in named if e.start >= 0]):
        return None
    new = named[0]
    if new.kind == context.subject.kind:
        return None
    end = next((e for e in context.others if e.kind == new.kind and e.id != new.id), None)
    if end is None:
        return None
    asked = substitute(context.question, end.start, end.end, new.name)
    return Reading(asked, f"Reading this as: {asked}")


SINGULAR_PRONOUNS = frozenset({"it", "its"})
"""Pronouns that stand for the last subject beside a new name ("does it treat bipolar?")."""


def _pronoun_beside(
    text: str, context: SessionContext, named: list[LinkedEntity]
) -> Reading | None:
    """A pronoun or description of the last subject beside a name of another thing ("does
    it treat bipolar disorder?", "is that drug used for pcos"): the subject put in its place,
    the new name kept."""
    old = context.subject
    if any(e.id == old.id for e in named):
        return None
    found = anaphor(text, old.kind)
    if found is None:
        return None
    start, end, possessive = found
    said = text[start:end].lower()
    if said.split()[0] in PEOPLE | {"these", "those"} or (
        " " not in said and said not in SINGULAR_PRONOUNS
    ):
        return None
    if any(e.start < end and start < e.end for e in named):
        return None
    asked = substitute(text, start, end, old.name, possessive)
    return Reading(asked, f"Reading '{text[start:end]}' as {old.name}.", (old.id,))


SHOWN_NAMES = 5
"""How many of the last answers a reading names before saying how many more."""


def _among_answers(
    engine: EnginePort, text: str, context: SessionContext, named: list[LinkedEntity]
) -> Reading | None:
    """Some of the last answers picked by a relation to a name of another kind ("which of
    them bind DRD2" after the drugs for Parkinson's, "which of those are ACE inhibitors"):
    asked of their kind ("which drugs are ACE inhibitors"), the answers kept to all the last
    answers, not only those a list showed first."""
    kind = engine.node_kind(context.answers[0]) if len(context.answers) > 1 else None
    if kind is None or any(e.kind in (kind, context.subject.kind) for e in named):
        return None
    m = ONES.search(text)
    if m is None or kind not in KIND_PLURALS:
        return None
    asked = f"{text[: m.start()]}which {KIND_PLURALS[kind]}{text[m.end() :]}"
    names = context.answer_names
    more = f" and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else ""
    note = f"Reading '{m.group()}' as the last answers: {', '.join(names[:SHOWN_NAMES])}{more}."
    return Reading(asked, note, among=context.answers)


def _in_kind(engine: EnginePort, text: str, named: LinkedEntity, kind: str) -> LinkedEntity:
    """``named``'s sense of ``kind`` at the same place in ``text``, when it has one; else
    ``named`` as it is."""
    if named.kind == kind:
        return named
    same = [e for e in engine.link(text, {kind}) if (e.start, e.end) == (named.start, named.end)]
    return same[0] if same else named


ADDED = re.compile(r"\b(?:too|also|as well|add|plus|additionally)\b", re.IGNORECASE)
"""Words that add a name to the ones the last question set side by side ("and with psoriasis
too?", "add intellectual disability to that")."""


def _added(
    engine: EnginePort, text: str, context: SessionContext, named: list[LinkedEntity]
) -> Reading | None:
    """A name added to the names the last question set side by side ("genes shared by crohns
    and UC" then "and with psoriasis too?", "add intellectual disability to that"): the last
    question asked of all of them, the name read in their kind ("depression" a disease)."""
    if len(named) != 1 or ADDED.search(text) is None:
        return None
    old = context.subject
    new = _in_kind(engine, text, named[0], old.kind)
    listed = sorted(
        (e for e in (old, *context.others) if e.kind == new.kind and e.start >= 0),
        key=lambda e: e.start,
    )
    if len(listed) < 2 or any(e.id == new.id for e in listed):
        return None
    last, before = listed[-1], listed[-2]
    q = context.question
    joint = q[before.end : last.start]
    if joint.strip().lower() != "and":
        return None
    asked = f"{q[: before.end]}, {q[last.start : last.end]} and {new.name}{q[last.end :]}"
    return Reading(asked, f"Reading this as: {asked}", tuple(e.id for e in (*listed, new)))


def _narrowed(
    engine: EnginePort, text: str, context: SessionContext, new: LinkedEntity
) -> Reading | None:
    """The last answers narrowed by a new name of the last subject's kind ("which of those
    are also used for hypertension" after the drugs for COPD; "any of them linked to ftd"
    after the genes of ALS): the last question asked of both names, or of the old but not
    the new one when the follow-up denies it ("which of them are not used in X")."""
    kind = engine.node_kind(context.answers[0]) if context.answers else None
    if kind is None or kind == new.kind:
        return None
    if group_word(text, kind) is None and not asks_common(text):
        # "any shared with schizophrenia?" after the genes of autism narrows them as well
        return None
    old = context.subject
    both = (
        f"{old.name} but not {new.name}"
        if any(opens_negation(w) for w in lower_words(text))
        else f"both {old.name} and {new.name}"
    )
    start, end = old.start, old.end
    last = context.question
    # the last question was itself narrowed ("... both X and Y"): narrowed again from X
    if start >= 5 and last[start - 5 : start].lower() == "both ":
        start -= 5
    at = last.lower().find(new.name.lower(), end)
    if at >= 0:
        end = at + len(new.name)
    asked = substitute(last, start, end, both)
    return Reading(asked, f"Reading this as: {asked}", (old.id, new.id))


def _bare_relation(engine: EnginePort, text: str, context: SessionContext) -> Reading | None:
    """A short question that names nothing and only asks for a relation or a kind of thing
    ("symptoms?", "any side effects") asks it of the last subject, or of the last answers
    when it reads far better of them ("any targets?" after the drugs for gout)."""
    if not bare_request(text):
        return None
    asked = attach(text, context.subject.name)
    pinned: tuple[str, ...] = (context.subject.id,)
    group = context.group()
    if group and _reads_better(engine, attach(text, group[0]), asked):
        asked, pinned = attach(text, joined(group, text)), context.answers[: len(group)]
    return Reading(asked, f"Reading this as: {asked}", pinned)


DESCRIBED_ONE = re.compile(r"\bthe ([a-z][a-z-]{3,}) (?:one|drug|gene)\b", re.IGNORECASE)
"""An answer of the last list described by part of its name ("the triptan one")."""


def _described_one(text: str, context: SessionContext) -> Reading | None:
    """ "the triptan one" after a list: its first answer whose name has the word in it."""
    m = DESCRIBED_ONE.search(text)
    if m is None or not context.answer_names:
        return None
    word = m.group(1).lower()
    index = next((i for i, name in enumerate(context.answer_names) if word in name.lower()), None)
    if index is None:
        return None
    return _answer_at(text, m.start(), m.end(), context, index)


def _earlier_pair(text: str, context: SessionContext) -> Reading | None:
    """A plural pronoun in a question of what things have in common ("do they share any
    targets") after two questions about two things of one kind: the two of them."""
    if not context.before or context.before[0].kind != context.subject.kind:
        return None
    if not asks_common(text):
        return None
    found = next((m for m in PLURAL.finditer(text) if m.group(1) is None), None)
    if found is None or found.group().lower() in ("those", "these"):
        return None
    names = (context.before[0].name, context.subject.name)
    asked = substitute(text, found.start(), found.end(), f"{names[0]} and {names[1]}")
    note = f"Reading '{found.group()}' as {names[0]} and {names[1]}."
    return Reading(asked, note, (context.before[0].id, context.subject.id))


FIRST_ANSWERS = re.compile(
    r"\b(?:both of |all of |any of |each of )?the (?:top|first) (?P<n>two|three|four|five|[2-5])\b",
    re.IGNORECASE,
)
"""The first answers of the last list counted out ("drugs that treat both of the top two")."""
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _first_answers(text: str, context: SessionContext) -> Reading | None:
    """The first answers of the last list named by their count ("the top two", "the first
    three"): the question asked of them by name, as a set when it says "both"/"all"."""
    m = FIRST_ANSWERS.search(text)
    if m is None:
        return None
    n = _COUNTS.get(m["n"].lower()) or int(m["n"])
    if len(context.answer_names) < n:
        return None
    names = context.answer_names[:n]
    listed = f"{', '.join(names[:-1])} and {names[-1]}"
    lead = m.group().lower().split(" ", 1)[0]
    if lead == "both":
        said = f"both {listed}"
    elif lead in ("all", "each"):
        said = f"each of {listed}"
    else:
        said = joined(names, text)  # "what do the first three target": any of them
    asked = substitute(text, m.start(), m.end(), said)
    note = f"Reading '{m.group()}' as {listed}."
    return Reading(asked, note, context.answers[:n])


def _answer_group(engine: EnginePort, text: str, context: SessionContext) -> Reading | None:
    """A plural word for the last answers ("what do they target", "drugs hitting those
    genes"): the question asked of any of the first of them. A bare pronoun stands for them
    only when the question reads far better of them than of the last subject."""
    group = context.group()
    kind = engine.node_kind(context.answers[0]) if group else None
    found = plural(text, kind) if kind is not None else None
    if found is None:
        return None
    start, end, possessive, described = found
    if not described and not _reads_better(
        engine,
        substitute(text, start, end, group[0], possessive),
        substitute(text, start, end, context.subject.name, possessive),
    ):
        return None
    asked = substitute(text, start, end, joined(group, text), possessive)
    said = text[start:end]
    note = f"Reading '{said}' as the last answers: {', '.join(group)}."
    return Reading(asked, note, context.answers[: len(group)])


def _top_answer(engine: EnginePort, text: str, context: SessionContext) -> Reading | None:
    """ "this/that/the same <kind>" naming the kind of the last answers, not the last
    subject's ("which other drugs share that target" after a drug's targets): the first
    answer, and "other" things of the subject's kind leave the subject out."""
    if not context.answers:
        return None
    kind = engine.node_kind(context.answers[0])
    if kind is None or kind == context.subject.kind:
        return None
    found = described(text, kind)
    if found is None:
        return None
    reading = _answer_at(text, *found, context, 0)
    if others_of(text, context.subject.kind):
        # "other drugs that hit the same target": the last subject is no answer
        subject = context.subject
        asked = f"{reading.text.rstrip(' ?.!')} other than {subject.name}"
        return Reading(asked, reading.note, (*reading.pinned, subject.id))
    return reading


def _first_answer(
    engine: EnginePort, text: str, found: tuple[int, int, bool], context: SessionContext
) -> Reading | None:
    """A singular pronoun after a list whose question fits the graph far better of the list's
    first answer than of the last subject ("what are its side effects" after the drugs for
    asthma: a disease has no side effects): the first answer, said so."""
    start, end, possessive = found
    if text[start:end].lower() not in SINGULAR_PRONOUNS or not context.group():
        return None
    if engine.node_kind(context.answers[0]) == context.subject.kind:
        return None
    of_first = substitute(text, start, end, context.answer_names[0], possessive)
    of_subject = substitute(text, start, end, context.subject.name, possessive)
    if not _reads_better(engine, of_first, of_subject):
        return None
    return _answer_at(text, start, end, context, 0)


def _answer_at(text: str, start: int, end: int, context: SessionContext, index: int) -> Reading:
    """``text`` with ``[start, end)`` read as the last list's answer at ``index``."""
    name = context.answer_names[index]
    asked = substitute(text, start, end, name)
    return Reading(asked, f"Reading '{text[start:end]}' as {name}.", (context.answers[index],))


FIT_MARGIN = 1.0
"""A follow-up is read of the last answers rather than the last subject only when its parse
score is this much better so (a chain of the subject scores several points below a relation
of the answers; two one-hop readings are within a point)."""


def _reads_better(engine: EnginePort, of_answers: str, of_subject: str) -> bool:
    """The follow-up read of the last answers fits the graph clearly better than read of the
    last subject (``EnginePort.fit``)."""
    answers = engine.fit(of_answers)
    if answers is None:
        return False
    subject = engine.fit(of_subject)
    return subject is None or answers > subject + FIT_MARGIN


def joined(names: tuple[str, ...], text: str) -> str:
    """Names as the follow-up ``text`` joins them: "A, B and C" when it asks what they have
    in common (a set question of each), else "A, B or C" (of any of them)."""
    if len(names) == 1:
        return names[0]
    word = "and" if asks_common(text) else "or"
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def _pinned_choice(result: Result, reading: Reading) -> str | None:
    """The node a clarification asks about that the reading named itself, if any."""
    if result.status != Status.NEEDS_CLARIFICATION:
        return None
    return next((c.id for c in result.candidates if c.id in reading.pinned), None)


@dataclass(frozen=True)
class TurnOutcome:
    """What one turn did, and the context it leaves for the conversation's next turn."""

    text: str
    """What the user typed."""
    asked: str | None = None
    """What was put to the engine; None when the turn only noted a fact."""
    result: Result | None = None
    """The engine's answer to ``asked``."""
    context: SessionContext | None = None
    """What the next turn may refer back to (the previous context when this turn named no graph
    subject)."""
    facts: tuple[FactPort, ...] = ()
    """Every fact noted, one per sentence that stated one."""
    unread: tuple[str, ...] = ()
    """The statement's sentences that stated no fact memory could read (said back, never
    dropped silently) when others did."""
    memory_error: str | None = None
    """Why the user's memory could not be used (one sentence); the question was then answered
    from the graph alone, and nothing of the turn was noted."""

    @property
    def noted(self) -> FactPort | None:
        """The first fact noted in the user's memory from the turn's statements."""
        return self.facts[0] if self.facts else None


def take_turn(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    text: str,
    *,
    mode: Mode | None = None,
    session: str | None = None,
    choice: str | None = None,
    qid: str | None = None,
    on_event: EventSink | None = None,
    on_noted: OnNoted | None = None,
    split: bool = True,
    context: SessionContext | None = None,
    max_chars: int = MAX_QUESTION_CHARS,
    unusable: str | None = None,
    user: str | None = None,
) -> TurnOutcome:
    """Note the statements of ``text`` in ``memory`` and ask the rest (the module's rule).

    ``split=False`` asks the whole text without offering it to memory, for a text known to be
    a question (a replay's ``ask`` event). ``memory`` is None when there is none to note in
    (the engine then answers without it); ``unusable`` says why when the user has a memory
    that could not be opened (it is then as if it failed in the turn). ``context`` is the
    conversation's, from the previous turn's outcome. A text longer than ``max_chars`` is not
    offered to memory either: the engine refuses it in one sentence, in the chat as in ``ask``
    and MCP. ``user`` is who typed it: the question's trace is kept in their directory (the
    engine's settings' user by default), where forgetting a patient finds it.

    The user's memory is held open for the whole turn (``UserMemoryPort.hold``): its file is
    opened once, not by each of the turn's reads and writes."""
    with ExitStack() as stack:
        if memory is not None:
            # not held on a fault: each call below meets it, and the turn says it
            with suppress(MemoryFault):
                stack.enter_context(memory.hold())
        return _take_turn(
            engine,
            memory,
            text,
            mode=mode,
            session=session,
            choice=choice,
            qid=qid,
            on_event=on_event,
            on_noted=on_noted,
            split=split,
            context=context,
            max_chars=max_chars,
            unusable=unusable,
            user=user,
        )


def _take_turn(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    text: str,
    *,
    mode: Mode | None,
    session: str | None,
    choice: str | None,
    qid: str | None,
    on_event: EventSink | None,
    on_noted: OnNoted | None,
    split: bool,
    context: SessionContext | None,
    max_chars: int,
    unusable: str | None,
    user: str | None,
) -> TurnOutcome:
    facts: tuple[FactPort, ...] = ()
    unread: tuple[str, ...] = ()
    memory_error = unusable if memory is None else None
    asked = text
    if split and choice is None and memory is not None and len(text) > max_chars:
        refused = _too_long(text, max_chars)
        if refused is not None:
            return TurnOutcome(text, text, refused, context)
    offered = memory is not None or memory_error is not None
    if split and choice is None and len(text) <= max_chars and offered:
        statement, question = split_turn(text)
        try:
            if memory is None and statement:
                raise MemoryFault(memory_error or "")
            each = (
                memory.state_each(statement, session) if memory is not None and statement else None
            )
        except MemoryFault as exc:
            if not question:
                raise  # a statement only: that it was not noted is the whole answer
            each, memory, memory_error = None, None, str(exc)
        if each is not None and each.facts:
            facts, unread = tuple(each.facts), tuple(each.unread)
            if on_noted is not None:
                for fact in facts:
                    on_noted(fact)
            if not question:
                return TurnOutcome(text, context=context, facts=facts, unread=unread)
            asked = question
    reading = read_follow_up(engine, asked, context) if choice is None else None
    if reading is not None:
        asked = reading.text
    ask = partial(
        engine.ask, asked, mode=mode, session=session, qid=qid, on_event=on_event, user=user
    )
    if reading is not None and reading.among:
        ask = partial(ask, among=reading.among)
    try:
        result = ask(memory=memory, choice=choice)
    except MemoryFault as exc:
        if memory is None:
            raise
        memory_error, memory = str(exc), None
        result = ask(memory=None, choice=choice)
    if reading is not None and (pinned := _pinned_choice(result, reading)) is not None:
        # a name the reading itself put into the question is not asked back about
        result = ask(memory=memory, choice=pinned)
    if memory_error is not None:
        result.degraded.append("memory")
    if reading is not None:
        result.understood.append(reading.note)
        result.text = f"{reading.note}\n{result.text}" if result.text else reading.note
    now = SessionContext.of(asked, result)
    after = now.following(context) if now is not None else context
    return TurnOutcome(text, asked, result, after, facts, unread, memory_error)


def _too_long(text: str, max_chars: int) -> Result | None:
    """A message of statements too long to take: refused whole, saying how many statements it
    holds, so none is kept and none is silently dropped; None when it is no statement (the
    engine refuses a long question in its own words)."""
    statement, _ = split_turn(text)
    count = len([s for s in sentences(statement) if s.strip()])
    if count == 0:
        return None
    return Result(
        question=text[:200],
        status=Status.NOT_ANSWERED,
        intent="statement",
        stop_reason="too long",
        text=(
            f"Nothing was noted: the message holds {count} statement{'s' * (count != 1)} "
            f"in {len(text):,} characters, over the {max_chars:,} a message may have; "
            "send them in parts."
        ),
    )
