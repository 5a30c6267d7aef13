"""What linking works with: question tokens, alias candidates, mentions, and the alias index
of the store's active layers (exact keys, lengths for fuzzy matching, everyday words)."""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.graph.store import KGStore
from engine.ingest.nearest import BROADER, NARROWER
from engine.understand.lexicon import (
    COMPILED_CUES,
    FUNCTION_WORDS,
    KIND_WORDS,
    SHORTHAND,
    is_cue_word,
)
from engine.understand.spans import SpanMatcher, Strings, pack, unpack
from engine.util.text import alias_key, normalize

TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
SOURCE_RANK = {
    "hetionet": 0,
    "disease-ontology": 1,
    "disease-ontology-label": 1,
    "drugbank": 1,
    "drugcentral": 1,
    "ncbi-gene": 2,
}


@dataclass(frozen=True)
class Token:
    text: str
    norm: str
    start: int
    end: int
    joined: bool = False
    """Attached to the previous token by a hyphen ("vaccine-induced")."""
    initial: bool = False
    """Opens a sentence (the first token, or the first after '.', '!' or '?')."""


@dataclass(frozen=True)
class Candidate:
    node_id: str
    alias: str
    source: str
    primary: bool


@dataclass
class Mention:
    text: str
    start: int
    end: int
    first_token: int
    last_token: int
    candidates: list[Candidate]
    method: str = "exact"
    score: float = 1.0

    @property
    def node_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self.candidates:
            seen.setdefault(c.node_id, None)
        return list(seen)

    @property
    def ambiguous(self) -> bool:
        return len(self.node_ids) > 1


@dataclass
class LinkResult:
    tokens: list[Token]
    mentions: list[Mention]
    unlinked: list[str] = field(default_factory=list)
    """Content chunks that matched nothing, e.g. a drug absent from the graph."""


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    prev_end = 0
    for m in TOKEN.finditer(text):
        initial = not out or any(c in ".!?" for c in text[prev_end : m.start()])
        out.append(
            Token(
                m.group(),
                normalize(m.group()),
                m.start(),
                m.end(),
                m.start() > 0 and text[m.start() - 1] == "-",
                initial,
            )
        )
        prev_end = m.end()
    return out


def own_names(
    rows: list[tuple[str, str, str, str, bool]],
) -> list[tuple[str, str, str, str, bool]]:
    """Alias rows without a broader disease standing in for a term (``nearest.py``) when
    another active disease holds the name itself: 'heart attack' stood for coronary artery
    disease while the graph lacked the Disease Ontology's myocardial infarction; with the
    disease pack it is a node (and a subtype without edges is answered for its parent). Nor
    the graph's diseases under a term standing for it when another disease has the name as its
    own (primary) name: "colorectal cancer" is the disease of that name, not its rectum and
    colon cancers; "lupus", only a synonym of lupus erythematosus, still reads as its subtypes
    too."""
    holders: dict[str, set[str]] = defaultdict(set)
    labels: dict[str, set[str]] = defaultdict(set)
    for key, node, _, source, primary in rows:
        if source not in (BROADER, NARROWER) and node.startswith("Disease::"):
            holders[key].add(node)
            if primary:
                labels[key].add(node)
    return [
        r
        for r in rows
        if not (r[3] == BROADER and holders.get(r[0], set()) - {r[1]})
        and not (r[3] == NARROWER and labels.get(r[0], set()) - {r[1]})
    ]


class CandidateTable(Mapping[str, list[Candidate]]):
    """Candidates by alias key, kept as columns and made into a key's ``Candidate`` list on
    its first lookup (then the same list every time). A prepared alias index (``prepared.py``)
    is read without making an object per candidate: a hundred thousand frozen dataclasses
    cost about half a second to unpickle, and a question meets a few dozen keys; each text
    column is one string (``Strings``)."""

    def __init__(self, by_key: Mapping[str, list[Candidate]]) -> None:
        self._index: dict[str, int] = {}
        self._ends = array("q")
        """Where the candidates of the key numbered k end in the columns (they start where
        those of k - 1 end)."""
        node_ids: list[str] = []
        aliases: list[str] = []
        sources: list[str] = []
        primary = bytearray()
        for key, cands in by_key.items():
            self._index[key] = len(self._ends)
            for c in cands:
                node_ids.append(c.node_id)
                aliases.append(c.alias)
                sources.append(c.source)
                primary.append(c.primary)
            self._ends.append(len(node_ids))
        self._cols = (Strings(node_ids), Strings(aliases), Strings(sources), bytes(primary))
        self._made: dict[str, list[Candidate]] = {}

    def __getstate__(self) -> dict[str, object]:
        return {"keys": pack(list(self._index)), "ends": self._ends, "columns": self._cols}

    def __setstate__(self, state: dict[str, Any]) -> None:
        keys = unpack(state["keys"])
        self._index = dict(zip(keys, range(len(keys)), strict=True))
        self._ends, self._cols = state["ends"], state["columns"]
        self._made = {}

    def _make(self, key: str, k: int) -> list[Candidate]:
        node_ids, aliases, sources, primary = self._cols
        start = self._ends[k - 1] if k else 0
        made = [
            Candidate(node_ids[i], aliases[i], sources[i], bool(primary[i]))
            for i in range(start, self._ends[k])
        ]
        self._made[key] = made
        return made

    def __getitem__(self, key: str) -> list[Candidate]:
        made = self._made.get(key)
        return made if made is not None else self._make(key, self._index[key])

    def get(self, key: str, default: Any = None) -> Any:
        made = self._made.get(key)
        if made is not None:
            return made
        k = self._index.get(key)
        return default if k is None else self._make(key, k)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


class AliasIndex:
    def __init__(self, store: KGStore) -> None:
        by_key: dict[str, list[Candidate]] = defaultdict(list)
        rows = own_names(store.alias_rows())  # the aliases of the store's active layers
        for key, node_id, alias, source, primary in rows:
            by_key[key].append(Candidate(node_id, alias, source, bool(primary)))
        for key, cand in eponyms(rows):
            if all(c.node_id != cand.node_id for c in by_key[key]):
                by_key[key].append(cand)
        for key, cand in [*subtypes(rows), *uninverted(rows)]:
            if all(c.node_id != cand.node_id for c in by_key[key]):
                by_key[key].append(cand)
        for key, cands in central(initialisms(rows), lambda n: _links(store, n)).items():
            known = {c.node_id for c in by_key.get(key, ())}
            by_key[key].extend(c for c in cands if c.node_id not in known)
        for key, cands in by_key.items():
            cands.sort(key=lambda c: (not c.primary, SOURCE_RANK.get(c.source, 3), c.node_id))
            by_key[key] = cands
        self.by_key = CandidateTable(by_key)
        self.keys = list(self.by_key)
        self.matcher = SpanMatcher(self.by_key)
        self.common = self._common_words(store)
        self.headed = self._headed(store)
        self.meant: frozenset[tuple[str, str]] = self.headed
        """(key, node) of everyday-looking aliases that are their node's other name
        (``admit_synonyms``, ``_headed``): linked in lower case too."""
        self.by_length: dict[int, list[str]] = defaultdict(list)
        for k in self.keys:
            self.by_length[len(k)].append(k)

    def __getstate__(self) -> dict[str, object]:
        state = dict(vars(self))
        del state["keys"]  # the table's keys, in order
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self.keys = list(self.by_key)

    def near_length(self, n: int, slack: float = 0.2) -> list[str]:
        """Keys whose length is within ``slack`` of n (a fuzzy ratio >= 90 needs that)."""
        lo, hi = int(n * (1 - slack)), int(n * (1 + slack)) + 1
        return [k for length in range(lo, hi + 1) for k in self.by_length.get(length, ())]

    def get(self, key: str) -> list[Candidate]:
        found: list[Candidate] = self.by_key.get(key, [])
        return found

    @staticmethod
    def _common_words(store: KGStore, min_count: int = 3) -> frozenset[str]:
        """Everyday lower-case words of the passage corpus ("today", "focus"): a brand name
        spelled like one is only linked when the user capitalises it."""
        counts: dict[str, int] = defaultdict(int)
        for (text,) in store.con.execute("SELECT text FROM passages").fetchall():
            for w in re.findall(r"\b[a-z]{3,}\b", text or ""):
                counts[w] += 1
        return frozenset(w for w, c in counts.items() if c >= min_count)

    def _headed(self, store: KGStore) -> frozenset[tuple[str, str]]:
        """(key, drug) of the corpus-common aliases that are a subject heading of a corpus
        article ("aspirin") and no node's own name: a word indexers file articles under is a
        term of the field, not everyday language; a heading that names another node ("cough")
        stays that node's."""
        headings = {
            alias_key(h)
            for (title,) in store.con.execute(
                "SELECT DISTINCT title FROM passages WHERE source = 'pubmedqa'"
            ).fetchall()
            for h in (title or "").split(";")
        }
        out: set[tuple[str, str]] = set()
        for key in self.common & headings:
            cands = self.by_key.get(key, ())
            if any(c.primary for c in cands):
                continue
            out.update((key, c.node_id) for c in cands if c.node_id.startswith("Compound::"))
        return frozenset(out)

    def admit_synonyms(
        self, encode: Callable[[list[str]], Any], name_of: Callable[[str], str]
    ) -> None:
        """Let the corpus-common aliases that mean their node ("autism" of autistic disorder,
        "alcohol" of ethanol) link in lower case (``meant``); see ``synonyms``."""
        pairs = [
            (key, c.node_id, name_of(c.node_id))
            for key in self.common
            for c in self.by_key.get(key, ())
            if not c.primary and not c.node_id.startswith("Gene::")
        ]
        self.meant = self.headed | synonyms(pairs, encode)

    def plausible(
        self, cands: list[Candidate], tok: Token, position: int, framed: bool = False
    ) -> list[Candidate]:
        """Filter candidates for a one-word mention by how the word is written; ``framed``
        when it stands where a name of a kind is asked for (``framed``)."""
        if not any(ch.isalpha() for ch in tok.text):
            return []
        out = []
        for c in cands:
            if c.node_id.startswith("Gene::") and not _gene_token_ok(tok, position):
                continue
            if c.source == INITIALISM and not self._abbreviation(tok, position, framed):
                continue
            if (
                not c.primary
                and tok.text.islower()
                and tok.norm in self.common
                and (tok.norm, c.node_id) not in self.meant
            ):
                continue
            out.append(c)
        return out

    def _abbreviation(self, tok: Token, position: int, framed: bool = False) -> bool:
        """The word is written as an abbreviation: in capitals or with digits ("UC", "T2DM"),
        or in lower case when three letters or more and no everyday word ("copd", "ckd"), or
        two letters where a name is asked for ("meds for ra", "ms genes")."""
        t = tok.text
        if _gene_token_ok(tok, position):
            return True
        short = len(t) >= MIN_LOWER_INITIALISM or (framed and tok.norm not in FUNCTION_WORDS)
        return t.islower() and short and tok.norm not in self.common


FRAME_PREPOSITIONS = frozenset({"for", "with", "in", "of"})
"""Prepositions that put a name after a word asking for things ("meds for ra", "genes in ms")."""


def phrase_cue_tokens(tokens: Sequence[Token]) -> set[int]:
    """Tokens of a relation cue of several words ("first line", "used in"): wording, never
    part of a name the graph lacks ("first line for ms" names no 'line')."""
    at: list[int] = []
    said = ""
    for t in tokens:
        at.append(len(said))
        said += t.norm + " "
    out: set[int] = set()
    for rx, _, _ in COMPILED_CUES:
        for found in rx.finditer(said):
            inside = [i for i, a in enumerate(at) if found.start() <= a < found.end()]
            if len(inside) > 1:
                out.update(inside)
    return out


def framed(tokens: Sequence[Token], position: int) -> bool:
    """The word at ``position`` stands where a question names what it asks about: beside a
    kind noun or a relation cue ("ra drugs", "ms symptoms"), or after a preposition that
    follows one ("tx for hf", "first-line meds for ms") or ends one ("used in ms")."""

    def asks(i: int) -> bool:
        return 0 <= i < len(tokens) and (
            tokens[i].norm in KIND_WORDS or is_cue_word(tokens[i].norm)
        )

    if asks(position - 1) or asks(position + 1):
        return True
    if position < 2 or tokens[position - 1].norm not in FRAME_PREPOSITIONS:
        return False
    # a cue ending in its preposition counts whole ("used in ms", "approved for ra"), and a cue
    # of several words before the preposition ("first line for ms")
    return (
        asks(position - 2)
        or is_cue_word(f"{tokens[position - 2].norm} {tokens[position - 1].norm}")
        or position - 2 in phrase_cue_tokens(tokens)
    )


SUBTYPE = "receptor-subtype"
"""The alias source of a receptor's subtype name ("D2", "D2 receptor" of dopamine receptor
D2), as pharmacology names receptors."""
_SUBTYPE = re.compile(
    r"^[a-z0-9-]+(?: [a-z0-9-]+)? (?:receptor|adrenoceptor) ([a-z]{1,2}\d{1,2}[a-z]?)$"
)
"""A receptor named by its ligand in a word or two, then its subtype: "histamine receptor H1",
"neuropeptide Y receptor Y1"; not the long descriptive names of receptor families."""


def subtypes(rows: list[tuple[str, str, str, str, bool]]) -> list[tuple[str, Candidate]]:
    """(key, candidate) for the subtype of each gene whose name ends in one ("dopamine
    receptor D2" -> "d2" and "d2 receptor"); several genes may share a subtype (the senses
    and the question's other names choose)."""
    out: dict[tuple[str, str], Candidate] = {}
    for key, node_id, alias, _source, _primary in rows:
        if not node_id.startswith("Gene::") or (m := _SUBTYPE.match(key)) is None:
            continue
        sub = m.group(1)
        for nick in (sub, f"{sub} receptor"):
            out.setdefault((nick, node_id), Candidate(node_id, alias, SUBTYPE, False))
    return [(key, c) for (key, _), c in out.items()]


INITIALISM = "initialism"
"""The alias source of a disease name's initials ("UC" of ulcerative colitis)."""
MIN_LOWER_INITIALISM = 3
"""Initials typed in lower case count from this length ("copd"; "uc" or "ms" do not)."""
INITIAL_SOURCE = "disease-ontology-label"
"""Besides a disease's primary name, the name whose initials are made: its Disease Ontology
label ("chronic kidney disease" of chronic kidney failure). Synonyms are not: "hay fever"
(of allergic rhinitis) is no "HF"."""
_WORD = re.compile(r"[A-Za-z]+|\d+")


def initials(name: str) -> str | None:
    """A name's initials in lower case ("type 2 diabetes mellitus" -> "t2dm"), numbers
    whole; None for a name of one word. A possessive's "s" is no word ("Alzheimer's
    disease" -> "ad")."""
    words = [w for w in _WORD.findall(name.replace("'s ", " ").replace("’s ", " "))]
    if len(words) < 2:
        return None
    return "".join(w if w.isdigit() else w[0].lower() for w in words)


def initialisms(
    rows: list[tuple[str, str, str, str, bool]],
) -> list[tuple[str, Candidate]]:
    """(key, candidate) for the initials of each disease's name and DO label; never the
    clinical shorthand of a question's own words ("moa of the first one" asks for a
    mechanism of action, not about mucocele of appendix)."""
    out: list[tuple[str, Candidate]] = []
    for _, node_id, alias, source, primary in rows:
        if not node_id.startswith("Disease::") or not (primary or source == INITIAL_SOURCE):
            continue
        key = initials(alias)
        if key and len(key) >= 2 and key not in SHORTHAND:
            out.append((key, Candidate(node_id, key.upper(), INITIALISM, False)))
    return list(dict.fromkeys(out))


UNINVERTED = "uninverted"
"""The alias source of a MeSH heading said in everyday order ("monoclonal antibodies" of
"Antibodies, Monoclonal")."""
INVERTED_KINDS = ("Pharmacologic Class::", "Symptom::")
"""Vocabularies whose names MeSH writes head first ("Pain, Postoperative")."""
_INVERTED = re.compile(r"^[A-Za-z][A-Za-z -]*(?:, [A-Za-z][A-Za-z -]*)+$")


def uninverted(rows: list[tuple[str, str, str, str, bool]]) -> list[tuple[str, Candidate]]:
    """(key, candidate) for each inverted MeSH name in everyday order, its modifiers last to
    first before its head ("Purpura, Thrombocytopenic, Idiopathic": idiopathic
    thrombocytopenic purpura); a comma that lists ("A, B, and C ...") inverts nothing."""
    out: list[tuple[str, Candidate]] = []
    for _, node_id, alias, _, primary in rows:
        if not primary or not node_id.startswith(INVERTED_KINDS) or not _INVERTED.match(alias):
            continue
        head, *mods = alias.split(", ")
        if any(m.lower().startswith(("and ", "or ")) for m in mods):
            continue
        said = " ".join([*reversed(mods), head])
        out.append((alias_key(said), Candidate(node_id, said, UNINVERTED, False)))
    return out


EPONYM = "eponym"
"""The alias source of a disease's eponymous name as people type it ("alzheimers",
"parkinsons disease", "hodgkins")."""
EPONYM_SOURCES = frozenset({"hetionet", "disease-ontology", "disease-ontology-label"})


def eponyms(rows: list[tuple[str, str, str, str, bool]]) -> list[tuple[str, Candidate]]:
    """(key, candidate) for the ways an eponymous disease name is typed: without the
    apostrophe ("alzheimers disease" of "Alzheimer's disease"), and, when one word follows
    the possessive, the possessive alone ("alzheimers", "alzheimer's")."""
    out: list[tuple[str, Candidate]] = []
    for key, node_id, alias, source, _ in rows:
        if not node_id.startswith("Disease::") or source not in EPONYM_SOURCES:
            continue
        words = key.split()
        for i in range(len(words) - 1):
            if words[i + 1] != "s" or (i == 0 and len(words) == 2):
                continue
            joined = [*words[:i], words[i] + "s", *words[i + 2 :]]
            keys = [" ".join(joined)]
            if i == 0 and len(words) == 3:
                keys += [words[0] + "s", f"{words[0]} s"]
            out += [(k, Candidate(node_id, alias, EPONYM, False)) for k in keys]
            break
    return list(dict.fromkeys(out))


CENTRAL_RATIO = 2.0
"""Of the diseases sharing initials, one linked to at least this many times more edges than
each of the others is the one meant ("MS": multiple sclerosis, not metabolic syndrome X);
closer, the user is asked."""


def central(
    pairs: list[tuple[str, Candidate]], links: Callable[[str], int]
) -> dict[str, list[Candidate]]:
    """The initialism candidates by key, a key's candidates cut to the most central disease
    when it dominates (``CENTRAL_RATIO``)."""
    by_key: dict[str, list[Candidate]] = defaultdict(list)
    for key, cand in pairs:
        by_key[key].append(cand)
    counts: dict[str, int] = {}  # each disease's edges, counted once
    for key, cands in by_key.items():
        for c in cands:
            if c.node_id not in counts:
                counts[c.node_id] = links(c.node_id)
        ranked = sorted(cands, key=lambda c: (-counts[c.node_id], c.node_id))
        if (
            len(ranked) > 1
            and counts[ranked[0].node_id] >= CENTRAL_RATIO * counts[ranked[1].node_id]
        ):
            by_key[key] = ranked[:1]
    return by_key


def _links(store: KGStore, node_id: str) -> int:
    """How many edges the node has in the store's active layers."""
    i = store.index.get(node_id)
    if i is None:
        return 0
    kind = store.kind(node_id)
    return sum(store.degree(i, u) for u in store.uses() if u.src == kind)


SYNONYM_COSINE = 0.5
"""An everyday-looking alias at least this close in meaning to its node's name is that node's
other name ("autism": autistic disorder 0.84, "alcohol": ethanol 0.75); brands spelled as
words stay far below ("comfort": ethanol 0.16, "allergy": loratadine 0.43)."""


def synonyms(
    pairs: list[tuple[str, str, str]], encode: Callable[[list[str]], Any]
) -> frozenset[tuple[str, str]]:
    """The (alias key, node) of ``pairs`` (alias key, node, the node's name) whose alias means
    the node: its embedding is within ``SYNONYM_COSINE`` of the name's (``encode`` gives unit
    rows). Gene symbols are not for this: a symbol's embedding says nothing of its gene."""
    if not pairs:
        return frozenset()
    words = np.asarray(encode([k for k, _, _ in pairs]))
    names = np.asarray(encode([n for _, _, n in pairs]))
    close = (words * names).sum(axis=1) >= SYNONYM_COSINE
    return frozenset((k, n) for (k, n, _), ok in zip(pairs, close, strict=True) if ok)


def _gene_token_ok(tok: Token, position: int) -> bool:
    """A one-word gene symbol must look like one: case or digits, and not a capital that
    merely opens a sentence ("... in the heart? Thank you."); an upper-case abbreviation in
    the plural ("AEs", "SNPs") is not a symbol."""
    t = tok.text
    if (position == 0 or tok.initial) and not (t.isupper() or any(c.isdigit() for c in t)):
        return False
    if len(t) >= 3 and t.endswith("s") and t[:-1].isupper() and t[:-1].isalpha():
        return False
    return t != t.lower() or any(c.isdigit() for c in t)


SHORT_SYNONYM = 3
"""Letters-only synonyms this short ("GO", "KO", "KD") are also everyday abbreviations."""


def abbreviation_only(m: Mention) -> bool:
    """The mention matches nothing but short letters-only synonyms (never a primary name):
    in a question that names something else, it is more likely an abbreviation ("GO terms",
    "KO mice") than the gene that has it as an alias."""
    return all(
        not c.primary and len(alias_key(c.alias)) <= SHORT_SYNONYM and alias_key(c.alias).isalpha()
        for c in m.candidates
    )
