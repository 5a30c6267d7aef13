"""The relation vocabulary that comes from the data: action-type forms made by rule, cue words
from KGX predicates, data relations in metapath enumeration, and how their answers read."""

from __future__ import annotations

from engine.graph.actions import action_of
from engine.graph.metapaths import DATA_MAX_LEN, enumerate_metapaths
from engine.graph.relations import DirectedRel, use_phrase
from engine.understand.actions import ActionVocabulary
from engine.understand.datarel import DataVocabulary, data_cues, data_uses, predicate_words
from engine.understand.lexicon import Cue

DRUGCENTRAL = [
    "inhibitor",
    "agonist",
    "antagonist",
    "blocker",
    "positive allosteric modulator",
    "activator",
    "partial agonist",
    "substrate",
    "other",
]
ROWS = [
    ("has_phenotype", "DpS", "Disease", "Symptom"),
    ("gene_associated_with_condition", "DaG", "Disease", "Gene"),
    ("has_mode_of_inheritance", "has_mode_of_inheritance", "Disease", "Symptom"),
    ("causes", "causes", "Sequence Variant", "Disease"),
    ("subclass_of", "DsD", "Disease", "Disease"),
]


def test_action_forms_are_made_from_the_stored_type() -> None:
    inhibitor = action_of("INHIBITOR")
    assert (inhibitor.name, inhibitor.verb, inhibitor.third) == ("inhibitor", "inhibit", "inhibits")
    assert {"inhibitors", "inhibited", "inhibiting", "inhibition"} <= set(inhibitor.forms)
    assert {"agonize", "agonizes", "agonise", "agonism"} <= set(action_of("agonist").forms)
    assert {"activate", "activation", "activated"} <= set(action_of("activator").forms)
    assert action_of("blocker").verb == "block"
    pam = action_of("positive allosteric modulator")
    assert pam.verb is None and pam.plural == "positive allosteric modulators"
    assert action_of("substrate").verb is None


def test_the_longest_action_outside_the_names_is_found() -> None:
    vocab = ActionVocabulary(DRUGCENTRAL)
    assert "other" not in vocab.actions  # a function word is no action to ask for
    hit = vocab.find("which drugs are partial agonists of drd2?")
    assert hit is not None and hit.action.name == "partial agonist"
    hit = vocab.find("what does imatinib inhibit?")
    assert hit is not None and (hit.action.name, hit.text) == ("inhibitor", "inhibit")
    assert vocab.find("agonist x", spans=[(0, 9)]) is None  # inside a mention
    assert vocab.find("what treats asthma?") is None
    assert {"inhibit", "agonize", "blockers", "substrates"} <= vocab.words
    assert not {"positive", "allosteric", "partial"} & vocab.words  # modifiers may name


def test_predicate_words_become_cues_for_what_they_became() -> None:
    assert predicate_words("has_mode_of_inheritance") == ["mode", "inheritance"]
    assert predicate_words("gene_associated_with_condition") == ["associated"]
    cues = {c.word: c for c in data_cues(ROWS)}
    # a Hetionet relation's cue words already read 'associated'; DsD is not walked
    assert set(cues) == {"phenotype", "mode", "inheritance", "causes"}
    assert cues["phenotype"].rels == ("DpS",) and cues["phenotype"].weight == 1.0
    assert cues["phenotype"].pattern.search("what phenotypes does x have")
    assert cues["phenotype"].pattern.search("phenotypic features")
    assert cues["mode"].pattern.search("the mode of") and not cues["mode"].pattern.search("model")
    assert cues["causes"].weight == 0.5  # only words other cues read: weak


def test_data_cues_join_static_cues_at_the_same_place() -> None:
    vocab = DataVocabulary(ROWS, DRUGCENTRAL)
    static = (Cue(("CcSE",), 15, 20, "cause", 0.5),)
    cues = vocab.find_cues("which variants cause x?", static, [(21, 22)])
    assert [(c.text, c.rels) for c in cues] == [("cause", ("CcSE", "causes"))]
    norm = "what does x inhibit and what phenotypes"
    cues = vocab.find_cues(norm, (), [(10, 11)])
    assert [(c.text, c.rels) for c in cues] == [("inhibit", ("CbG",)), ("phenotypes", ("DpS",))]
    assert vocab.asked_kind("which variants cause x?", []) == ("Sequence Variant", 6)
    assert not DataVocabulary([], [])  # a Hetionet-only store adds nothing


def test_data_relations_are_walked_in_short_metapaths_only() -> None:
    uses = data_uses(ROWS)
    assert DirectedRel("has_mode_of_inheritance", False, "Disease", "Symptom") in uses
    assert DirectedRel("causes", True, "Disease", "Sequence Variant") in uses
    assert all(u.rel not in {"DpS", "DaG", "DsD"} for u in uses)
    plain = enumerate_metapaths("Disease", 3)
    extended = enumerate_metapaths("Disease", 3, uses)
    assert set(plain) < set(extended)
    data = [mp for mp in extended if any(u in uses for u in mp.uses)]
    assert data and max(len(mp) for mp in data) == DATA_MAX_LEN
    assert enumerate_metapaths("Disease", 3, ()) == plain


def test_answers_read_from_the_data() -> None:
    typed = DirectedRel("CbG", False, "Compound", "Gene", "inhibitor")
    assert typed.key == "CbG[inhibitor]" and typed.verb == "inhibits"
    assert use_phrase(typed, "Imatinib", "Genes") == "Genes that Imatinib inhibits"
    agonist = DirectedRel("CbG", True, "Gene", "Compound", "agonist")
    assert use_phrase(agonist, "DRD2", "Compounds") == "Compounds that agonize DRD2"
    substrate = DirectedRel("CbG", True, "Gene", "Compound", "substrate")
    assert use_phrase(substrate, "CYP3A4", "Compounds") == "Compounds that are substrates of CYP3A4"
    moi = DirectedRel("has_mode_of_inheritance", False, "Disease", "Symptom")
    assert (
        use_phrase(moi, "Marfan syndrome", "Symptoms") == "Mode of inheritance of Marfan syndrome"
    )
    model = DirectedRel("model_of", True, "Disease", "Genotype")
    assert use_phrase(model, "X", "Genotype") == "Genotypes that are model of X"
    assert use_phrase(DirectedRel("CtD", True, "Disease", "Compound"), "X", "Compounds") == (
        "Compounds that treat X"
    )
    for inverse, (src, dst) in ((False, ("Disease", "Gene")), (True, ("Gene", "Disease"))):
        dag = DirectedRel("DaG", inverse, src, dst)
        assert use_phrase(dag, "Y", dst + "s") == f"{dst}s associated with Y"
