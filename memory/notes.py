"""Project/note references ("the CRISPR screen", "our neuroinflammation work") and their slugs.

Notes are stored as ``note:<slug>``: lower-case words joined by hyphens, inner hyphens dropped
("T-cell assay" -> ``tcell-assay``), generic heads folded ("work" -> "project"; a trailing
"study" after another head is dropped: "biobank cohort study" -> ``biobank-cohort``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.util.text import alias_key

HEADS = (
    "screen",
    "project",
    "work",
    "study",
    "cohort",
    "assay",
    "panel",
    "trial",
    "shortlist",
    "program",
    "programme",
    "experiment",
    "pipeline",
    "campaign",
    "collaboration",
    "grant",
    "analysis",
    "survey",
    "registry",
    "initiative",
    "audit",
    "model",
    "series",
)
_NOT_AFTER = (
    "paper",
    "papers",
    "data",
    "dataset",
    "preprint",
    "report",
    "meeting",
    "article",
    "seminar",
    "abstract",
    "review",
)
_DETERMINERS = r"(?:the|our|my|this|that|their|his|her)"
_WORD = r"[A-Za-z0-9][\w'-]*"
_HEAD = "|".join(HEADS)
_PHRASE = re.compile(
    rf"\b{_DETERMINERS}\s+(?P<phrase>(?:{_WORD}\s+){{0,3}}?(?:{_HEAD}))\b"
    rf"(?:\s+(?:study|project))?(?!\s+(?:{'|'.join(_NOT_AFTER)})\b)(?![\w-])",
    re.IGNORECASE,
)
_FOLD = {"work": "project", "programme": "program", "tumor": "tumour"}
_SYNONYMS = {
    "hepatotoxicity": "liver tox",
    "nephrotoxicity": "kidney tox",
    "cardiotoxicity": "cardiac tox",
    "neurotoxicity": "neuro tox",
}
_SKIP_FIRST = frozenset({"new", "latest", "first", "same", "whole", "current", "main"})


@dataclass(frozen=True)
class NoteMention:
    phrase: str
    slug: str
    start: int
    end: int


_NAMED = re.compile(
    r"(?<![\w-])(?:(?:[Pp]roject|[Cc]ode[- ]?[Nn]amed?)\s+"
    r"(?P<after>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
    r"|(?P<before>[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\s+(?:project|program|programme)\b)(?![\w-])"
)
"""A project known by its own name ("Project Lark", "the Wren program", "codename sirius"):
``<name>-project``
whichever of these heads it has, so the name alone finds it later ("Lark lead?")."""


_NOT_NAMES = frozenset(
    {
        *_NOT_AFTER,
        "is",
        "was",
        "has",
        "had",
        "will",
        "would",
        "can",
        "to",
        "for",
        "on",
        "in",
        "and",
        "or",
        "of",
        "at",
        "by",
        "with",
        "team",
        "lead",
        "leads",
        "meeting",
        "update",
        "updates",
        "plan",
        "plans",
        "status",
        "notes",
        "note",
        "timeline",
        "budget",
        "goals",
        "manager",
        "management",
        "kickoff",
        "board",
        "call",
        "work",
    }
)
"""Words that follow "project" in a sentence without naming one."""
_CODED = re.compile(r"(?<![\w-])(?:[A-Z][A-Z0-9]*\d[A-Z0-9]*|[A-Z]{1,6}-\d+[A-Za-z]?)(?![\w-])")
"""A compound's or a gene's code ("HLX-204", "TYK2", "NLRP3"): what a project's note names."""

_HEADING = re.compile(
    r"^\s*(?P<name>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3}?)"
    r"(?:\s+\([^()]{1,30}\))?"
    r"(?:\s+(?:update|notes?|news|recap|summary|minutes|kicked off|kick-?off|started|launched"
    r"|begun|underway)){0,2}"
    r"\s*(?::(?!\S)|\s[-–—]+\s|\s=\s+(?=(?:our|the|a|an)\s))"
)
"""A note's heading: the few words a message opens with before a colon or a dash ("Falcon:
lead is FN-31", "CRISPRi pilot: ...", "Heron study - target: LRRK2"), an aside in brackets
and words that say it began or sum it up left out ("heron (antiviral) kicked off: ...",
"wren kickoff recap: ..."); a name set equal to what it is ("wren = our kinase programme")."""
_SET_EQUAL = re.compile(r"\s*=\s[^.,;:]*")
"""After a heading, what the name is set equal to, up to the end of its clause."""
_VERB_FORM = re.compile(r"^[a-z]{3,}(?:ing|ed)$")
"""A lower-case word with a verb's ending after a stem of three letters or more."""
_NOT_A_NAME = re.compile(r"\b(?:mrn|pt|bed|patient|ward|clinic|note|update)\b", re.IGNORECASE)


def heading_note(text: str) -> NoteMention | None:
    """The project a message's heading names, or None.

    A heading with a project's head word ("zebrafish screen:", "mouse cohort B:") names one;
    one without ("Falcon:", "CRISPRi pilot:") only when it is a name of one or two words,
    capitalised and no code, and the message gives no dose, names no patient and no person
    (a clinician's "Plan:" or "Meds:" heads a patient's note). Of a long heading, the words
    up to its head word name it ("Kestrel screen top hits:")."""
    m = _HEADING.match(text)
    if m is None or _NOT_A_NAME.search(m.group("name")):
        return None
    from memory.dosing import amount_spans
    from memory.patients import PERSON, find_mrns

    words = m.group("name").split()
    if words[0].lower() in ("the", "our", "my", "this", "that", "their"):
        words = words[1:]
    if not words:
        return None
    heads = [i for i, w in enumerate(words) if w.lower() in HEADS]
    if heads and heads[0] == 0:
        return None  # a bare head names no project ("Our assay today:")
    if (
        not heads
        and (
            len(words) > 2
            # typed in lower case ("osprey: parking TYK2"), a heading names a project when the
            # message gives a compound's or a gene's code
            or not (words[0][0].isupper() or _CODED.search(text[m.end() :]))
            or words[0][0].isdigit()
            # a verb in lower case ("reverting - HLX-204 is lead again") names nothing
            or (len(words) == 1 and _VERB_FORM.search(words[0]) is not None)
            or amount_spans(text)
            or find_mrns(text)
            or PERSON.search(text)
        )
    ):
        return None
    if heads and len(words) > 3:
        words = words[: heads[0] + 1]
    phrase = " ".join(words)
    slug = slugify(phrase)
    if not slug or slug in HEADS:
        return None
    if not heads:
        slug = f"{slug}-project"
    start = m.start("name") + m.group("name").index(phrase)
    return NoteMention(phrase, slug, start, start + len(phrase))


def find_notes(text: str) -> list[NoteMention]:
    """Project phrases introduced by a determiner, projects named by their own name, and the
    project a message's heading names (``heading_note``), with their slugs."""
    named: list[NoteMention] = []
    for m in _NAMED.finditer(text):
        slug = slugify(m.group("after") or m.group("before"))
        # typed in lower case, the word after "project" is its name unless it is a word of
        # the sentence ("project meeting", "project is")
        if m.group("after") and m.group("after")[0].islower() and slug in _NOT_NAMES:
            continue
        if slug and slug not in _SKIP_FIRST and slug not in HEADS:
            named.append(NoteMention(m.group(0), f"{slug}-project", m.start(), m.end()))
    out: list[NoteMention] = []
    for m in _PHRASE.finditer(text):
        full = m.group(0)
        phrase = full.split(None, 1)[1] if " " in full else full
        slug = slugify(phrase)
        if "-" in slug:  # a bare head ("our assay today") names no project
            out.append(NoteMention(phrase, slug, m.start("phrase"), m.end()))
    # "Project Lark" is its name even after a determiner ("the lead in Project Lark");
    # "the Orca project" is read by the determiner
    out = [n for n in out if not any(_overlap(n, t) and t.phrase[0] in "Pp" for t in named)]
    out += [t for t in named if not any(_overlap(n, t) for n in out)]
    heading = heading_note(text)
    # a message that names its project by its own name ("new programme started - ...,
    # codename vega") is headed by words about it, not by another name
    if heading is not None and not named and not any(_overlap(n, heading) for n in out):
        said = _SET_EQUAL.match(text, heading.end)
        if said is not None:
            # "wren = our kinase programme": the phrase after "=" is what the name is, not a
            # second project
            out = [n for n in out if not said.start() <= n.start < said.end()]
        out.append(heading)
    return sorted(out, key=lambda n: n.start)


def _overlap(a: NoteMention, b: NoteMention) -> bool:
    return a.start < b.end and b.start < a.end


def slugify(phrase: str) -> str:
    """The note slug of a project phrase ("our CRISPR screen" -> "crispr-screen")."""
    words = [w.replace("-", "") for w in re.split(r"\s+", phrase.strip().lower()) if w]
    words = [re.sub(r"[^a-z0-9]", "", w) for w in words]
    words = [w for w in words if w]
    if words and words[0] in {"the", "our", "my", "this", "that", "their"}:
        words = words[1:]
    while words and words[0] in _SKIP_FIRST:
        words = words[1:]
    text = " ".join(_SYNONYMS.get(w, w) for w in words)
    words = [_FOLD.get(w, w) for w in text.split()]
    if len(words) >= 3 and words[-1] in {"study", "project"} and words[-2] in HEADS:
        words = words[:-1]
    return "-".join(words)


def match_slug(slug: str, known: Iterable[str]) -> str | None:
    """The known note slug ``slug`` refers to: exact, else the best token overlap."""
    known = list(known)
    if slug in known:
        return slug
    # "project" is the head a note named without one is given ("Heron:" -> heron-project),
    # so it says nothing about which note ("Heron study")
    tokens = set(slug.split("-")) - {"project"}
    best, best_score = None, 0.0
    for cand in known:
        ctoks = set(cand.split("-")) - {"project"}
        if not tokens or not ctoks:
            continue
        inter = len(tokens & ctoks)
        score = inter / len(tokens | ctoks)
        distinctive = tokens & ctoks - set(HEADS) - {"project"}
        if distinctive and score > best_score:
            best, best_score = cand, score
    return best if best_score >= 0.34 else None


def phrase_key(phrase: str) -> str:
    return alias_key(phrase)


_NOUN = r"[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,2}"
_SAYS = r"\s*(?:=|:|->|\bis\b)\s*"
_VALUE = r"(?P<value>[A-Za-z0-9][^,;.=:]*?)\s*(?:[,;.]|$)"
_NOUN_FOR = re.compile(
    rf"(?:^|[:;,]\s*|\s[-–—]\s)(?P<noun>{_NOUN})\s+(?:for|on|of)\s+(?:the\s+|our\s+)?$"
)
"""What a note is about, said before its project ("primary assay for g12d", "chem lead on")."""
_AFTER_FOR = re.compile(rf"^(?P<rest>(?:\s+[a-z][a-z0-9-]*){{0,3}}?){_SAYS}{_VALUE}")
"""After the project: a few words that narrow it ("in vivo"), then what the noun is."""
_AFTER_NAME = re.compile(rf"^\s*:?\s+(?P<noun>{_NOUN}){_SAYS}{_VALUE}")
"""After the project: the noun, then what it is ("g12d cro = pharmaron")."""
_NOT_NOUNS = frozenset(
    {"the", "a", "an", "our", "my", "this", "that", "it", "we", "they", "and", "or", "but", "so"}
)


def labelled_note(text: str, start: int, end: int) -> tuple[str, str] | None:
    """(noun, value) of a project's note given by the noun it is about ("primary assay for
    g12d = sos1 htrf" -> ("primary assay", "sos1 htrf"); "cro for the g12d in vivo =
    pharmaron"; "chem lead on nlrp3 is priya"; "g12d cro: pharmaron"), the project written at
    ``start``:``end``; the noun kept as the user said it, so it is asked back by it. Pure."""
    before = _NOUN_FOR.search(text[:start])
    if before is not None:
        after = _AFTER_FOR.match(text[end:])
        noun = before.group("noun")
    else:
        after = _AFTER_NAME.match(text[end:])
        noun = after.group("noun") if after is not None else ""
    if after is None or not noun or noun.split()[0] in _NOT_NOUNS:
        return None
    value = after.group("value").strip()
    if not value or value.split()[0].lower() in _NOT_NOUNS:
        return None
    return noun.lower(), value


def labelled_key(literal: str) -> str | None:
    """The noun of a labelled note's literal ("cro: pharmaron" -> "cro"). Pure."""
    m = re.match(rf"^(?P<noun>{_NOUN}): \S", literal)
    return m.group("noun") if m else None


_NUMBER = re.compile(r"(?<![\w#.,/\-^])(?P<n>\d{3,6})(?![\w%/^]|[.,]\d|\s*[%/])")
"""A whole number as a compound's number is written alone ("204 becomes backup")."""
_CODE_SAID = re.compile(r"(?<![\w-])[A-Z]{1,6}-\d+[A-Za-z]?(?![\w-])")
_IT = re.compile(r"(?<![\w'-])it(?![\w'-])")


def with_codes(text: str, code_of: Callable[[str], str | None]) -> str:
    """``text`` with each number written for a compound this user named by its code, the
    code ("204 becomes backup" -> "HLX-204 becomes backup" when HLX-204 was said). Pure
    given ``code_of``."""
    return _NUMBER.sub(lambda m: code_of(m.group("n")) or m.group(), text)


def it_as_code(part: str, before: Iterable[str]) -> str:
    """A clause's "it" as the compound code said last in the clauses ``before`` it
    ("HLX-311 came back at 3 nM, promoting it to lead"); the clause unchanged without one.
    Pure."""
    codes = [m.group() for b in before for m in _CODE_SAID.finditer(b)]
    if not codes or _CODE_SAID.search(part):
        return part
    return _IT.sub(codes[-1], part, count=1)


_REVIVED = re.compile(
    r"\b(?:bringing|brought|bring|putting|put)\s+(?:the\s+)?(?P<a>[a-z][a-z0-9-]{1,15})\s+back\b"
    r"|\b(?P<b>[a-z][a-z0-9-]{1,15})\s+(?:is\s+|are\s+)?back on the table\b"
    r"|\b(?:reviv\w*|un-?park\w*|un-?shelv\w*|reinstat\w*)\s+(?:the\s+)?(?P<c>[a-z][a-z0-9-]{1,15})",
    re.IGNORECASE,
)


def revived(text: str) -> list[str]:
    """The words of what ``text`` takes up again after it was set aside ("bringing lpxc back",
    "nek7 back on the table", "unparking mura"), as alias keys. Pure."""
    return [alias_key(next(g for g in m.groups() if g)) for m in _REVIVED.finditer(text)]


_WHEN_WORDS = frozenset({"now", "current", "currently", "latest", "today", "again", "so", "far"})


def asked_label(question: str, name: str) -> str | None:
    """The noun of one or two words a question asks of the project called ``name``, in the
    two shapes a label is asked in: "who's the cro on finch?" and "finch cro?". None for any
    other shape, or when a word of it is one of when ("finch lead now?"). Pure."""
    if not name:
        return None
    at = rf"(?:the\s+)?{re.escape(name)}(?:\s+(?:project|programme|program))?"
    noun = r"(?P<n>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    shapes = (
        rf"^\W*(?:who|what|which)(?:'s|’s|s|\s+is|\s+was)?\s+(?:the|our)\s+{noun}\s+"
        rf"(?:on|for|of|in)\s+{at}\W*$",
        rf"^\W*{at}(?:'s|’s)?\s+{noun}\W*$",
    )
    for shape in shapes:
        m = re.match(shape, question.strip(), re.IGNORECASE)
        if m is not None:
            words = m.group("n").lower().split()
            return None if set(words) & _WHEN_WORDS else " ".join(words)
    return None


_A_DATE = re.compile(r"\b(?:dates?|deadlines?|due)\b", re.IGNORECASE)


def asks_a_date(question: str) -> bool:
    """Whether a question asks for a date as its noun ("any nomination date for kestrel?",
    "what's the deadline on heron?"), which no compound or gene answers. Pure."""
    return _A_DATE.search(question) is not None
