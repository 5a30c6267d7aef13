"""Words that carry the question's structure rather than naming an entity.

Function words, answer-kind nouns and relation cues. Linking never treats these as entity
mentions on their own, and the planner reads relation intent from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

FUNCTION_WORDS = frozenset(
    """a an the of in on at to for from by with without into onto about as and or nor but if
    is are was were be been being am do does did done doing have has had having can could may
    might must shall should will would what which who whom whose where when why how that this
    these those there their them they it its i we you he she his her our your me my us
    any all some each every both either neither no not only also other another such same
    list name show give tell find identify describe explain known know please
    there's what's which's who's s whats
    today tomorrow yesterday tonight now currently recently daily weekly monthly yearly
    week weeks month months year years day days morning evening night time times again
    still just well good better best new old one two three first second last next
    before after since until ago already yet soon later plus via per
    then though anyway else instead u ur pls plz""".split()
)

FORM_WORDS = frozenset("drops injections tablets pills inhalers creams".split())
"""How a drug is given: a kind of drug asked for after a disease ("glaucoma drops"), the named
drug's own form after a drug ("latanoprost eye drops")."""

SHORTHAND: dict[str, str] = {
    "tx": "treatment",
    "rx": "treatment",
    "sx": "symptoms",
    "dx": "diagnoses",
    "moa": "mechanism of action",
    "meds": "medications",
    "med": "medication",
    "se": "side effects",
    "ses": "side effects",
    "side fx": "side effects",
    "ae": "adverse effects",
    "aes": "adverse effects",
    "adr": "adverse drug reaction",
    "adrs": "adverse drug reactions",
    "pt": "patient",
    "pts": "patients",
    "hx": "history",
    "ddx": "differential diagnosis",
    "abx": "antibiotics",
    "mgmt": "management",
    "mx": "management",
    "trt": "treatment",
    "tmt": "treatment",
}
"""Clinical shorthand as clinicians type it, and what it stands for: the kind words and cues
below hear it, and the exemplar reading reads the question with it written out."""
_SHORTHAND = re.compile(
    r"\b(" + "|".join(sorted(SHORTHAND, key=len, reverse=True)) + r")\b", re.IGNORECASE
)


def written_out(text: str) -> str:
    """``text`` with its clinical shorthand written out ("tx of gout" -> "treatment of gout")."""
    return _SHORTHAND.sub(lambda m: SHORTHAND[m.group(1).lower()], text)


KIND_WORDS: dict[str, str] = {
    "sx": "Symptom",
    "se": "Side Effect",
    "ses": "Side Effect",
    "fx": "Side Effect",
    "ae": "Side Effect",
    "aes": "Side Effect",
    "adr": "Side Effect",
    "adrs": "Side Effect",
    "dx": "Disease",
    "meds": "Compound",
    "med": "Compound",
    "drug": "Compound",
    "drugs": "Compound",
    "compound": "Compound",
    "compounds": "Compound",
    "medicine": "Compound",
    "medicines": "Compound",
    "medication": "Compound",
    "medications": "Compound",
    "agent": "Compound",
    "agents": "Compound",
    "therapeutic": "Compound",
    "therapeutics": "Compound",
    "molecule": "Compound",
    "molecules": "Compound",
    "pharmaceuticals": "Compound",
    "chemicals": "Compound",
    # what drugs are given as (``FORM_WORDS``): a kind of drug, never a disease ("glaucoma
    # drops", "wet AMD injections", "psoriasis biologics")
    "biologic": "Compound",
    "biologics": "Compound",
    "drops": "Compound",
    "injections": "Compound",
    "tablets": "Compound",
    "pills": "Compound",
    "inhalers": "Compound",
    "creams": "Compound",
    "disease": "Disease",
    "diseases": "Disease",
    "condition": "Disease",
    "conditions": "Disease",
    "disorder": "Disease",
    "disorders": "Disease",
    "illness": "Disease",
    "illnesses": "Disease",
    "indication": "Disease",
    "indications": "Disease",
    "ailments": "Disease",
    "cancers": "Disease",
    "infections": "Disease",
    "tumours": "Disease",
    "tumors": "Disease",
    "gene": "Gene",
    "genes": "Gene",
    "protein": "Gene",
    "proteins": "Gene",
    "target": "Gene",
    "targets": "Gene",
    "symptom": "Symptom",
    "symptoms": "Symptom",
    "sign": "Symptom",
    "signs": "Symptom",
    "manifestations": "Symptom",
    "complaints": "Symptom",
    "anatomy": "Anatomy",
    "anatomical": "Anatomy",
    "structure": "Anatomy",
    "structures": "Anatomy",
    "tissue": "Anatomy",
    "tissues": "Anatomy",
    "organ": "Anatomy",
    "organs": "Anatomy",
    "body": "Anatomy",
    "site": "Anatomy",
    "sites": "Anatomy",
    "class": "Pharmacologic Class",
    "classes": "Pharmacologic Class",
    "pathway": "Pathway",
    "pathways": "Pathway",
    "effect": "Side Effect",
    "effects": "Side Effect",
    "reactions": "Side Effect",
}

# Relation cues: regex over normalised text -> (relations it may express, strength). Weak cues
# ("associated with", "used for", "affects") often only connect words; strong ones name a relation.
STRONG, WEAK = 1.0, 0.5
CUES: tuple[tuple[str, tuple[str, ...], float], ...] = (
    (r"\bpalliat\w*|\brelie(?:f|ve|ves|ved)\b|\bsymptomatic(?:ally)?\b", ("CpD",), STRONG),
    (
        r"\btreat\w*|\btherap\w*|\bindicat\w*|\bcur(?:e|es|ed|ing)\b|\bremed\w*|\bprescri\w*"
        r"|\bapprov\w* (?:for|in)\b"  # a drug approved for a disease is indicated for it
        r"|\b[tr]x\b"  # SHORTHAND for treatment
        r"|\b(?:first|second|third)[- ]line\b",  # a line of therapy
        ("CtD",),
        STRONG,
    ),
    (
        # a drug noun for something is a remedy for it ("meds for anxiety", "drugs for pain"):
        # never what causes it
        r"\b(?:drugs?|meds?|medications?|medicines?|pills?|tablets?|agents?)"
        r" (?:for|against)\b",
        ("CtD",),
        STRONG,
    ),
    (
        r"\bus(?:e|es|ed|ing) (?:for|against|in|to)\b|\bmanag\w*|\beffective (?:for|against|in)\b"
        r"|\bgi(?:ve|ves|ven|ving) (?:for|in)\b"  # "what is given for CML"
        # "acute migraine, what can i give"
        r"|\bwhat (?:can|could|do|should|would|to) (?:i |we |you |one )?give\b"
        r"|\bhelp\w*"
        r"|\boptions? (?:for|in)\b"  # "options for gout": what a clinician can give
        r"|\breplacement\b",  # "hypothyroidism replacement": the hormone given for it
        ("CtD",),
        WEAK,
    ),
    (
        r"\bbind\w*|\bbound\b|\btarget\w*|\bgene products?\b|\breceptors?\b|\bligands?\b"
        r"|\binhibit\w*|\bact(?:s|ing)? (?:on|upon)\b",
        ("CbG",),
        STRONG,
    ),
    # a drug that "hits" a gene targets it ("any drugs that hit those"); "GWAS hits" is no verb
    (r"\bhit(?:ting)?\b", ("CbG",), WEAK),
    (r"\bsusceptib\w*|\brisk genes?\b|\bgenetic\w*|\bimplicated\b", ("DaG",), STRONG),
    (r"\bassociat\w*|\blinked to\b", ("DaG",), WEAK),
    (
        r"\bsymptoms?\b|\bpresent\w*|\bsigns?\b|\bmanifest\w*|\bcomplain\w*|\bfeatur\w*"
        r"|\bcharacteri[sz]\w*|\bmarked by\b|\bshow(?:s|ing)?\b",
        ("DpS",),
        STRONG,
    ),
    (r"\blocali[sz]\w*|\banatom\w*|\bbody parts?\b|\btissues?\b|\borgans?\b", ("DlA",), STRONG),
    (r"\bwhere\b|\baffect\w*", ("DlA",), WEAK),
    (r"\bresembl\w*|\bsimilar\w*|\banalog\w*", ("DrD", "CrC"), STRONG),
    (r"\blike\b|\brelated\b|\bcomparable\b", ("DrD", "CrC"), WEAK),
    (r"\bclass\w*|\bbelong\w*|\bmembers?\b", ("PCiC",), STRONG),
    (r"\binclud\w*|\bcategor\w*|\bcontain\w*|\bgroup\w*", ("PCiC",), WEAK),
    (
        r"\bside effects?\b|\badverse\b|\btoxicit(?:y|ies)\b"  # "vincristine toxicity"
        r"|\bside fx\b|\b(?:se|ses|aes?|adrs?)\b",  # SHORTHAND for side effects
        ("CcSE",),
        STRONG,
    ),
    (r"\breactions?\b", ("CcSE",), WEAK),
    # what causes a disease may be a gene ("causative gene"), what a drug causes a side effect
    (r"\bcaus\w*", ("CcSE", "DaG"), WEAK),
    (r"\binteract\w*|\bpartners?\b", ("GiG", "CbG"), STRONG),  # a drug-target interaction binds
    (r"\bco-?var\w*", ("GcG",), STRONG),
    (r"\bup-?regulat\w*|\bover-?express\w*", ("CuG", "DuG", "AuG"), STRONG),
    (r"\bincreas\w*", ("CuG", "DuG", "AuG"), WEAK),
    (r"\bdown-?regulat\w*|\bunder-?express\w*", ("CdG", "DdG", "AdG"), STRONG),
    (r"\bdecreas\w*|\bsuppress\w*", ("CdG", "DdG", "AdG"), WEAK),
    (r"\bexpress\w*", ("AeG",), STRONG),
    (r"\bregulat\w*", ("Gr>G",), WEAK),
    (r"\bpathways?\b", ("GpPW",), STRONG),
    (r"\bbiological process\w*", ("GpBP",), STRONG),
    (r"\bmolecular functions?\b", ("GpMF",), STRONG),
    (r"\bcellular components?\b|\blocated\b", ("GpCC",), STRONG),
)
COMPILED_CUES = tuple((re.compile(p), rels, w) for p, rels, w in CUES)


@dataclass(frozen=True)
class Cue:
    """A relation cue found in a question: the relations it suggests and where it stands."""

    rels: tuple[str, ...]
    start: int
    end: int
    text: str
    weight: float = 1.0
    shared: tuple[tuple[str, float], ...] = ()
    """Further relations the cue word supports, each with the share of ``weight`` it gives
    (``engine.understand.cueshare``)."""

    @cached_property
    def supports(self) -> dict[str, float]:
        """Relation -> how much the cue supports it: its weight for a relation it names, a
        share of it for one whose wordings also use it (worked out once: it is asked for
        every metapath)."""
        return {r: self.weight * f for r, f in self.shared} | dict.fromkeys(self.rels, self.weight)


CUE_WORDS = frozenset(
    """treat treats treated treating treatment treatments therapy therapies therapeutic
    indicated indication indications used use uses using for against palliate palliates
    palliated palliating palliative relieve relieves relief bind binds binding bound target
    targets targeted targeting product products associated association associations linked
    link links implicated symptom symptoms present presents presented presenting presentation
    sign signs localize localizes localized localise localises localization affect affects
    affected affecting where resemble resembles resembling resembled similar similarity like
    related class classes classified belong belongs belonging member members include includes
    included including contain contains containing side effect effects adverse cause causes
    toxicity toxicities
    caused causing interact interacts interacting interaction interactions partner partners
    upregulate upregulates upregulated downregulate downregulates downregulated express
    expresses expressed expression regulate regulates regulated pathway pathways process
    processes function functions component components clinical clinically body anatomical
    structure structures part parts tissue tissues organ organs pharmacologic pharmacological
    category categories group mechanism mechanisms biological biologically act acts acting
    work works working effective effect way ways route routes how via through might could
    explain involved involve shared share shares sharing common gene-product cure cures
    prescribed prescribe remedy remedies manage managed manifest manifests manifestation
    diagnosis candidate candidates approved given known currently commonly typically
    drug-class drug-classes approved respectively kind kinds""".split()
) | frozenset(KIND_WORDS)


MODIFIERS = frozenset(
    """severe mild moderate acute chronic early late advanced refractory recurrent primary
    secondary pediatric paediatric adult adults elderly patient patients people persons
    individuals subjects cases children child women men infants human humans""".split()
)


def verb_like(token: str) -> bool:
    """Inflected verbs ("featuring", "induced") bound a name rather than belong to it."""
    return len(token) > 4 and (token.endswith("ing") or token.endswith("ed"))


def is_cue_word(token: str) -> bool:
    """A single word that is a relation cue on its own ("receptors", "inhibits")."""
    return any(rx.fullmatch(token) for rx, _, _ in COMPILED_CUES)


def is_structural(token: str) -> bool:
    """True for words that never name an entity on their own."""
    return token in FUNCTION_WORDS or token in CUE_WORDS or token in MODIFIERS
