"""Entity linking: exact alias n-grams, then fuzzy alias match, then embedding similarity.

``Linker.link`` returns mentions (a span of the question and its candidate nodes). A mention
with several candidate nodes is ambiguous; the planner decides whether context resolves it.
Chunks of content words that link to nothing are returned too, so "not in the graph" can be
said plainly instead of guessing.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from engine.config import Settings
from engine.graph.relations import use_of
from engine.graph.store import KGStore
from engine.index.vectors import VectorIndex
from engine.ingest.nearest import BROADER, NARROWER
from engine.providers.embedder.base import Embedder
from engine.understand.bank import is_relation_word
from engine.understand.lexicon import (
    COMPILED_CUES,
    FORM_WORDS,
    KIND_WORDS,
    is_cue_word,
    is_structural,
    verb_like,
)
from engine.understand.mentions import (
    FRAME_PREPOSITIONS,
    INITIALISM,
    TOKEN,
    AliasIndex,
    Candidate,
    LinkResult,
    Mention,
    Token,
    abbreviation_only,
    framed,
    phrase_cue_tokens,
    tokenize,
)
from engine.understand.negation import in_negative_contraction, unmarked_negation
from engine.understand.shortforms import (
    SHORT_FORM,
    ShortForm,
    form_key,
    longest_form,
    short_forms,
)
from engine.understand.spans import Span
from engine.understand.vocabulary import Vocabulary
from engine.util.text import alias_key
from engine.util.wordforms import american

ONE_EDIT_MIN = 7
"""From this many letters a word one edit away from exactly one name is that name misspelt
("ibuprofin"); shorter words are too often other words one letter apart."""
MAX_EMBEDDED_PHRASES = 4
"""Unlinked phrases tried by embedding per question; more means a literature question."""


FAMILY = "family"
"""The source of a gene read from a protein name without its number ("estrogen receptor")."""
MEMBER = re.compile(r"\d+[a-z]?|[a-z]\d*[a-z]?|alpha|beta|gamma|delta|epsilon|[ivx]+")
"""What tells one member of a family of proteins from another in a full name."""
MAX_FAMILY = 8
FAMILY_NOUNS = frozenset(
    "receptor receptors channel channels transporter transporters enzyme kinase kinases".split()
)
"""Head nouns of protein names whose members differ by a number ("dopamine receptor D2")."""
FAMILY_WORDS = 3
"""Words before the head noun a protein name may have ("angiotensin II receptor")."""

SHORTENED = "shortened"
"""The source of a drug name read from its first letters ("amio": amiodarone)."""
MIN_SHORTENED = 4
MAX_SHORTENED_LETTERS = 7
MIN_CUT = 3
"""A drug name is read from its first letters when at least this many of its letters are left
out (a name one or two letters short is a typo, for the fuzzy match)."""
MAX_SHORTENED = 4
"""At most this many drugs may begin with the letters: more tell nothing."""
STEM_CLASS = "stem-class"
"""The source of a drug class named by its members' common name stem ("triptans", "gliptins",
"sartans": the nonproprietary names' stems)."""
ACTING_ON = "acting-on"
"""The source of a drug class named by the gene its drugs act on ("ACE inhibitors")."""
ACTION_NOUNS = frozenset(
    "inhibitors inhibitor blockers blocker antagonists antagonist agonists agonist".split()
)
"""Nouns that make a gene's name the name of the drugs acting on it."""
MIN_STEM_LETTERS = 4
"""Letters a stem needs ("-pril" counts; "-ol" does not)."""
MIN_STEM_DRUGS = 3
"""Drugs whose names end in the stem for it to name a group."""
STEM_CLASS_OVERLAP = 0.5
"""The share of the stem's drugs and a class's members in common (of either's union) for the
stem to name that class."""

NUMBERED_KINDS = frozenset({"Symptom", "Side Effect"})
"""Kinds whose vocabularies name one concept in either number (MeSH plural, MedDRA singular)."""
MAX_PART_PHRASE = 3
"""Words a phrase may have for a part of it to be read as a name on its own: a name and a
word or two of care ("bipolar maintenance"); a longer unlinked phrase is wording."""
MIN_PART = 4
"""Letters a part of a phrase needs to be read as a name on its own (``_named_part``): two
capitals beside everyday words are too often an abbreviation of something else ("IV to PO")."""
MAX_BROADER_WORDS = 2
"""Words a phrase may add to a disease's name and still be read as that disease (``_broader``)."""
NEGATING_WORDS = frozenset({"non", "not", "no", "without", "anti"})
"""Words that make a phrase the opposite of the disease it names."""
NAME_WORDS = 12
"""Words before the last one a name in the other number is looked for among."""
MIN_PLURAL_WORD = 6
"""A one-word name is read from its plural only when the plural is this long ("migraines",
"seizures"): shorter plurals are too often other words ("aids", "ages")."""


def singular(word: str) -> str | None:
    """The singular of a regular English plural ("attacks", "arteries"); None for a word that
    does not read as one ("diabetes" does: a caller keeps the word as written when the
    index holds it)."""
    if not word.isalpha() or len(word) < 4 or not word.endswith("s"):
        return None
    if word.endswith(("ss", "us", "is")):
        return None
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1]


GENE_AFTER = frozenset("gene genes protein mutation mutations variant variants expression".split())
"""Words after a name that say it is a gene's ("brca1 mutations")."""
GENE_RELS = frozenset({"CbG", "GiG"})
MIN_LOWER_SYMBOL = 3


def gene_framed(tokens: Sequence[Token], position: int) -> bool:
    """The word stands where a gene is asked for: after a word that asks what binds or is
    bound ("target", "inhibits", "binds", an article between), or before one that names a
    gene's part ("mutations", "expression")."""
    if len(tokens[position].text) < MIN_LOWER_SYMBOL:
        return False
    after = tokens[position + 1].norm if position + 1 < len(tokens) else ""
    if after in GENE_AFTER:
        return True
    before = position - 1
    if before >= 0 and tokens[before].norm in ARTICLES:
        before -= 1
    if before < 0:
        return False
    word = tokens[before].norm
    return any(rx.fullmatch(word) and GENE_RELS & set(rels) for rx, rels, _ in COMPILED_CUES)


def plural_of(word: str) -> str | None:
    """The regular English plural of a word that does not end in "s" ("inhibitor",
    "artery"); None for one that does, or no word of letters."""
    if not word.isalpha() or len(word) < 4 or word.endswith("s"):
        return None
    if word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _adjacent(text: str, end: int, start: int) -> bool:
    """Only spaces or a hyphen between two spans: they may be one name (no comma, colon...)."""
    return all(c.isspace() or c == "-" for c in text[end:start])


AUXILIARIES = frozenset("do does did can could may might will would should".split())


def predicate_after_subject(tokens: list[Token], mentions: list[Mention], a: int) -> bool:
    """The chunk starting at token ``a`` is the verb of an inverted question whose subject is
    the mention just before it ("What does everolimus *inhibit*?", "Which receptors does
    clozapine *antagonize*?"): it says what is asked, it is not part of the name."""
    before = next((m for m in mentions if m.last_token == a - 1), None)
    if before is None:
        return False
    return any(t.norm in AUXILIARIES for t in tokens[: before.first_token])


_INTERROGATIVES = frozenset({"which", "what"})


def predicate_after_wh_subject(
    tokens: list[Token], a: int, noun: Callable[[str], bool] | None = None
) -> bool:
    """The chunk starting at token ``a`` stands where the verb of a clause whose subject is
    a kind noun (or a word ``noun`` accepts: "Which *enzymes* fall in X?") stands: a
    question's interrogative phrase ("Which medicines *trigger* hiccups?", "What drugs
    can *trigger* X?") or a relative clause on the kind noun ("medicines that *trigger* X"),
    at most auxiliaries between; or it is the participle of a kind noun ("drug-*induced*
    X"). A word there that inflects as a verb says what is asked, not part of the name after
    it."""
    if tokens[a].joined:
        return a >= 1 and tokens[a - 1].norm in KIND_WORDS
    i = a - 1
    while i >= 0 and tokens[i].norm in AUXILIARIES:
        i -= 1
    if i >= 1 and tokens[i].norm in {"that", "which", "who"}:
        i -= 1
    elif i < 1 or tokens[i - 1].norm not in _INTERROGATIVES:
        return False
    return i >= 0 and (tokens[i].norm in KIND_WORDS or (noun is not None and noun(tokens[i].norm)))


CONCEPT_GROUPS = (("Disease", "Symptom", "Side Effect"), ("Compound", "Pharmacologic Class"))


def same_concept_kinds(kind: str) -> tuple[str, ...]:
    """Kinds that name the same concept in different vocabularies (a disease and the side
    effect of the same name)."""
    return next((g for g in CONCEPT_GROUPS if kind in g), (kind,))


def everyday_brand(c: Candidate, tok: Token) -> bool:
    """A drug's other name written in lower case as an everyday word ("soothe", "comfort",
    brands of DrugBank) is the word, not the drug; the caller checks the word is everyday."""
    return not c.primary and tok.text.islower() and c.node_id.startswith("Compound::")


def _content(text: str) -> list[str]:
    return [
        t
        for t in (alias_key(w) for w in TOKEN.findall(text))
        if len(t) >= 3 and not is_structural(t)
    ]


QUALIFIED_KINDS = frozenset({"Disease", "Compound"})
"""Kinds of node whose names carry a word clinicians leave out (``_completes``): a disease's
Latin qualifier ("mellitus"), a drug's ester or salt ("dabigatran etexilate")."""
MAX_QUALIFIER_WORDS = 1
"""Words of a qualifier left out of a name (``Linker._completes``)."""


def _listed_with_disease(tokens: Sequence[Token], m: Mention, mentions: list[Mention]) -> bool:
    """``m`` is listed beside a disease's name ("genes shared by crohns and UC", "UC or
    Crohn's"): only listing words (``SETTING``) between them, at most ``SET_GAP``."""
    for o in mentions:
        if o is m or not _names_disease(o) or abbreviation_only(o):
            continue
        lo, hi = (
            (o.last_token, m.first_token)
            if o.last_token < m.first_token
            else (
                m.last_token,
                o.first_token,
            )
        )
        between = tokens[lo + 1 : hi]
        if 0 < len(between) <= SET_GAP and all(t.norm in SETTING for t in between):
            return True
    return False


def _adjacent_tokens(tokens: Sequence[Token], a: int, b: int) -> bool:
    """Token ``b`` follows token ``a`` with spaces only between ("ACE inhibitors")."""
    return b == a + 1 and not tokens[b].initial


def fills(mention: str, name: str) -> bool:
    """The mention says most of the name: each content word of the name has a counterpart in
    the mention, but for one when the mention has two or more ("shift" is not "Shift to the
    left"; "pulmonary fibrosis" may be "idiopathic pulmonary fibrosis")."""
    said = _content(mention)
    missing = sum(not covers(n, mention) for n in _content(name))
    return missing == 0 or (missing == 1 and len(said) >= 2)


def covers(mention: str, name: str) -> bool:
    """Every content word of the mention has a counterpart in the name.

    An embedding match alone would link "idiopathic hypersomnia" to "Hypersomnia" or
    "lorlatinib" to "Lapatinib"; this lexical check keeps such near misses out.
    """
    name_tokens = [alias_key(t) for t in TOKEN.findall(name)]
    for tok in (alias_key(t) for t in TOKEN.findall(mention)):
        if len(tok) < 3 or is_structural(tok):
            continue
        if not any(
            (len(tok) >= 4 and len(n) >= 4 and (tok in n or n in tok)) or fuzz.ratio(tok, n) >= 80
            for n in name_tokens
        ):
            return False
    return True


def says_relation(m: Mention, relation_words: frozenset[str]) -> bool:
    """The mention is written only with words that say what is asked ("an *adverse
    reaction* to", "the *nuclear receptors* it binds"), not as a symbol."""
    words = [t for t in TOKEN.findall(m.text) if not is_structural(alias_key(t))]
    return bool(words) and all(
        not t.isupper() and is_relation_word(t.lower(), relation_words) for t in words
    )


def relation_wording(
    mentions: list[Mention], relation_words: frozenset[str], tokens: list[Token]
) -> list[Mention]:
    """``mentions`` without those written only in relation words that say what is asked
    about the others: with two other things named, the relation between them ("Is
    Glossodynia an *adverse reaction* to Ezetimibe?": a claim about two nodes, not about the
    side effect 'Adverse reaction'); with one, the things asked for after an interrogative
    ("Which *signaling pathways* involve ASB2?", "Which *nuclear receptors* does clozapine
    bind?": not the pathways of those names)."""

    def asked_for(m: Mention) -> bool:
        i = m.first_token - 1  # back over more such words ("which metabolic or signaling ...")
        while (
            i >= 0
            and tokens[i].norm not in _INTERROGATIVES  # the bank's wordings use them too
            and (
                tokens[i].norm in {"or", "and"} or is_relation_word(tokens[i].norm, relation_words)
            )
        ):
            i -= 1
        return i >= 0 and tokens[i].norm in _INTERROGATIVES

    wording = [m for m in mentions if says_relation(m, relation_words)]
    others = len(mentions) - len(wording)
    drop = [m for m in wording if others >= 2 or (others == 1 and asked_for(m))]
    return [m for m in mentions if m not in drop]


_EXAMPLES = re.compile(
    r"(?:^|[,(\u2014\u2013:]\s*)(?P<aside>(?:like|such as|e\.\s?g\.?|for example|for instance"
    r"|including)\s[^,;:()?!\u2014\u2013]+)",
    re.IGNORECASE,
)
"""An aside that gives examples ("processes, like signaling or metabolism, ..."), up to the
next comma or the end of the clause."""


def example_asides(text: str) -> list[tuple[int, int]]:
    """Character ranges of the asides of ``text`` that give examples, opening word included."""
    return [(m.start("aside"), m.end("aside")) for m in _EXAMPLES.finditer(text)]


def examples(text: str, tokens: list[Token], mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without those inside an aside that gives examples of what is asked
    ("Which processes, like signaling or metabolism, does BAG4 take part in?": not the
    pathway Metabolism), when a mention outside the aside is left to ask about. A yes/no
    question may ask about its example ("Do statins, like atorvastatin, cause myalgia?"):
    callers apply this to questions that ask for things."""
    spans = example_asides(text)
    inside = [m for m in mentions if any(a <= m.start and m.end <= b for a, b in spans)]
    if not inside or len(inside) == len(mentions):
        return mentions
    return [m for m in mentions if m not in inside]


ARTICLES = frozenset({"a", "an", "the"})
"""Lower-case articles: a gene alias that opens with one ("a beta" of SUCLA2) is a phrase."""


LISTING = frozenset({"and", "or", "vs", "versus", ",", "&", "/"})
"""Words that list names side by side ("lupus and ra", "ms vs als")."""
SETTING = LISTING | {"but", "not", "in", "for", "than", "other", "without", "also"}
"""Words that set one name beside or against another ("ms but not in ra", "ms and also ra")."""
SET_GAP = 3
"""At most this many such words between the two names."""


def _names_disease(m: Mention) -> bool:
    return any(c.node_id.startswith("Disease::") for c in m.candidates)


SALT = re.compile(r"([a-z]{4,})ate")
"""A drug named as its salt or ester ("valproate", "clavulanate"), which the graph may hold as
the acid ("valproic acid")."""


def salt_acid(word: str) -> str | None:
    """The acid a salt's name stands for ("valproate" -> "valproic acid"), else None."""
    m = SALT.fullmatch(word)
    return f"{m.group(1)}ic acid" if m else None


def _symbol(c: Candidate) -> bool:
    """A gene's own symbol ("SCD"), which a short form of the same letters does not
    outrank; a synonym or a disease's initials it does."""
    return c.primary and c.node_id.startswith("Gene::")


def _short(c: Candidate) -> Candidate:
    """A candidate read through a short form (a nearest-disease reading keeps its source, which
    the answer states)."""
    if c.source in (BROADER, NARROWER):
        return c
    return Candidate(c.node_id, c.alias, SHORT_FORM, c.primary)


class Linker:
    def __init__(
        self,
        store: KGStore,
        aliases: AliasIndex,
        settings: Settings,
        *,
        names: VectorIndex | None = None,
        embedder: Embedder | None = None,
        relation_words: frozenset[str] = frozenset(),
        vocabulary: Vocabulary | None = None,
    ) -> None:
        """``settings`` gives the acceptance thresholds (``fuzzy_accept``, ``embed_accept``,
        ``embed_reject``)."""
        self.store = store
        self.aliases = aliases
        self.names = names
        self.embedder = embedder
        self.fuzzy_accept = settings.fuzzy_accept
        self.embed_accept = settings.embed_accept
        self.embed_reject = settings.embed_reject
        self.relation_words = relation_words
        """Words that say what is asked (the exemplar bank's and the data's relation words):
        never part of a name."""
        self.vocabulary = vocabulary
        self._drugs: list[tuple[str, str]] | None = None
        """Tells wording from names among unlinked words (None: any word may be a name)."""

    # --- exact ---------------------------------------------------------------------------
    def _exact(
        self, tokens: list[Token]
    ) -> tuple[list[Mention], list[tuple[int, list[Candidate]]]]:
        """The exact mentions, and the one-word spans whose only readings were a disease's
        initials that the word as written does not allow on its own."""
        found: list[Mention] = []
        initials: list[tuple[int, list[Candidate]]] = []
        for span in self._spans(tokens):
            i, j = span.first, span.last
            if all(is_structural(t.norm) for t in tokens[i : j + 1]):
                continue
            cands = self.aliases.get(span.key)
            if i == j:
                every = cands
                cands = self._plausible(cands, tokens, i)
                if not cands and any(c.source == INITIALISM for c in every):
                    initials.append((i, every))
            elif tokens[i].text in ARTICLES:
                # "a beta blocker": the article of an English phrase, not the "A" of a symbol
                cands = [c for c in cands if not c.node_id.startswith("Gene::")]
            if not cands:
                continue
            found.append(
                Mention(self._text(tokens, i, j), tokens[i].start, tokens[j].end, i, j, cands)
            )
        found += self._hyphenated(tokens, found)
        return self._short_forms(tokens, found), initials

    def _spans(self, tokens: list[Token]) -> list[Span]:
        """The alias index's spans of ``tokens``, and those of a name whose last word is typed
        in the other number, when no span as written ends there: singular where the index
        holds the singular ("heart attacks", "myocardial infarctions", a one-word
        "migraines"), plural where it holds only the plural, for two words or more
        ("cholinesterase inhibitor")."""
        norms = [t.norm for t in tokens]
        spans = self.aliases.matcher.spans(norms)
        ended = {s.last for s in spans}
        for j, norm in enumerate(norms):
            if j in ended:
                continue
            one = singular(norm)
            for other in (one, plural_of(norm)):
                if other is None:
                    continue
                alone = other == one and len(norm) >= MIN_PLURAL_WORD
                lo = max(0, j - NAME_WORDS)
                for span in self.aliases.matcher.spans([*norms[lo:j], other]):
                    first, last = span.first + lo, span.last + lo
                    if last == j and (first < j or alone):
                        spans.append(Span(first, last, span.key))
        return spans

    def _short_forms(self, tokens: list[Token], found: list[Mention]) -> list[Mention]:
        """``found`` with the spans that ``shortforms.tsv`` reads as names the alias index
        knows: "GERD", "type 1 diabetes", "weight gain", and a word completed by the short
        form after it ("breast ca"). A span the index also holds is read as the short form says,
        or as a gene whose own symbol it is ("SCD"): a gene's synonym ("AF" for PSMD4) or a
        disease's initials guessed from its letters are not what a clinician means by it."""
        forms = short_forms()
        at = {(m.first_token, m.last_token): m for m in found}
        read: dict[tuple[int, int], list[Candidate]] = {}
        for i in range(len(tokens)):
            for j in range(i, min(len(tokens), i + longest_form())):
                words = tokens[i : j + 1]
                if all(is_structural(t.norm) for t in words):
                    continue
                for form in forms.get(form_key(" ".join(t.text for t in words)), ()):
                    if form.how == "after":
                        self._completed(tokens, i, form.expansions, read)
                    elif form.reads([t.text for t in words]) or self._lower_case_form(
                        form, tokens, i, j
                    ):
                        # the first name the index knows: the others are its spellings
                        # or lesser readings ("hepatotoxicity|liver injury")
                        known = next(filter(None, map(self.aliases.get, form.expansions)), [])
                        read.setdefault((i, j), []).extend(map(_short, known))
        for i, tok in enumerate(tokens):
            if (i, i) not in at and (acid := salt_acid(tok.norm)) is not None:
                read.setdefault((i, i), []).extend(map(_short, self.aliases.get(acid)))
        out = list(found)
        for (i, j), cands in read.items():
            if not cands:
                continue
            kept: dict[str, Candidate] = {}
            for c in cands:
                kept.setdefault(c.node_id, c)
            own = at.get((i, j))
            if own is not None:
                # a reading the index holds under these words keeps its own source
                out.remove(own)
                kept.update(
                    (c.node_id, c) for c in own.candidates if c.node_id in kept or _symbol(c)
                )
            out.append(
                Mention(
                    self._text(tokens, i, j), tokens[i].start, tokens[j].end, i, j, [*kept.values()]
                )
            )
        return out

    def _lower_case_form(self, form: ShortForm, tokens: list[Token], i: int, j: int) -> bool:
        """A short form the file reads only in capitals ("TB", "HF") typed as one word in
        lower case where a name is asked for ("tb drugs", "meds for hf"), when it is no
        function word ("us", "it"): read as in capitals."""
        word = tokens[i].text
        return (
            form.how == "case"
            and i == j
            and word.islower()
            and not is_structural(tokens[i].norm)
            and framed(tokens, i)
        )

    def _completed(
        self,
        tokens: list[Token],
        at: int,
        expansions: tuple[str, ...],
        read: dict[tuple[int, int], list[Candidate]],
    ) -> None:
        """The longest run of words before ``at`` that a short form completes into a known
        name ("breast ca" -> breast cancer), noted in ``read``."""
        for k in range(max(0, at - 3), at):
            head = form_key(" ".join(t.text for t in tokens[k:at]))
            for name in expansions:
                cands = self.aliases.get(f"{head} {name}")
                if cands:
                    read.setdefault((k, at), []).extend(map(_short, cands))
                    return

    def _listed_initials(
        self,
        tokens: list[Token],
        initials: list[tuple[int, list[Candidate]]],
        found: list[Mention],
    ) -> list[Mention]:
        """Two lower-case letters listed beside a disease's name are that disease's kin's
        initials ("genes shared by lupus and ra", "ms or als"), as where a name is asked
        for; elsewhere two letters are too often a word to be read so."""
        ends = {m.last_token for m in found if _names_disease(m)}
        starts = {m.first_token for m in found if _names_disease(m)}
        classes = {
            m.last_token
            for m in found
            if any(c.node_id.startswith("Pharmacologic Class::") for c in m.candidates)
        }
        out = []
        for i, cands in initials:
            if i >= 2 and tokens[i - 1].norm in FRAME_PREPOSITIONS and i - 2 in classes:
                # a class of drugs asked for a disease ("anticoagulant for af"), as "drugs for
                # af" is
                kept = [
                    c
                    for c in self.aliases.plausible(cands, tokens[i], i, framed=True)
                    if c.source == INITIALISM
                ]
                if kept:
                    out.append(Mention(tokens[i].text, tokens[i].start, tokens[i].end, i, i, kept))
                continue
            before = any(
                i - k - 1 in ends and all(t.norm in SETTING for t in tokens[i - k : i])
                for k in range(1, SET_GAP + 1)
                if i - k - 1 >= 0
            )
            after = any(
                i + k + 1 in starts and all(t.norm in SETTING for t in tokens[i + 1 : i + k + 1])
                for k in range(1, SET_GAP + 1)
                if i + k + 1 < len(tokens)
            )
            if not (before or after):
                continue
            kept = [
                c
                for c in self.aliases.plausible(cands, tokens[i], i, framed=True)
                if c.source == INITIALISM
            ]
            if kept:
                out.append(Mention(tokens[i].text, tokens[i].start, tokens[i].end, i, i, kept))
        return out

    def _hyphenated(self, tokens: list[Token], found: list[Mention]) -> list[Mention]:
        """Symbols typed with a hyphen between their letters and their number ("COX-1",
        "IL-6") where the data writes them solid ("COX1", "IL6")."""
        spans = {(m.first_token, m.last_token) for m in found}
        out = []
        for i in range(len(tokens) - 1):
            a, b = tokens[i], tokens[i + 1]
            if not (b.joined and a.norm.isalpha() and b.norm[:1].isdigit()) or (i, i + 1) in spans:
                continue
            cands = self.aliases.get(a.norm + b.norm)
            if cands:
                out.append(Mention(self._text(tokens, i, i + 1), a.start, b.end, i, i + 1, cands))
        return out

    def _plausible(
        self, cands: list[Candidate], tokens: list[Token], position: int
    ) -> list[Candidate]:
        """Candidates for a one-word mention as it is written (``AliasIndex.plausible``),
        without the brands it only spells as an everyday word; none for an everyday word in
        lower case where the verb of a kind noun's clause stands ("medicines that *fall* into
        X": not the side effect Fall)."""
        tok = tokens[position]
        every = cands
        cands = self.aliases.plausible(cands, tok, position, framed(tokens, position))
        if tok.text.islower() and gene_framed(tokens, position):
            # "drugs that target egfr", "brca1 mutations": a gene's own symbol typed in lower
            # case where a gene is asked for
            cands += [
                c for c in every if c.node_id.startswith("Gene::") and c.primary and c not in cands
            ]
        if any(c.primary for c in cands):
            # a word that is one node's own name is not a drug's other name ("acne")
            cands = [c for c in cands if c.primary or not everyday_brand(c, tok)]
        if self.vocabulary is None or not self.vocabulary.language.whole_word(tok.text):
            return cands
        if (
            tok.text.islower()
            and predicate_after_wh_subject(tokens, position, self.vocabulary.language.plural_noun)
            and self.vocabulary.language.inflects_as_verb(tok.norm)
        ):
            return []
        return [
            c
            for c in cands
            if not everyday_brand(c, tok) or (tok.norm, c.node_id) in self.aliases.meant
        ]

    @staticmethod
    def _text(tokens: list[Token], i: int, j: int) -> str:
        return " ".join(t.text for t in tokens[i : j + 1])

    @staticmethod
    def _resolve(mentions: list[Mention]) -> list[Mention]:
        chosen: list[Mention] = []
        used: set[int] = set()
        for m in sorted(mentions, key=lambda m: (-(m.last_token - m.first_token), m.first_token)):
            span = set(range(m.first_token, m.last_token + 1))
            if span & used:
                continue
            chosen.append(m)
            used |= span
        return sorted(chosen, key=lambda m: m.first_token)

    # --- residual chunks -----------------------------------------------------------------
    def _name_like(self, tokens: list[Token], a: int, b: int, kinds: Iterable[str] = ()) -> bool:
        """Some word of tokens a..b could belong to a name (next to a mention of ``kinds``);
        without a vocabulary every chunk could."""
        if self.vocabulary is None:
            return True
        kinds = tuple(kinds)
        return any(
            self.vocabulary.name_like(tokens[i].text, tokens[i].norm, i, kinds)
            for i in range(a, b + 1)
            if not is_structural(tokens[i].norm)
        )

    def _name_word(self, tokens: list[Token], a: int, b: int, m: Mention) -> bool:
        """Some word of tokens a..b is written like a name or is a word of the names of
        ``m``'s kinds. Without that evidence an unknown word next to a mention ("pls",
        "AEs") is not read as part of a longer name the graph lacks: when the longer phrase
        links to nothing, the mention stands."""
        if self.vocabulary is None:
            return True
        kinds = {self.store.kind(n) for n in m.node_ids}
        return any(
            self.vocabulary.name_word(tokens[i].text, tokens[i].norm, i, kinds)
            for i in range(a, b + 1)
            if not is_structural(tokens[i].norm)
        )

    def _chunks(self, tokens: list[Token], mentions: list[Mention]) -> list[tuple[int, int]]:
        covered = {i for m in mentions for i in range(m.first_token, m.last_token + 1)}
        covered |= phrase_cue_tokens(tokens)
        chunks: list[tuple[int, int]] = []
        start: int | None = None
        for i, t in enumerate(tokens):
            content = (
                i not in covered
                and not is_structural(t.norm)
                and not (is_cue_word(t.norm) and not t.joined)
                and not (is_relation_word(t.norm, self.relation_words) and not t.joined)
                and not (verb_like(t.norm) and not t.joined)
                and not (i == 0 and t.norm in {"does", "is", "can", "are", "do"})
                and not in_negative_contraction(tokens, i)
                and not unmarked_negation(t.norm)
            )
            if content and start is None:
                start = i
            if not content and start is not None:
                chunks.append((start, i - 1))
                start = None
        if start is not None:
            chunks.append((start, len(tokens) - 1))
        return chunks

    def _fuzzy(self, key: str) -> list[tuple[str, float]]:
        if len(key) < 4 or len(key) > 60:
            return []
        if (
            self.vocabulary is not None
            and self.vocabulary.language.whole_word(key)
            and american(key) == key
        ):
            # a word of everyday language spelled right is no misspelt name ("worth" is not
            # Worth syndrome)
            return []
        near = self.aliases.near_length(len(key))
        hits = process.extract(
            key, near, scorer=fuzz.ratio, score_cutoff=self.fuzzy_accept, limit=3
        )
        if (
            not hits
            and len(key) >= ONE_EDIT_MIN
            and key.isalpha()
            and key not in self.aliases.common
            and not (self.vocabulary and self.vocabulary.language.whole_word(key))
        ):
            # one letter wrong, missing or extra in a long word that is no word of the corpus or
            # of everyday language ("ibuprofin") scores below the ratio floor; it is that name
            # when only one name is so close, or when every name so close is a name of one
            # node ("ibuprofen" and the brand "ibuprocin")
            close = process.extract(key, near, scorer=Levenshtein.distance, score_cutoff=1, limit=4)
            nodes = {c.node_id for k, _, _ in close for c in self.aliases.get(str(k))}
            if len(close) == 1 or (close and len(nodes) == 1):
                # the node's own name before its other names
                best = min(
                    close,
                    key=lambda c: (
                        c[1],
                        not any(x.primary for x in self.aliases.get(str(c[0]))),
                        -fuzz.ratio(key, c[0]),
                        str(c[0]),
                    ),
                )
                return [(str(best[0]), fuzz.ratio(key, best[0]))]
        return [(str(k), float(s)) for k, s, _ in hits]

    def embedded_names(self, text: str) -> list[tuple[str, float]]:
        """The nodes whose names embed closest to ``text`` and at least ``embed_accept``
        close, best first (none without a name index)."""
        return [(n, s) for n, s in self._embeddings([text])[0] if s >= self.embed_accept]

    def _embeddings(self, texts: list[str]) -> list[list[tuple[str, float]]]:
        """Top name matches for several phrases, embedded in one batch."""
        if self.names is None or self.embedder is None or not texts:
            return [[] for _ in texts]
        hits = self.names.search(self.embedder.encode(texts), 5)
        return [[(nid, s) for nid, s in row if s >= self.embed_reject] for row in hits]

    def _completes(self, phrase: str, node_id: str) -> bool:
        """The phrase is a disease's name without its Latin qualifier, as clinicians say it
        ("diabetes": diabetes mellitus; "myasthenia": myasthenia gravis): the name begins with
        the phrase and its other words are no words of everyday language."""
        if self.vocabulary is None or self.store.kind(node_id) not in QUALIFIED_KINDS:
            return False
        said = alias_key(phrase).split()
        name = alias_key(self.store.name(node_id)).split()
        rest = name[len(said) :]
        if self.store.kind(node_id) == "Compound" and len(self._drugs_named(" ".join(said))) > 1:
            # "insulin": a dozen insulins, none of them meant more than another
            return False
        return (
            name[: len(said)] == said
            and 0 < len(rest) <= MAX_QUALIFIER_WORDS
            and not any(self.vocabulary.language.whole_word(w) for w in rest)
        )

    def _drug_names(self) -> list[tuple[str, str]]:
        """(name key, node) of every drug, sorted by name, made once."""
        if self._drugs is None:
            self._drugs = sorted(
                (alias_key(name), nid) for nid, name in self.store.names_of_kind("Compound")
            )
        return self._drugs

    def _drugs_named(self, key: str) -> list[str]:
        """The drugs whose names begin with the words ``key``."""
        drugs = self._drug_names()
        at = bisect_left(drugs, (key + " ", ""))
        out = []
        while at < len(drugs) and drugs[at][0].startswith(key + " "):
            out.append(drugs[at][1])
            at += 1
        return out

    def _broader(
        self, tokens: list[Token], lo: int, hi: int, touching: list[Mention]
    ) -> Mention | None:
        """A longer phrase the graph has no name for around a disease's name, read as that
        disease, the nearest broader one the graph holds ("familial als": amyotrophic lateral
        sclerosis; "retinoblastoma tumour"), said so in the answer; None when no disease's
        name is part of it, when more than ``MAX_BROADER_WORDS`` words are added, when a
        word added negates ("non-familial") or is a word nothing knows ("Zorblaxian")."""
        diseases = [
            m
            for m in touching
            if any(self.store.kind(c.node_id) == "Disease" for c in m.candidates)
        ]
        if len(diseases) != 1:
            return None
        m = diseases[0]
        added = [
            t
            for k, t in enumerate(tokens[lo : hi + 1], lo)
            if not m.first_token <= k <= m.last_token
        ]
        if len(added) > MAX_BROADER_WORDS or any(t.norm in NEGATING_WORDS for t in added):
            return None
        if self.vocabulary is not None and not all(self._known(t.norm) for t in added):
            # a word no name and no language knows ("Zorblaxian psoriasis") may name a
            # disease the graph lacks: that is said, not read as the broader one
            return None
        cands = [
            Candidate(c.node_id, c.alias, BROADER, False)
            for c in m.candidates
            if self.store.kind(c.node_id) == "Disease"
        ]
        text = self._text(tokens, lo, hi)
        return Mention(text, tokens[lo].start, tokens[hi].end, lo, hi, cands, "broader", m.score)

    def _known(self, word: str) -> bool:
        """A word of disease names or of the language (corpus and everyday words)."""
        assert self.vocabulary is not None
        return word in self.vocabulary.names.get("Disease", ()) or self.vocabulary.language.knows(
            word
        )

    def _named_part(self, tokens: list[Token], lo: int, hi: int) -> Mention | None:
        """The longest part of an unlinked phrase that is a disease's or a drug's name on its
        own when every other word of the phrase is a word of everyday language ("bipolar
        maintenance": bipolar disorder, said with the care it asks about); None when no part
        is, or another word could be part of a name ("lupus nephritis" is no lupus). A part
        read only as a misspelling ("neuro") or shorter than ``MIN_PART`` is none."""
        if self.vocabulary is None or hi <= lo or hi - lo >= MAX_PART_PHRASE:
            return None
        language = self.vocabulary.language
        for width in range(hi - lo, 0, -1):
            for i in range(lo, hi - width + 2):
                j = i + width - 1
                rest = [t for k, t in enumerate(tokens[lo : hi + 1], lo) if not i <= k <= j]
                if not all(is_structural(t.norm) or language.whole_word(t.norm) for t in rest):
                    continue
                part = self._text(tokens, i, j)
                found = self.link(part, whole_names=True)
                if len(found.mentions) != 1 or found.unlinked:
                    continue
                m = found.mentions[0]
                if (
                    (m.first_token, m.last_token) != (0, len(found.tokens) - 1)
                    or m.method == "fuzzy"
                    or len(part) < MIN_PART
                    or not any(self.store.kind(c.node_id) in QUALIFIED_KINDS for c in m.candidates)
                ):
                    continue
                return Mention(
                    m.text, tokens[i].start, tokens[j].end, i, j, m.candidates, m.method, m.score
                )
        return None

    def _fuzzy_mention(self, phrase: str, a: int, b: int, tokens: list[Token]) -> Mention | None:
        key = alias_key(phrase)
        fz = self._fuzzy(key) if any(c.isalpha() for c in key) else []
        if not fz:
            if a != b:
                return None
            return self._shortened(phrase, a, b, tokens) or self._stem_class(phrase, a, b, tokens)
        best = fz[0][1]
        cands = [c for k, s in fz if s >= best - 1e-6 for c in self.aliases.get(k)]
        if a == b:
            cands = self._plausible(cands, tokens, a)
        if not cands:
            return None
        return Mention(phrase, tokens[a].start, tokens[b].end, a, b, cands, "fuzzy", best / 100.0)

    def _families(self, tokens: list[Token], mentions: list[Mention]) -> list[Mention]:
        """``mentions`` with each protein name said without its number read as its family
        (``_family``): "the dopamine receptor" is the dopamine receptor genes, not dopamine."""
        for k, tok in enumerate(tokens):
            if tok.norm not in FAMILY_NOUNS:
                continue
            for a in range(max(0, k - FAMILY_WORDS), k):
                if is_structural(tokens[a].norm):
                    continue
                fam = self._family(self._text(tokens, a, k), a, k, tokens)
                if fam is not None:
                    kept = [m for m in mentions if m.last_token < a or m.first_token > k]
                    mentions = sorted([*kept, fam], key=lambda m: m.first_token)
                    break
        return mentions

    def _family(self, phrase: str, a: int, b: int, tokens: list[Token]) -> Mention | None:
        """Genes a protein name without its number stands for ("the estrogen receptor":
        estrogen receptor 1 and 2; "dopamine receptor": D1 to D5): the genes whose full name
        is the phrase and a member's number or letter, at most ``MAX_FAMILY`` of them."""
        key = alias_key(phrase)
        if key.endswith("s"):
            key = key[:-1]  # "dopamine receptors"
        if " " not in key or not key.replace(" ", "").isalpha():
            return None
        rows = self.store.con.execute(
            "SELECT DISTINCT key, node_id FROM aliases WHERE starts_with(key, ?) "
            "AND starts_with(node_id, 'Gene::')",
            [key + " "],
        ).fetchall()
        members: dict[str, str] = {}
        for k, nid in rows:
            first = str(k)[len(key) + 1 :].split(" ", 1)[0]
            if MEMBER.fullmatch(first) and nid in self.store.index:
                members.setdefault(str(nid), str(k))
        if not members or len(members) > MAX_FAMILY:
            return None
        cands = [Candidate(nid, alias, FAMILY, False) for nid, alias in sorted(members.items())]
        return Mention(phrase, tokens[a].start, tokens[b].end, a, b, cands, "fuzzy", 0.9)

    def _stem_class(self, phrase: str, a: int, b: int, tokens: list[Token]) -> Mention | None:
        """A plural that is the name stem of several drugs names the class they make up
        ("triptans": the drugs named "-triptan"; "gliptins", "sartans"): the pharmacologic
        class whose members are mostly those drugs and those drugs mostly its members."""
        stem = singular(alias_key(phrase))
        if (
            stem is None
            or len(stem) < MIN_STEM_LETTERS
            or (self.vocabulary is not None and self.vocabulary.language.whole_word(stem))
        ):
            return None
        drugs = {
            nid
            for name, nid in self._drug_names()
            if name.endswith(stem) and " " not in name and name != stem
        }
        if len(drugs) < MIN_STEM_DRUGS:
            return None
        pc = self._class_of_members(drugs)
        if pc is None:
            return None
        cand = Candidate(pc, self.store.name(pc), STEM_CLASS, False)
        return Mention(phrase, tokens[a].start, tokens[b].end, a, b, [cand], "fuzzy", 0.9)

    def _class_of_members(self, drugs: set[str]) -> str | None:
        """The pharmacologic class whose members are mostly ``drugs`` and ``drugs`` mostly its
        members (``STEM_CLASS_OVERLAP``), the closest; None when none is."""
        in_class = use_of("PCiC^-1")
        classes = {
            self.store.ids[c]
            for d in drugs
            for c in self.store.neighbors(self.store.index[d], in_class).tolist()
        }
        best: tuple[float, str] | None = None
        for pc in classes:
            members = set(self.store.objects(pc, "PCiC"))
            overlap = len(members & drugs) / len(members | drugs)
            if overlap >= STEM_CLASS_OVERLAP and (best is None or (overlap, pc) > best):
                best = (overlap, pc)
        return best[1] if best else None

    def _acting_on(self, tokens: list[Token], mentions: list[Mention]) -> list[Mention]:
        """``mentions`` with a gene named before an action noun read as the class of the drugs
        acting on it ("ACE inhibitors", "SGLT2 inhibitors", "TNF blockers": the class whose
        members are the drugs that bind the gene), when such a class is in the data."""
        out: list[Mention] = []
        binds = use_of("CbG^-1")
        for m in mentions:
            after = m.last_token + 1
            genes = [c.node_id for c in m.candidates if c.node_id.startswith("Gene::")]
            if (
                len(genes) != 1
                or after >= len(tokens)
                or tokens[after].norm not in ACTION_NOUNS
                or not _adjacent_tokens(tokens, m.last_token, after)
            ):
                out.append(m)
                continue
            drugs = {
                self.store.ids[d]
                for d in self.store.neighbors(self.store.index[genes[0]], binds).tolist()
            }
            pc = self._class_of_members(drugs) if len(drugs) >= MIN_STEM_DRUGS else None
            if pc is None:
                out.append(m)
                continue
            cand = Candidate(pc, self.store.name(pc), ACTING_ON, False)
            out.append(
                Mention(
                    self._text(tokens, m.first_token, after),
                    m.start,
                    tokens[after].end,
                    m.first_token,
                    after,
                    [cand],
                    "fuzzy",
                    0.9,
                )
            )
        return out

    def _shortened(self, phrase: str, a: int, b: int, tokens: list[Token]) -> Mention | None:
        """A drug name cut short as clinicians type it ("amio", "vanc", "cipro"): a word that
        is no word of the corpus or of everyday language and begins the name of at most
        ``MAX_SHORTENED`` drugs (several are asked back about)."""
        key = alias_key(phrase)
        if (
            not MIN_SHORTENED <= len(key) <= MAX_SHORTENED_LETTERS
            or not key.isalpha()
            or key in self.aliases.common
            or (self.vocabulary is not None and self.vocabulary.language.whole_word(key))
        ):
            return None
        drugs = self._drug_names()
        at = bisect_left(drugs, (key, ""))
        found: dict[str, str] = {}
        while at < len(drugs) and drugs[at][0].startswith(key):
            name, nid = drugs[at]
            if len(name) >= len(key) + MIN_CUT and " " not in name[: len(key) + 1]:
                found.setdefault(nid, self.store.name(nid))
            at += 1
        if not found or len(found) > MAX_SHORTENED:
            return None
        cands = [Candidate(nid, name, SHORTENED, True) for nid, name in found.items()]
        return Mention(phrase, tokens[a].start, tokens[b].end, a, b, cands, "fuzzy", 0.9)

    def link(self, text: str, *, fallback: bool = True, whole_names: bool = False) -> LinkResult:
        """Link mentions in ``text``.

        With ``whole_names`` (used for questions), a content chunk that touches an exact mention
        ("idiopathic" + "hypersomnia") is read as one longer name: it is linked as a whole by
        fuzzy/embedding match, or reported unlinked with the partial mention dropped, rather
        than answering about the shorter name. Statements keep every exact mention.
        """
        tokens = tokenize(text)
        exact, initials = self._exact(tokens)
        mentions = self._resolve(exact)
        if any(not abbreviation_only(m) for m in mentions):
            # short letters beside another name are an abbreviation of the field ("GO terms"),
            # unless they are a disease's short name where a name is asked for ("does
            # imatinib treat CML")
            mentions = [
                m
                for m in mentions
                if not abbreviation_only(m)
                or (
                    any(c.node_id.startswith("Disease::") for c in m.candidates)
                    and (framed(tokens, m.first_token) or _listed_with_disease(tokens, m, mentions))
                )
            ]
        unlinked: list[str] = []
        pending: list[tuple[str, int, int, bool, list[Mention]]] = []
        for a, b in self._chunks(tokens, mentions):
            if predicate_after_subject(tokens, mentions, a) or (
                self.vocabulary is not None
                and predicate_after_wh_subject(tokens, a)
                and (
                    self.vocabulary.language.inflects_as_verb(tokens[a].norm)
                    or (tokens[a].joined and tokens[a].norm.endswith(("ed", "ing")))
                )
            ):
                continue
            touching = [
                m
                for m in mentions
                if whole_names
                and (
                    (m.last_token == a - 1 and _adjacent(text, m.end, tokens[a].start))
                    or (m.first_token == b + 1 and _adjacent(text, tokens[b].end, m.start))
                )
                and self._name_like(tokens, a, b, {self.store.kind(n) for n in m.node_ids})
            ]
            wording = not touching and not self._name_like(tokens, a, b)
            lo = min([a, *(m.first_token for m in touching)])
            hi = max([b, *(m.last_token for m in touching)])
            for m in touching:
                mentions.remove(m)
            weak = [m for m in touching if not self._name_word(tokens, a, b, m)]
            phrase = self._text(tokens, lo, hi)
            found = self._fuzzy_mention(phrase, lo, hi, tokens) if fallback else None
            if (
                found is not None
                and touching
                and not any(covers(phrase, self.store.name(c.node_id)) for c in found.candidates)
            ):
                # a name longer than the exact mention must carry the words it was extended
                # by ("multiple sclerosis thx" is not "relapsing multiple sclerosis"): the
                # exact name stands
                mentions.extend(touching)
                continue
            if found is not None:
                mentions.append(found)
            elif fallback and len(pending) < MAX_EMBEDDED_PHRASES:
                pending.append((phrase, lo, hi, wording, weak))
            elif weak:
                mentions.extend(weak)
            elif fallback and (part := self._named_part(tokens, lo, hi)):
                mentions.append(part)
            elif fallback and (broader := self._broader(tokens, lo, hi, touching)):
                mentions.append(broader)
            elif not wording:
                unlinked.append(phrase)
        for (phrase, lo, hi, wording, weak), hits in zip(
            pending, self._embeddings([p for p, _, _, _, _ in pending]), strict=True
        ):
            ok = [
                (n, s)
                for n, s in hits
                if covers(phrase, self.store.name(n))
                and (fills(phrase, self.store.name(n)) or self._completes(phrase, n))
            ]
            if ok and ok[0][1] >= self.embed_accept:
                top_id, top = ok[0]
                group = same_concept_kinds(self.store.kind(top_id))
                cands = [
                    Candidate(n, self.store.name(n), "embedding", False)
                    for n, s in ok
                    if n == top_id or (s >= top - 0.01 and self.store.kind(n) in group)
                ]
                mentions.append(
                    Mention(
                        phrase, tokens[lo].start, tokens[hi].end, lo, hi, cands, "embedding", top
                    )
                )
            elif weak:
                mentions.extend(weak)
            elif fallback and (part := self._named_part(tokens, lo, hi)):
                mentions.append(part)
            elif fallback and (broader := self._broader(tokens, lo, hi, touching)):
                mentions.append(broader)
            elif not wording:
                unlinked.append(phrase)
        for m in self._listed_initials(tokens, initials, mentions):
            if not any(o.first_token <= m.first_token <= o.last_token for o in mentions):
                mentions.append(m)
                unlinked = [u for u in unlinked if u != m.text]
        mentions.sort(key=lambda m: m.first_token)
        mentions = self._families(tokens, mentions) if fallback else mentions
        mentions = self._acting_on(tokens, mentions) if fallback else mentions
        if whole_names:
            mentions = relation_wording(mentions, self.relation_words, tokens)
        mentions = [self._number_kin(m) for m in mentions if not self._route(tokens, m)]
        return LinkResult(tokens, mentions, unlinked)

    def _number_kin(self, m: Mention) -> Mention:
        """A symptom's or side effect's name read with the same concept the other vocabulary
        holds in the other number ("hallucinations" is a symptom, "hallucination" the side
        effect): both are senses of what was said, the question's relation chooses."""
        if m.method != "exact" or not m.candidates or len(m.text.split()) != 1:
            return m
        kinds = {self.store.kind(c.node_id) for c in m.candidates}
        if not kinds <= NUMBERED_KINDS:
            return m
        key = alias_key(m.text)
        other = singular(key) or plural_of(key)
        if other is None:
            return m
        have = {c.node_id for c in m.candidates}
        more = [
            c
            for c in self.aliases.get(other)
            if self.store.kind(c.node_id) in NUMBERED_KINDS - kinds and c.node_id not in have
        ]
        return replace(m, candidates=[*m.candidates, *more]) if more else m

    def _route(self, tokens: list[Token], m: Mention) -> bool:
        """A body part said right before a drug's form is the route of the form ("eye drops",
        "skin cream"), not a thing asked about."""
        after = m.last_token + 1
        return (
            after < len(tokens)
            and tokens[after].norm in FORM_WORDS
            and all(self.store.kind(c.node_id) == "Anatomy" for c in m.candidates)
        )
