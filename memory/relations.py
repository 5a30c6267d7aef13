"""The relation catalogue of the vault, loaded from ``relations.yaml``.

Which relations are functional (and how), which subject/object kinds they take, and the cue
lexicons used to recognise them in statements and questions are data, not code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.understand.cueshare import shared_uses
from engine.understand.form import without_frame
from engine.util.text import alias_key
from engine.util.yamltext import safe_load
from memory.literals import LEVEL_WORDS

Functional = Literal["none", "subject", "key", "explicit"]
DEFAULT_PATH = Path(__file__).with_name("relations.yaml")


class Cue(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    regex: str = Field(alias="re")
    w: float = 1.0

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.regex, re.IGNORECASE)


SharedCues = dict[str, list[tuple[Cue, float]]]
"""Relation -> the ask cues of other relations its wordings use too, each with the share of
the cue's weight the relation gets."""


def _cues(value: object) -> list[Cue]:
    if not isinstance(value, list):
        raise ValueError("cues must be a list")
    return [Cue.model_validate({"re": v} if isinstance(v, str) else v) for v in value]


class RelationSpec(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    name: str = ""
    label: str = ""
    """How an answer names the relation ("allergy": "I have no allergy recorded for ...")."""
    subject: str
    objects: list[str] = Field(alias="object")
    functional: Functional = "none"
    say: list[Cue] = Field(default_factory=list)
    ask: list[Cue] = Field(default_factory=list)
    phrases: list[str] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)
    synonyms: dict[str, str] = Field(default_factory=dict)
    detail: list[Cue] = Field(default_factory=list)
    """Words of a question that asks how a value holds (a medication's dose, route or
    frequency: "what dose of [Compound]"): it asks about the value it names, not around it."""
    verbatim: bool = False
    """What a user said, kept as written (``memory.remarks``): never read from a statement's
    or a question's words, only stored for what no other relation states."""
    near: list[str] = Field(default_factory=list)
    """Relations whose values a question about this one also reads when it names the drug
    the statement tied them to: a side effect is something the patient felt on a drug, noted
    as a symptom ("what did the atorvastatin do to him?" after "myalgia on the atorva"). A
    question that names no drug keeps to its own relation."""
    near_named: list[str] = Field(default_factory=list)
    """Relations that answer in this one's place when it holds nothing for the subject and
    they hold the value the question names ("what reaction does she get with aspirin?" of
    an allergy to aspirin noted with its reaction)."""
    graph: list[str] = Field(default_factory=list)
    """Knowledge-graph one-hop slots (``engine/understand/exemplars.yaml``) this relation
    restates: a question that reads as one of them may still be about the note."""

    @field_validator("say", "ask", "detail", mode="before")
    @classmethod
    def _parse_cues(cls, value: object) -> list[Cue]:
        return _cues(value)

    @property
    def literal_object(self) -> bool:
        return "literal" in self.objects

    @property
    def object_kinds(self) -> set[str]:
        return {k for k in self.objects if k != "literal"}

    @cached_property
    def phrase_patterns(self) -> list[re.Pattern[str]]:
        return [re.compile(p) for p in self.phrases]

    def asks_detail(self, text: str) -> bool:
        """Whether a question asks how a value holds (its dose), by the ``detail`` cues."""
        return any(c.pattern.search(text) for c in self.detail)

    def score(self, text: str, *, ask: bool) -> float:
        """Sum of the weights of the cues found in ``text``; a question that asks how a value
        holds ("how often", "what rate") asks about the relation too, so its ``detail`` cues
        count as well (a word an ask cue reads already counts once)."""
        total = sum(c.w for c in (self.ask if ask else self.say) if c.pattern.search(text))
        if ask:
            for cue in self.detail:
                m = cue.pattern.search(text)
                if m is not None and not any(a.pattern.search(m.group()) for a in self.ask):
                    total += cue.w
        return total


class SupersedeSpec(BaseModel):
    switch: str
    old_before: str
    old_after: str
    stop: str = r"(?!)"

    @cached_property
    def stop_re(self) -> re.Pattern[str]:
        """Words that end a value with nothing in its place ("held", "weaned off")."""
        return re.compile(self.stop, re.IGNORECASE)

    @cached_property
    def switch_re(self) -> re.Pattern[str]:
        return re.compile(self.switch, re.IGNORECASE)

    @cached_property
    def old_before_re(self) -> re.Pattern[str]:
        return re.compile(self.old_before, re.IGNORECASE)

    @cached_property
    def old_after_re(self) -> re.Pattern[str]:
        return re.compile(self.old_after, re.IGNORECASE)

    def asks_old_value(self, question: str) -> bool:
        """Whether the value a question asks for stands where a statement puts the value a
        change replaced: the question's gap read with the statement grammar above. The gap
        is the end of a question that strands its preposition ("What did we take her off
        (of)?", "...move away from?"), the end of its verb phrase before a closing adjunct
        when it has "did" or speaks of a change ("What did the screen drop as lead?", "the
        medication he came off at the last change"; not "What is she suffering from at the
        moment?"), the object of "replace" ("the lead that the current one replaced"), or the
        noun phrase asked for when a participle of a change comes before or after it ("Which
        drug was stopped when she began X?", "Which molecule got replaced as lead?", "the
        replaced lead compound"). The question is its last clause ("the retinal study —
        which compound got replaced as lead?"), or the one before a closing "what was it?"."""
        clauses = [c.strip() for c in _CLAUSES.split(question.strip()) if c.strip()] or [""]
        while len(clauses) > 1 and _RESUMPTIVE.match(clauses[-1]):
            clauses.pop()  # "... was switched off most recently — what was it?"
        clause = clauses[-1]
        text = _STRANDED_OF.sub("", clause.rstrip("?.! ")) + " "
        phrases = [text]
        if _DO_SUPPORT.match(clause) or self.switch_re.search(question):
            phrases.append(_CLOSING_ADJUNCT.sub("", text.rstrip()) + " ")
        if any(self.old_before_re.search(t) or _REPLACE_GAP.search(t) for t in phrases):
            return True
        m = _WH_PHRASE.match(clause)
        if m is not None and self.old_after_re.match(clause[m.end() :]):
            return True
        head = _ASKED_NP.match(without_frame(clause))
        return head is not None and bool(self.old_after_re.match(clause[head.end() :]))

    def asks_new_value(self, question: str) -> bool:
        """Whether the value a question asks for stands where a statement puts the value a
        change brought in: the gap after "to", "onto" or "into" that ends the question's
        clause, a closing adjunct aside ("What did we change her over to (most recently)?",
        "What was he moved onto?"; statements: "switched X to Y", "moved onto Y")."""
        clauses = [c.strip() for c in _CLAUSES.split(question.strip()) if c.strip()] or [""]
        while len(clauses) > 1 and _RESUMPTIVE.match(clauses[-1]):
            clauses.pop()
        text = clauses[-1].rstrip("?.! ")
        return any(_NEW_GAP.search(t) for t in (text, _CLOSING_ADJUNCT.sub("", text)))


_NEW_GAP = re.compile(r"\b(?:to|onto|into)\s*$", re.I)
"""The gap of a change's new value ("... switched her to?")."""
_STRANDED_OF = re.compile(r"(?<=\boff)\s+of$", re.IGNORECASE)
"""'off of' at the end says what 'off' says."""
_WH_PHRASE = re.compile(r"^\W*(?:which|what)(?:\s+(?!(?:was|were|is|got|has|had)\b)[a-z]+)?", re.I)
_CLAUSES = re.compile(r"\s[\u2014\u2013-]\s|[;:\u2014\u2013]")
_RESUMPTIVE = re.compile(
    r"^\W*(?:what|which)(?:\s+one)?\s+(?:is|was|were)\s+(?:it|that|this|they)\W*$", re.I
)
"""A closing question whose pronoun stands for what the clause before it asks about."""
_DO_SUPPORT = re.compile(r"^\W*(?:which|what)(?:\s+[a-z]+)?\s+(?:did|does|do)\b", re.I)
"""A question whose gap is the object of its main verb ("What did we take her off?")."""
_REPLACE_GAP = re.compile(r"\breplaced?\s*$", re.I)
"""A verb phrase ending in "replace(d)" leaves its object, the replaced value, as the gap."""
_ASKED_NP = re.compile(
    r"^\W*(?:(?:what|which)\s+(?:is|was|were|are)\s+)?(?:the|a|an|her|his|their|its)\s+", re.I
)
"""The opening of the noun phrase a question asks for ("the ...", "what was the ...")."""
_CLOSING_ADJUNCT = re.compile(
    r"\s+(?:as|at|in|on|during|when|last|this|(?:most\s+)?recently|earlier|yesterday|today)\b.*$",
    re.I,
)
"""A phrase closing a question after its verb, saying when or in what role ("... last time",
"... as lead"): the verb's object gap is before it."""


class RelationCatalog(BaseModel):
    relations: dict[str, RelationSpec]
    supersede: SupersedeSpec

    def model_post_init(self, __context: object) -> None:
        for name, spec in self.relations.items():
            spec.name = name

    def get(self, rel: str) -> RelationSpec | None:
        return self.relations.get(rel)

    def functional(self, rel: str) -> Functional:
        spec = self.relations.get(rel)
        return spec.functional if spec else "none"

    def functional_relations(self) -> list[str]:
        """Relations with one current value per subject (or per subject and key)."""
        return sorted(n for n, s in self.relations.items() if s.functional in ("subject", "key"))

    def shared_cues(self, wordings: Mapping[str, Sequence[str]]) -> SharedCues:
        """The ask cues each relation's ``wordings`` (relation -> its exemplar wordings) share
        with other relations (``cueshare.shared_uses``). Pure."""
        cues: dict[str, Cue] = {}
        names: dict[str, tuple[str, ...]] = {}
        for name, spec in self.relations.items():
            for cue in spec.ask:
                cues.setdefault(cue.regex, cue)
                names[cue.regex] = (*names.get(cue.regex, ()), name)
        own = {rel: ws for rel, ws in wordings.items() if rel in self.relations}
        out: SharedCues = {}
        for rx, extra in shared_uses(
            ((cues[rx].pattern, n) for rx, n in names.items()), own
        ).items():
            for rel, share in extra:
                out.setdefault(rel, []).append((cues[rx], share))
        return out

    def for_subject(self, kind: str) -> list[RelationSpec]:
        return [s for s in self.relations.values() if s.subject == kind]

    @cached_property
    def measurement_keys(self) -> dict[str, str]:
        """alias_key -> canonical key, over every relation's known keys and synonyms (a
        synonym wins over a key of the same spelling: "K" is written as a key too, and is
        potassium)."""
        out: dict[str, str] = {}
        for spec in self.relations.values():
            for key in spec.keys:
                out.setdefault(alias_key(key), key)
        for spec in self.relations.values():
            for spoken, key in spec.synonyms.items():
                out[alias_key(spoken)] = key
        return out

    def canonical_key(self, key: str) -> str:
        """The one normalized name of a measurement however it was written: a short form or
        synonym ("K", "creat", "Li") read as its name, the words of when it was taken left
        out ("december LVEF", "LVEF baseline"), and a misspelt known name ("potasium") read
        as that name when one letter tells them apart and no other known name is as close.
        Pure."""
        known_as = self._canonical
        if key not in known_as:
            if len(known_as) > 20_000:
                known_as.clear()  # words of questions: kept while they fit
            known_as[key] = self._canonical_of(key)
        return known_as[key]

    @cached_property
    def _canonical(self) -> dict[str, str]:
        return {}

    def _canonical_of(self, key: str) -> str:
        words = [w for w in alias_key(key).split() if w]
        while len(words) > 1 and words[0] in _WHEN_WORDS:
            words = words[1:]
        while len(words) > 1 and words[-1] in _WHEN_WORDS:
            words = words[:-1]
        known = self.measurement_keys
        if len(words) > 1 and words[-1] in LEVEL_WORDS:
            # a drug's level however it is called ("gent trough", "tac levels"); a test of
            # the drug's own name is that test ("lithium level" is the lithium)
            drug = " ".join(words[:-1])
            return alias_key(known[drug]) if drug in known else f"{drug} level"
        said = " ".join(words)
        if said in known:
            return alias_key(known[said])
        for cut in range(1, len(words)):
            # a known name after words that qualify it ("HFrEF EF" is the EF)
            tail = " ".join(words[cut:])
            if tail in known and len(tail) > 1:
                return alias_key(known[tail])
        if len(said) >= 6:
            near = {alias_key(v) for k, v in known.items() if _one_edit(said, k)}
            if len(near) == 1:
                return near.pop()
        return said


def load_catalog(path: Path | None = None) -> RelationCatalog:
    """Load and validate a relation catalogue (the packaged one by default)."""
    return _load(str(path or DEFAULT_PATH))


@lru_cache(maxsize=4)
def _load(path: str) -> RelationCatalog:
    data = safe_load(Path(path).read_text(encoding="utf-8"))
    return RelationCatalog.model_validate(data)


_WHEN_WORDS = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june "
    "july august september october november december monday tuesday wednesday thursday "
    "friday saturday sunday today yesterday tonight morning baseline admission initial "
    "repeat latest recent previous first last am pm".split()
)
"""Words that say when a value was taken, not what was measured."""


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter left out, added or changed. Pure."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :] or (len(a) == len(b) and a[i + 1 :] == b[i + 1 :])
