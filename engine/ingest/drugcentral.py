"""DrugCentral in the disease pack: each DrugCentral drug as one graph drug, with only the
indications that are its own.

DrugCentral keys its tables by its own drug id, one per active ingredient or salt form. Read
naively, two things in its 2016 tables make false statements:

- **identifiers.** A drug may list several DrugBank ids: its parent's beside its own
  ('acetylsalicylic acid' lists salicylic acid's), two entries DrugBank keeps of one drug
  (albiglutide, DB05162 and DB09043), or the salts of one inorganic ingredient (six for
  'sodium phosphate'). ``DrugMap`` gives each DrugCentral drug one graph drug: among the ids
  no other drug lists (else the ids it lists), the graph's drug of the same name, else the
  graph's only one, else the lowest id. The other ids only it lists are the same drug: merged,
  kept as cross-references. Ids another drug lists too are that drug's.
- **indications.** They come from product labels (OMOP/FDB) and are given to every
  ingredient of a product: the 'sodium phosphate' of 'dexamethasone sodium phosphate' gets the
  steroid's indications (asthma, psoriasis), the calcium carbonate and aluminium hydroxide
  that buffer aspirin get myocardial infarction. Such an ingredient has no mechanism of its own
  in DrugCentral: no row in ``drug_target`` and no FDA mechanism (``MoA``) or established class
  (``EPC``) in ``pharm_class``. ``Inactive`` keeps its indication only when no drug with a
  mechanism states it, or when one of its pharmacologic classes explains it: the class's drugs
  with a mechanism state it at least ``CLASS_LIFT`` times as often as drugs with a mechanism at
  large (antacids explain reflux, not infarction).
"""

from __future__ import annotations

import csv
import gzip
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.ingest.layers import GeneInfo, LayerReport, TripleRow

SOURCE = "DrugCentral"

CLASS_LIFT = 3.0
"""How much more often a class's drugs must state an indication than drugs at large for the
class to explain it in a drug that has no mechanism of its own."""

MECHANISM_CLASSES = frozenset({"MoA", "EPC"})
"""``pharm_class`` types that say what a drug does (FDA mechanism, established class)."""

MEMBER_CLASSES = ("MoA", "EPC", "PA")
"""``pharm_class`` types whose classes become ``Pharmacologic Class`` nodes that include their
drugs: the FDA's mechanisms and established classes (the ids Hetionet's classes have) and
MeSH's pharmacological actions, the classes clinicians name ("Anticoagulants", "Adrenergic
beta-Antagonists"); best first where two name one class."""

Node = tuple[str, str, str]


def _tsv(path: Path) -> Iterator[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        yield from csv.DictReader(fh, delimiter="\t")


def _drug_name(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name


@dataclass(frozen=True)
class DrugMap:
    """DrugCentral drug id -> its one graph drug; the DrugBank ids folded into each."""

    node: dict[str, str]
    """DRUG_ID -> ``Compound::DB…``"""
    names: dict[str, str]
    """graph drug -> the DrugCentral name it gets when the graph lacks it"""
    merged: dict[str, list[str]]
    """graph drug -> the other DrugBank ids of the same drug"""

    @classmethod
    def read(
        cls, path: Path, wanted: set[str], graph: Mapping[str, str], report: LayerReport
    ) -> DrugMap:
        """From ``identifiers.tsv``, for the DrugCentral drugs ``wanted`` (those the other
        tables name) and the DrugBank ids of every drug; ``graph``: the store's drugs, node
        id -> name."""
        listed: dict[str, list[str]] = defaultdict(list)
        drug_name: dict[str, str] = {}
        for r in _tsv(path):
            ident = (r.get("IDENTIFIER") or "").strip()
            if r.get("ID_TYPE") != "DRUGBANK_ID" or not ident:
                continue
            drug_name[r["DRUG_ID"]] = (r.get("DRUG_NAME") or "").strip()
            if ident not in listed[r["DRUG_ID"]]:
                listed[r["DRUG_ID"]].append(ident)
        claims = Counter(x for ids in listed.values() for x in ids)
        node: dict[str, str] = {}
        merged: dict[str, list[str]] = {}
        by_node: dict[str, list[str]] = defaultdict(list)
        for drug, ids in listed.items():
            if drug not in wanted:
                continue
            own = [x for x in ids if claims[x] == 1]
            chosen = _choose(own or ids, drug_name[drug], graph)
            node[drug] = chosen
            by_node[chosen].append(drug)
            rest = [x for x in own if f"Compound::{x}" != chosen]
            if rest:
                merged.setdefault(chosen, []).extend(rest)
                report.merged["DrugCentral: a drug's other DrugBank ids, merged"] += len(rest)
            if own and len(own) < len(ids):
                report.skipped["DrugCentral: a DrugBank id other drugs list too, left to them"] += (
                    len(ids) - len(own)
                )
        names = {
            n: _drug_name(min((drug_name[d] for d in drugs), key=lambda s: (len(s), s)))
            for n, drugs in by_node.items()
        }
        return cls(node, names, merged)

    def xrefs(self) -> Iterator[tuple[str, str]]:
        """(``DRUGBANK:DB…``, graph drug) for each merged id, so other layers join through it."""
        for chosen, ids in self.merged.items():
            for x in ids:
                yield f"DRUGBANK:{x}", chosen


def _choose(ids: list[str], name: str, graph: Mapping[str, str]) -> str:
    nodes = [f"Compound::{x}" for x in ids]
    known = [n for n in nodes if n in graph]
    same = [n for n in known if graph[n].lower() == name.lower()]
    for pick in (same, known):
        if len(pick) == 1:
            return pick[0]
    return min(known or nodes, key=lambda n: (len(n), n))


def _indication_key(r: Mapping[str, str]) -> str:
    return (r.get("UMLS_CUI") or "").strip() or (r.get("INDICATION_FDB") or "").strip().lower()


@dataclass(frozen=True)
class Inactive:
    """Which DrugCentral indications are an ingredient's own (see the module docstring)."""

    mechanism: frozenset[str]
    """drugs with a target or an FDA mechanism / established class"""
    stated_by: dict[str, frozenset[str]]
    """indication -> drugs that state it"""
    classes: dict[str, frozenset[str]]
    """drug -> its pharmacologic classes"""
    members: dict[str, frozenset[str]]
    """class -> its drugs that have a mechanism and an indication"""
    active: int
    """drugs that have a mechanism and an indication"""

    @classmethod
    def read(cls, indications: Path, targets: Path, pharm_class: Path, drugs: DrugMap) -> Inactive:
        """From the indication, target and class tables; a salt form ('prednisolone sodium
        phosphate') has the mechanism of the drug it is mapped to."""
        stated: dict[str, set[str]] = defaultdict(set)
        for r in _tsv(indications):
            stated[_indication_key(r)].add(r["DRUG_ID"])
        mechanism = {r["DRUG_ID"] for r in _tsv(targets)}
        classes: dict[str, set[str]] = defaultdict(set)
        for r in _tsv(pharm_class):
            classes[r["DRUG_ID"]].add(f"{r.get('TYPE')}:{r.get('CLASS')}")
            if r.get("TYPE") in MECHANISM_CLASSES:
                mechanism.add(r["DRUG_ID"])
        acting = {drugs.node[d] for d in mechanism if d in drugs.node}
        mechanism |= {d for d, n in drugs.node.items() if n in acting}
        with_indication = {d for drugs in stated.values() for d in drugs}
        active = mechanism & with_indication
        members: dict[str, set[str]] = defaultdict(set)
        for drug in active:
            for c in classes.get(drug, ()):
                members[c].add(drug)
        return cls(
            frozenset(mechanism),
            {k: frozenset(v) for k, v in stated.items()},
            {k: frozenset(v) for k, v in classes.items()},
            {k: frozenset(v) for k, v in members.items()},
            len(active),
        )

    def borrowed(self, drug: str, indication: Mapping[str, str]) -> bool:
        """True when ``drug`` states ``indication`` only as an ingredient of a product whose
        active ingredient is another drug."""
        if drug in self.mechanism:
            return False
        stated = self.stated_by.get(_indication_key(indication), frozenset())
        others = (stated & self.mechanism) - {drug}
        if not others or not self.active:
            return False
        base = len(others) / self.active
        for c in self.classes.get(drug, ()):
            peers = self.members.get(c, frozenset()) - {drug}
            hits = len(peers & others)
            if hits and hits / len(peers) >= CLASS_LIFT * base:
                return False
        return True


CLAUSES = (" due to ", " associated with ", " secondary to ", " caused by ", " following ")
"""Where an indication's name goes on to say what the condition comes from ("Pulmonary Edema
due to Chronic Heart Failure" is an edema): the condition is the part before."""

NEGATING = frozenset({"non", "not", "no", "without", "anti"})
"""A word that turns the words after it into their opposite ("non hodgkin lymphoma")."""


def head_doid(
    name: str,
    named: Mapping[str, str],
    heads: Mapping[str, str],
    qualifiers: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """The DOID an indication's name stands for, and how it was found: the whole name when it
    is one term's (``named``), else the longest run of its last words that names a disease
    (``heads``: the names an indication may be read as), the condition a qualified name is a
    kind of: "Chronic Heart Failure", "Acute Tuberculosis", "Plaque Psoriasis". Words before a
    negating word are never dropped, nor words saying what the drug is for ("Diagnostic Test
    for Cushing's Syndrome" is no treatment). Failing that, the disease its first words name
    when the rest says what about it (``_leading``, with the ``qualifiers`` of
    ``qualifier_words``)."""
    whole = class_key(name)
    if whole in named:
        return named[whole], "name"
    low = name.lower()
    for sep in CLAUSES:
        if (i := low.find(sep)) > 0:
            low = low[:i]
    words = class_key(low).split()
    for i in range(0 if low != name.lower() else 1, len(words)):
        if i and (words[i - 1] in NEGATING or words[i - 1] == "for"):
            break
        if doid := heads.get(" ".join(words[i:])):
            return doid, "head"
    return _leading(words, heads, qualifiers)


HOW = {
    "name": "DrugCentral indication: no DOID, by its Disease Ontology name",
    "head": "DrugCentral indication: no DOID, by the disease its name ends with",
    "lead": "DrugCentral indication: no DOID, by the disease its first words name",
}
"""How an indication without a DOID was read, as the layer report counts it."""
RENAMED = "DrugCentral indication: DOID of another term than its name, by its Disease Ontology name"
"""An indication whose DOID is not the term its name is, filed under the named term."""
QUALIFIER_DISEASES = 3
"""Diseases a word must follow at the start of indication names to be read as saying what
about the disease ("prevention", "adjunct", "in"), not as part of another condition's name."""
MIN_RUN = 4
"""Characters a disease name read inside an indication's name needs at least ("AS", "AID" are
words there, not diseases)."""


def _names_any(words: list[str], heads: Mapping[str, str]) -> bool:
    return any(
        len(run := " ".join(words[i:j])) >= MIN_RUN and class_key(run) in heads
        for i in range(len(words))
        for j in range(i + 1, len(words) + 1)
    )


def _leading_run(words: list[str], heads: Mapping[str, str]) -> tuple[int, str]:
    """The longest run of first words (not all of them) that names a disease: its length and
    DOID, or (0, "")."""
    for j in range(len(words) - 1, 0, -1):
        run = " ".join(words[:j])
        if len(run) >= MIN_RUN and (doid := heads.get(class_key(run))) is not None:
            return j, doid
    return 0, ""


def qualifier_words(names: Iterable[str], heads: Mapping[str, str]) -> frozenset[str]:
    """The words that follow a disease's name at the start of indication names for at least
    ``QUALIFIER_DISEASES`` diseases: what the table itself uses to say what about a disease
    ("Migraine Prevention", "Gout Prevention", "Tetanus Adjunct Treatment")."""
    after: dict[str, set[str]] = defaultdict(set)
    for name in names:
        words = class_key(name).split()
        j, doid = _leading_run(words, heads)
        if j:
            after[words[j]].add(doid)
    return frozenset(w for w, d in after.items() if len(d) >= QUALIFIER_DISEASES)


def _leading(
    words: list[str], heads: Mapping[str, str], qualifiers: frozenset[str]
) -> tuple[str, str]:
    """The disease named by an indication's first words when the word after them is one of
    the ``qualifiers`` ("Asthma Prevention", "Bipolar Disorder in Remission") and the rest
    names no other disease ("Anorexia from HIV")."""
    j, doid = _leading_run(words, heads)
    if not j or words[j] not in qualifiers or _names_any(words[j:], heads):
        return "", ""
    return doid, "lead"


def indications(
    path: Path,
    drugs: DrugMap,
    inactive: Inactive,
    report: LayerReport,
    named: Mapping[str, str] | None = None,
    broad: frozenset[str] = frozenset(),
) -> tuple[list[Node], list[TripleRow]]:
    """``CtD`` from the indications with a DOID, each on its drug's one graph drug. One
    without a DOID is read by its name (``head_doid``): a name that is one Disease Ontology
    term's (``named``: ``class_key`` of a name -> DOID; "Schizophrenia") is that term's, and a
    qualified name is the disease its last words name, by the Disease Ontology's names or the
    names DrugCentral itself gives a DOID ("Heart Failure"), except the ``broad`` terms
    ("syndrome", "disease") a name's last word may be without saying which."""
    rows = list(_tsv(path))
    own: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if (d := (r.get("DOID") or "").strip()).startswith("DOID:"):
            own[class_key(r.get("INDICATION_FDB") or "")].add(d)
    heads = {k: next(iter(v)) for k, v in own.items() if k and len(v) == 1}
    heads.update(named or {})
    heads = {k: d for k, d in heads.items() if d not in broad}
    qualifiers = qualifier_words((r.get("INDICATION_FDB") or "" for r in rows), heads)
    nodes: list[Node] = []
    triples: list[TripleRow] = []
    for r in rows:
        doid = (r.get("DOID") or "").strip()
        own_name = (named or {}).get(class_key(r.get("INDICATION_FDB") or ""))
        if doid.startswith("DOID:") and own_name is not None and own_name != doid:
            # the indication's own name is a Disease Ontology term's, and DrugCentral's DOID
            # is another's ("Osteoarthritis" filed under arthropathy, "Idiopathic Pulmonary
            # Fibrosis" under idiopathic interstitial pneumonia): the name is the fact stated
            doid = own_name
            report.remapped[RENAMED] += 1
        if not doid.startswith("DOID:"):
            doid, how = head_doid(r.get("INDICATION_FDB") or "", named or {}, heads, qualifiers)
            if not doid:
                report.skipped["DrugCentral indication: no DOID"] += 1
                continue
            report.remapped[HOW[how]] += 1
        node = drugs.node.get(r["DRUG_ID"])
        if node is None:
            report.skipped["DrugCentral indication: no DrugBank id"] += 1
            continue
        if inactive.borrowed(r["DRUG_ID"], r):
            report.skipped[
                "DrugCentral indication: of an inactive ingredient (salt, buffer), "
                "its product's active drug states it"
            ] += 1
            continue
        nodes.append((node, drugs.names[node], "Compound"))
        triples.append((node, "CtD", f"Disease::{doid}", SOURCE, None, None))
    return nodes, triples


def targets(
    path: Path, drugs: DrugMap, genes: GeneInfo, report: LayerReport
) -> tuple[list[Node], list[TripleRow]]:
    """``CbG`` from the human targets, the action type as the edge's detail."""
    nodes: list[Node] = []
    triples: list[TripleRow] = []
    for r in _tsv(path):
        if not (r.get("SWISSPROT") or "").endswith("_HUMAN"):
            report.skipped["DrugCentral target: not human"] += 1
            continue
        node = drugs.node.get(r["DRUG_ID"])
        if node is None:
            report.skipped["DrugCentral target: no DrugBank id"] += 1
            continue
        action = (r.get("ACTION_TYPE") or "").strip().lower() or None
        for sym in (r.get("GENE") or "").split("|"):
            entrez = genes.entrez(sym) if sym else None
            if entrez is None:
                report.skipped["DrugCentral target: symbol not in NCBI gene_info"] += 1
                continue
            nodes.append((node, drugs.names[node], "Compound"))
            triples.append((node, "CbG", f"Gene::{entrez}", SOURCE, action, None))
    return nodes, triples


def class_key(name: str) -> str:
    """One key for a class however a vocabulary words it: letter case, punctuation and a
    plural last word aside ("Factor Xa Inhibitor", "Factor Xa Inhibitors")."""
    words = "".join(c if c.isalnum() else " " for c in name.lower()).split()
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def classes(
    path: Path, drugs: DrugMap, known: Mapping[str, str], report: LayerReport
) -> tuple[list[Node], list[TripleRow]]:
    """``PCiC`` from the pharmacologic classes of ``MEMBER_CLASSES``, each class on the graph's
    class of the same key (``known``: key -> node id) when there is one, else on the first
    vocabulary's node of that key; the class type as the edge's detail."""
    rows = [r for r in _tsv(path) if r.get("TYPE") in MEMBER_CLASSES]
    rows.sort(key=lambda r: MEMBER_CLASSES.index(r["TYPE"]))
    node_of = dict(known)
    seen: set[tuple[str, str]] = set()
    nodes: list[Node] = []
    triples: list[TripleRow] = []
    for r in rows:
        name, code = (r.get("CLASS") or "").strip(), (r.get("CLASS_SOURCE_ID") or "").strip()
        drug = drugs.node.get(r["DRUG_ID"])
        if not name or not code:
            report.skipped["DrugCentral class: no name or id"] += 1
            continue
        if drug is None:
            report.skipped["DrugCentral class: no DrugBank id"] += 1
            continue
        pc = node_of.setdefault(class_key(name), f"Pharmacologic Class::{code}")
        if (pc, drug) in seen:
            continue  # the class as another vocabulary names it
        seen.add((pc, drug))
        nodes += [(pc, name, "Pharmacologic Class"), (drug, drugs.names[drug], "Compound")]
        triples.append((pc, "PCiC", drug, SOURCE, r["TYPE"], None))
    return nodes, triples
