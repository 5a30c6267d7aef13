"""Wording versus names, and when the bank's reading of a relation outranks the cue words.

The wordings here are our own, not the benchmark's."""

from __future__ import annotations

import pytest

from engine.agent.planner import Planner
from engine.api import Helix
from engine.graph.metapaths import enumerate_metapaths
from engine.result import Status
from engine.understand.bank import Bank
from engine.understand.linking import predicate_after_wh_subject, relation_wording
from engine.understand.mentions import (
    Candidate,
    Mention,
    Token,
    _gene_token_ok,
    abbreviation_only,
    tokenize,
)
from engine.understand.parse import features, noun_chain
from engine.understand.pathfit import score_metapath
from engine.understand.reading import Reading
from engine.understand.semantic import SlotScores
from engine.understand.vocabulary import Language, Vocabulary, name_words, variants
from tests.support.understanding import fixed_reading, named, reading_as

PIECES = {
    "boosts": ["boost", "##s"],
    "druggable": ["drug", "##ga", "##ble"],
    "zorblax": ["zo", "##rb", "##lax"],
    "exposure": ["exposure"],
}


def _language() -> Language:
    return Language(
        {"elevated", "reduce", "highly"}, lambda w: PIECES.get(w, [w[:2], "##" + w[2:]])
    )


# --- vocabulary -----------------------------------------------------------------------------
def test_inflections_of_corpus_words_are_language() -> None:
    assert "elevated" in variants("elevate")
    lang = _language()
    assert lang.knows("elevate") and lang.knows("reduces") and lang.knows("highly")
    assert lang.knows("boosts"), "a known stem plus a short ending"
    assert lang.knows("exposure"), "a whole word of the tokenizer"
    assert not lang.knows("druggable"), "a stem with a long unknown ending"
    assert not lang.knows("zorblax") and not lang.knows("erc2")


def test_name_like_words_depend_on_the_kind_next_to_them() -> None:
    names = name_words(
        [
            ("Disease", "idiopathic pulmonary fibrosis"),
            ("Compound", "Donepezil"),
            ("Pathway", "highly regulated signalling"),
        ]
    )
    vocab = Vocabulary(_language(), names)
    assert vocab.name_like("idiopathic", "idiopathic", 3, ["Disease"])
    assert not vocab.name_like("exposure", "exposure", 3, ["Compound"])
    assert vocab.name_like("Zorblax", "zorblax", 0, ["Compound"]), "unknown to the language"
    assert vocab.name_like("Gaucher", "gaucher", 4), "capitalised inside the sentence"
    assert not vocab.name_like("highly", "highly", 3), "descriptive pathway words say nothing"
    assert vocab.name_like("fibrosis", "fibrosis", 3), "a word of disease names"


# --- abbreviations ---------------------------------------------------------------------------
def test_short_synonyms_and_plural_abbreviations_are_not_names() -> None:
    go = Mention("GO", 5, 7, 1, 1, [Candidate("Gene::92344", "GO", "ncbi-gene", False)])
    preb = Mention("PREB", 30, 34, 6, 6, [Candidate("Gene::10113", "PREB", "hetionet", True)])
    assert abbreviation_only(go) and not abbreviation_only(preb)
    p53 = Mention("p53", 0, 3, 0, 0, [Candidate("Gene::7157", "p53", "ncbi-gene", False)])
    assert not abbreviation_only(p53), "a synonym with a digit is a name"
    assert not _gene_token_ok(Token("AEs", "aes", 5, 8, False), 1)
    assert _gene_token_ok(Token("AES", "aes", 5, 8, False), 1)


# --- the kinds a question names ---------------------------------------------------------------
def test_named_kinds_show_a_chain() -> None:
    q = "Which diseases are treated by drugs in the thiazide class?"
    f = features(q, tokenize(q), [])
    assert f.target_kind == "Disease" and {"Disease", "Compound"} <= f.named_kinds


def _reading_every_question(helix: Helix, slot_id: str, p: float) -> Planner:
    """A planner with the engine's parts that reads every question as ``slot_id`` with
    probability ``p`` (the rest spread over three other slots)."""
    return reading_as(helix.c.planner, fixed_reading(slot_id, p))


def test_confident_reading_is_vetoed_only_by_a_chain() -> None:
    r = fixed_reading("class.drug->class", 0.95)
    path = r.confident_path("Compound", frozenset({"Compound"}), "Compound")
    assert path is not None and path[-1].dst == "Pharmacologic Class", "'what kind of drug is X'"
    assert r.confident_path("Compound", frozenset({"Compound", "Disease"}), "Disease") is None
    treats = fixed_reading("treats.drug->disease", 0.9)
    assert (
        treats.confident_path("Compound", frozenset({"Compound", "Disease"}), "Compound") is None
    ), "'drugs that treat diseases resembling those X treats' is a chain"
    assert (
        fixed_reading("class.drug->class", 0.6).confident_path("Compound", frozenset(), None)
        is None
    )


def test_confident_chain_reading_names_the_whole_chain() -> None:
    r = fixed_reading("multihop.drug->disease->symptom", 0.9)
    path = r.confident_path("Compound", frozenset({"Symptom", "Disease"}), "Symptom")
    assert path is not None and [u.key for u in path] == ["CtD", "DpS"]
    assert r.confident_path("Compound", frozenset({"Gene"}), "Gene") is None, "off the chain"
    assert r.confident_path("Disease", frozenset(), None) is None, "starts at another kind"


def test_kind_nouns_a_slot_uses_in_its_own_wordings_are_not_a_chain() -> None:
    bank = Bank.parse(
        """
one_hop:
  palliates.drug->disease:
    wordings:
      - "Which diseases does [Compound] only relieve the symptoms of?"
      - "[Compound]: symptom relief in which conditions?"
      - "what does [Compound] palliate"
"""
    )
    (slot,) = bank.slots
    assert slot.noun_kinds == frozenset({"Symptom", "Disease"})
    probs = {slot.id: 0.9}
    r = Reading(SlotScores("", dict(probs), probs), {slot.id: slot})
    path = r.confident_path("Compound", frozenset({"Symptom", "Disease"}), "Disease")
    assert path is not None and path[0].rel == "CpD", "'symptoms' is how palliation is said"
    assert r.confident_path("Compound", frozenset({"Gene"}), "Disease") is None


def _mention(question: str, text: str) -> Mention:
    start = question.index(text)
    return Mention(text, start, start + len(text), 0, 0, [])


def test_a_kind_noun_beside_a_mention_of_its_kind_names_the_mention() -> None:
    """ "The LRRK2 *protein*", "the gene BRCA1": the noun says what the mention is, not what
    is asked; a noun of another kind beside it still counts ("asthma *drugs*")."""
    q = "Which catalytic activities does the LRRK2 protein carry?"
    f = features(q, tokenize(q), [named(q, "LRRK2", "Gene::120892")])
    assert f.target_kind is None and not f.named_kinds
    q2 = "Which genes interact with the gene BRCA1?"
    f2 = features(q2, tokenize(q2), [named(q2, "BRCA1", "Gene::672")])
    assert f2.target_kind == "Gene" and f2.named_kinds == {"Gene"}, "the asked noun stays"
    q3 = "Which asthma drugs bind ADRB2?"
    f3 = features(q3, tokenize(q3), [named(q3, "asthma", "Disease::DOID:2841")])
    assert f3.target_kind == "Compound"


def test_noun_chain_reads_the_kinds_said_before_the_entity() -> None:
    q = "Which pharmacologic classes include drugs that treat diseases resembling asthma?"
    tokens = tokenize(q)
    m = _mention(q, "asthma")
    f = features(q, tokens, [m])
    assert f.noun_chain == ("Pharmacologic Class", "Compound", "Disease")
    q2 = "List diseases for which drugs binding the SMPD1 gene product are indicated."
    f2 = features(q2, tokenize(q2), [_mention(q2, "SMPD1")])
    assert f2.noun_chain == ("Disease", "Compound"), "'gene product' describes the mention"
    q3 = "List the gene targets of compounds that treat asthma."
    f3 = features(q3, tokenize(q3), [_mention(q3, "asthma")])
    assert f3.noun_chain == ("Gene", "Compound"), "'gene targets' is one noun"
    q4 = "Which diseases resemble those treated by drugs that bind HRH3?"
    f4 = features(q4, tokenize(q4), [_mention(q4, "HRH3")])
    assert f4.noun_chain == ("Disease", "Disease", "Compound"), "'those' repeats diseases"
    assert noun_chain("drugs", [], []) == ()


def test_a_chain_spelled_by_kind_nouns_outranks_shorter_paths_without_cues() -> None:
    chain = ("Anatomy", "Disease", "Compound")
    scored = sorted(
        (
            (score_metapath(mp, [], "Anatomy", noun_chain=chain), mp)
            for mp in enumerate_metapaths("Compound", 3)
        ),
        key=lambda x: -x[0],
    )
    assert [u.dst for u in reversed(scored[0][1].uses)] == list(chain)


# --- on the real engine slice -----------------------------------------------------------------
@pytest.mark.integration
def test_wording_next_to_a_name_is_not_a_missing_entity(helix) -> None:
    for q in (
        "which genes go up after donepezil exposure",
        "I want the genes whose expression donepezil boosts",
        "what genes are more highly associated with psoriasis than elsewhere",
    ):
        r = helix.ask(q)
        assert r.intent != "not_found", f"{q!r}: {r.text}"
        assert "not in the knowledge graph" not in r.text
        assert "nothing that matches" not in r.text


@pytest.mark.integration
def test_an_unknown_name_next_to_a_known_one_is_still_reported(helix) -> None:
    r = helix.ask("What are the symptoms of Zorblaxian psoriasis?")
    assert r.status is Status.NOT_ANSWERED and r.intent == "not_found", r.text
    assert "Zorblaxian psoriasis" in r.text


@pytest.mark.integration
def test_confident_meaning_outranks_cue_words(helix) -> None:
    plan = helix.c.planner.plan("what kind of drug is donepezil")
    assert plan.intent == "one_hop" and plan.features.target_kind == "Compound"
    first = plan.dist[0][0]
    assert (
        len(first) == 1
        and first.uses[0].rel == "PCiC"
        and first.uses[0].dst == ("Pharmacologic Class")
    ), "the cue words alone read 'kind of drug' as similar drugs"


@pytest.mark.integration
def test_confident_chain_is_not_cut_to_its_first_hop(helix) -> None:
    plan = helix.c.planner.plan("Donepezil indications -> symptoms")
    assert plan.intent == "multi_hop", plan.intent
    assert [u.key for u in plan.dist[0][0].uses] == ["CtD", "DpS"]


@pytest.mark.integration
def test_yes_no_question_about_three_things_is_not_a_claim(helix) -> None:
    plan = helix.c.planner.plan(
        "Is donepezil a better choice than memantine in Alzheimer's disease for daily use?"
    )
    assert plan.intent != "claim", "a comparison is not one edge of the graph"


@pytest.mark.integration
def test_a_stray_unknown_word_does_not_hide_a_known_name(helix) -> None:
    for q in ("targets of donepezil pls", "donepezil AEs"):
        plan = helix.c.planner.plan(q)
        assert [m.text for m in plan.link.mentions] == ["donepezil"], q
        assert plan.intent != "not_found" and not plan.link.unlinked, q


@pytest.mark.integration
def test_a_polite_frame_reads_like_the_bare_question(helix) -> None:
    bare = helix.c.planner.plan("Which genes does donepezil bind?")
    polite = helix.c.planner.plan(
        "Could you kindly tell me which genes donepezil binds? Thank you so much."
    )
    assert polite.intent == bare.intent == "one_hop", polite.intent
    assert polite.dist[0][0].uses == bare.dist[0][0].uses
    seed = polite.seeds[0]
    assert polite.question[seed.start : seed.end] == "donepezil"
    assert not polite.features.yes_no, "'Could you tell me which ...' is not a yes/no question"


@pytest.mark.integration
def test_an_existential_question_about_one_thing_asks_for_a_list(helix) -> None:
    plan = helix.c.planner.plan("Are there any genes that donepezil binds?")
    assert not plan.features.yes_no and plan.intent == "one_hop", plan.intent
    assert plan.dist[0][0].uses[0].rel == "CbG"
    claim = helix.c.planner.plan("Is there evidence that donepezil treats Alzheimer's disease?")
    assert claim.features.yes_no and claim.intent == "claim", claim.intent


@pytest.mark.integration
def test_a_yes_no_opening_that_goes_on_to_ask_for_things_asks_for_them(helix) -> None:
    plan = helix.c.planner.plan("Is donepezil selective — which genes does it bind?")
    assert not plan.features.yes_no and plan.intent == "one_hop", plan.intent
    assert plan.dist[0][0].uses[0].rel == "CbG"
    claim = helix.c.planner.plan("Does donepezil treat Alzheimer's disease? Which trials say so?")
    assert claim.features.yes_no, "about two things it is still the claim"


def test_a_capital_that_opens_a_later_sentence_is_not_a_gene_symbol() -> None:
    tokens = tokenize("Which genes are expressed in the heart? Thank you. And TNF?")
    thank = next(t for t in tokens if t.text == "Thank")
    assert thank.initial and not _gene_token_ok(thank, tokens.index(thank))
    tnf = next(t for t in tokens if t.text == "TNF")
    assert _gene_token_ok(tnf, tokens.index(tnf)), "an upper-case symbol still reads as one"


def test_a_cue_inside_a_longer_cue_is_part_of_it() -> None:
    q = "Which genes are up-regulated in the heart?"
    cues = features(q, tokenize(q), []).cues
    assert [c.text for c in cues] == ["up-regulated"], "'regulated' alone would be Gr>G"


def test_a_kind_word_before_a_hyphen_is_an_adjective() -> None:
    q = "Which disease-modifying drugs exist for psoriasis?"
    f = features(q, tokenize(q), [])
    assert f.target_kind == "Compound" and "Disease" not in f.named_kinds


@pytest.mark.integration
def test_a_wish_frame_and_a_context_clause_read_like_the_bare_question(helix) -> None:
    bare = helix.c.planner.plan("Which drugs treat psoriasis?")
    for q in (
        "I'd like to know which drugs can cure or control psoriasis.",
        "I'm writing a review for a journal club; which drugs treat psoriasis?",
    ):
        plan = helix.c.planner.plan(q)
        assert plan.intent == "one_hop", (q, plan.intent)
        assert plan.dist[0][0].uses == bare.dist[0][0].uses, q
        assert not plan.uncovered or plan.uncovered == ["control"], plan.uncovered


def test_a_kind_word_before_a_noun_of_another_kind_modifies_it() -> None:
    for q, kinds in (
        ("List the therapeutic indications of donepezil.", {"Disease"}),
        ("Give me the drug targets of donepezil.", {"Gene"}),
        ("Which adverse drug reactions does donepezil cause?", {"Side Effect"}),
        ("Which drug classes include donepezil?", {"Pharmacologic Class"}),
    ):
        f = features(q, tokenize(q), [])
        assert set(f.named_kinds) == kinds, (q, f.named_kinds)


def test_nouns_joined_by_a_copula_name_the_same_things() -> None:
    q = "Which genes are targets of drugs that treat asthma?"
    tokens = tokenize(q)
    at = q.index("asthma")
    asthma = Mention("asthma", at, at + 6, len(tokens) - 2, len(tokens) - 2, [])
    assert features(q, tokens, [asthma]).noun_chain == ("Gene", "Compound")


@pytest.mark.integration
def test_a_yes_no_question_about_two_related_things_is_a_claim_without_a_cue(helix) -> None:
    for q in (
        "Would donepezil engage ACHE?",
        "Quick check: is donepezil acting at ACHE?",
        "donepezil and ACHE, yes or no?",
    ):
        plan = helix.c.planner.plan(q)
        assert plan.intent == "claim", (q, plan.intent)
        assert {plan.seeds[0].name, plan.targets[0].name} == {"Donepezil", "ACHE"}, q


def test_a_question_asking_for_things_needs_only_a_likelier_than_not_reading(helix: Helix) -> None:
    """A question that says more than its names and cue words is a graph question when its
    top reading fits its kinds: more probable than not is enough when it asks for things,
    not when it reads like a title."""
    planner = _reading_every_question(helix, "binds.drug->gene", 0.55)
    asks = planner.plan(
        "Which genes does donepezil latch onto between clinic sessions in our ward this week?"
    )
    assert asks.intent == "one_hop" and asks.dist[0][0].uses[0].rel == "CbG", asks.intent
    title = planner.plan(
        "Donepezil latching onto genes between clinic sessions in our ward this week: worth a look?"
    )
    assert title.intent == "literature", title.intent


def test_a_longer_request_in_graph_words_is_a_graph_question_without_a_sure_reading(
    helix: Helix,
) -> None:
    """Extra words that graph questions use ("receptors", "molecular") say how a graph
    question is asked; a request made of them needs no confident reading. Words of its own
    subject matter ("clinic sessions", "ward") still do."""
    planner = _reading_every_question(helix, "binds.drug->gene", 0.35)
    for q in (
        "Show me the receptors and enzymes that donepezil binds to as its molecular targets",
        "Pull up the molecular targets that donepezil binds, please.",  # a verb opens it
    ):
        plan = planner.plan(q)
        assert plan.intent == "one_hop" and plan.dist[0][0].uses[0].rel == "CbG", (q, plan.intent)
    own = planner.plan(
        "Which genes does donepezil latch onto between clinic sessions in our ward this week?"
    )
    assert own.intent == "literature", own.intent


def test_the_kind_asked_for_is_the_noun_of_the_interrogative_phrase() -> None:
    def asked(question: str, name: str) -> str | None:
        return features(question, tokenize(question), [_mention(question, name)]).target_kind

    assert asked("Working on a target list for ESR1; which drugs bind it?", "ESR1") == "Compound"
    assert asked("In which tissues is ESR1 expressed?", "ESR1") == "Anatomy"
    relative = "List diseases for which drugs binding the ESR1 gene product are indicated."
    assert asked(relative, "ESR1") == "Disease", "'for which drugs' opens a relative clause"


def test_the_verb_after_an_interrogative_subject_is_not_part_of_the_name() -> None:
    def verb_slot(question: str, word: str) -> bool:
        tokens = tokenize(question)
        return predicate_after_wh_subject(tokens, [t.norm for t in tokens].index(word))

    assert verb_slot("Which medicines trigger hiccups?", "trigger")
    assert verb_slot("What compounds can trigger hiccups?", "trigger")
    assert not verb_slot("Which drug targets idiopathic hypersomnia?", "idiopathic")
    assert not verb_slot("Does stress trigger hiccups?", "trigger")
    assert verb_slot("Is there a list of medicines that trigger hiccups?", "trigger")
    assert verb_slot("Which agents cause drug-induced hiccups?", "induced")
    assert not verb_slot("Which agents cause exercise-induced asthma?", "induced")
    language = Language(["caused"], pieces=lambda w: [w] if w == "triggered" else [w[:3], "##x"])
    assert language.inflects_as_verb("trigger") and language.inflects_as_verb("cause")
    assert not language.inflects_as_verb("idiopathic"), "an adjective has no past form"


def test_a_plural_noun_after_the_interrogative_is_the_clause_subject() -> None:
    """ "Which enzymes *fall* in X?": a plural noun that is no kind word still stands where the
    subject does, so the word after it is the clause's verb (not the side effect Fall)."""
    language = Language(["enzyme", "cause", "caused", "fall", "falling"])
    assert language.plural_noun("enzymes")
    assert not language.plural_noun("causes"), "its singular is a verb"
    assert not language.plural_noun("enzyme") and not language.plural_noun("analysis")
    tokens = tokenize("Which enzymes fall in psoriasis?")
    assert not predicate_after_wh_subject(tokens, 2), "no kind word before it"
    assert predicate_after_wh_subject(tokens, 2, language.plural_noun)
    tokens = tokenize("What causes fatigue?")
    assert not predicate_after_wh_subject(tokens, 2, language.plural_noun)


def test_a_confident_chain_breaks_a_tie_the_cue_words_leave_open(helix: Helix) -> None:
    """Nothing in "go with" says which gene-disease relation is meant; the bank's confident
    chain reading (drug binds gene, gene associated with disease) decides."""
    planner = _reading_every_question(helix, "multihop.drug->gene->disease", 0.95)
    plan = planner.plan("Which diseases go with the genes that donepezil binds?")
    assert plan.intent == "multi_hop", plan.intent
    top, p = plan.dist[0]
    assert [u.key for u in top.uses] == ["CbG", "DaG^-1"] and p > 0.5, plan.dist[:3]


def test_a_confident_chain_replaces_a_parse_of_its_last_hop(helix: Helix) -> None:
    """The cue words read "drugs that treat X"; the bank reads the whole chain (X's
    look-alike diseases, then the drugs treating them) with confidence."""
    planner = _reading_every_question(helix, "multihop.disease->disease->drug", 0.9)
    plan = planner.plan("Which drugs treat the look-alikes of Alzheimer's disease?")
    top, p = plan.dist[0]
    assert [u.key for u in top.uses] == ["DrD", "CtD^-1"] and p > 0.8, plan.dist[:3]


def test_a_request_made_in_steps_asks_for_what_its_last_step_names() -> None:
    def read(question: str) -> tuple[str | None, tuple[str, ...]]:
        f = features(question, tokenize(question), [_mention(question, "asthma")])
        return f.target_kind, f.noun_chain

    assert read("Find diseases resembling asthma, then list the drugs that treat them.") == (
        "Compound",
        ("Compound", "Disease"),
    )
    assert read("For asthma, first the drugs that treat it, then their side effects.") == (
        "Side Effect",
        ("Side Effect", "Compound"),
    )
    assert read("Which drugs treat asthma?") == ("Compound", ("Compound",)), "one step"


@pytest.mark.integration
def test_a_request_made_in_steps_is_a_chain(helix) -> None:
    for q in (
        "Find the diseases donepezil treats, then list the symptoms of those diseases.",
        "Step 1: diseases donepezil treats. Step 2: their symptoms.",
    ):
        plan = helix.c.planner.plan(q)
        assert plan.intent == "multi_hop", (q, plan.intent)
        assert [u.key for u in plan.dist[0][0].uses] == ["CtD", "DpS"], (q, plan.dist[:2])


@pytest.mark.integration
def test_a_claim_need_not_open_with_its_verb(helix: Helix) -> None:
    """A statement said as a question, or a request to check one, is a claim when the bank
    reads one; a request for things that opens like a yes/no question is not."""
    planner = _reading_every_question(helix, "claim.binds", 0.9)
    for q in (
        "Donepezil binds ACHE?",
        "Can you confirm whether ACHE is among the proteins donepezil latches onto?",
        "Would you say donepezil latches onto ACHE",
    ):
        plan = planner.plan(q)
        assert plan.intent == "claim", (q, plan.intent)
        assert {plan.seeds[0].name, plan.targets[0].name} == {"Donepezil", "ACHE"}, q
    planner = _reading_every_question(helix, "binds.drug->gene", 0.9)
    plan = planner.plan("Can you pull up the genes that donepezil latches onto in the brain?")
    assert plan.intent == "one_hop" and plan.dist[0][0].uses[0].rel == "CbG", plan.intent


@pytest.mark.integration
def test_a_yes_no_question_naming_both_ends_of_a_relation_asks_about_that_edge(
    helix: Helix,
) -> None:
    """In "Is ACHE a GWAS hit for X?" the bank reads the gene-disease relation more than a
    claim; a yes/no question naming both of its ends still asks whether the edge is there."""
    slots = {s.id: s for s in Bank.load().slots}
    probs = {"associates.gene->disease": 0.45, "claim.associates": 0.3, "overview": 0.25}
    planner = reading_as(helix.c.planner, Reading(SlotScores("", dict(probs), probs), slots))
    plan = planner.plan("Is ACHE a GWAS hit for Alzheimer's disease?")
    assert plan.intent == "claim", plan.intent
    there = planner.plan("Are there ACHE changes in Alzheimer's disease?")
    assert there.intent != "claim", "asks whether there is something, not about the edge"


def test_a_mention_that_only_says_what_is_asked_about_the_others_is_wording() -> None:
    # the bank's wordings use the interrogatives too
    words = frozenset({"adverse", "reaction", "nuclear", "receptors", "bind", "which", "what"})

    def kept(q: str, *names: str) -> list[str]:
        named = [_mention(q, t) for t in names]
        tokens = tokenize(q)
        for m in named:
            m.first_token = next(i for i, t in enumerate(tokens) if t.start == m.start)
        return [m.text for m in relation_wording(named, words, tokens)]

    q = "Is glossodynia an adverse reaction to ezetimibe?"
    assert kept(q, "glossodynia", "adverse reaction", "ezetimibe") == ["glossodynia", "ezetimibe"]
    assert kept(q, "adverse reaction", "ezetimibe") == ["adverse reaction", "ezetimibe"]
    q = "Which nuclear receptors does clozapine bind?"
    assert kept(q, "nuclear receptors", "clozapine") == ["clozapine"], "the things asked for"
    q = "Which adverse or nuclear receptors does clozapine bind?"
    assert kept(q, "nuclear receptors", "clozapine") == ["clozapine"]
    q = "Which genes are in nuclear receptors?"
    assert kept(q, "nuclear receptors") == ["nuclear receptors"], "the only thing named"


@pytest.mark.integration
def test_a_statement_said_as_a_question_may_ask_how(helix: Helix) -> None:
    planner = _reading_every_question(helix, "mechanism", 0.9)
    plan = planner.plan("Rationale for donepezil in Alzheimer's disease?")
    assert plan.intent == "mechanism", plan.intent


@pytest.mark.integration
def test_a_statement_said_as_a_question_is_a_claim_when_its_relation_joins_its_ends(
    helix: Helix,
) -> None:
    """ "Donepezil binds ACHE?" is a claim even when the bank reads no claim in it; "<a
    pathway> treats <a disease>?" is none (no drug is named), and a claim the graph does not
    hold is said in the relation's own order."""
    planner = _reading_every_question(helix, "overview", 0.9)
    plan = planner.plan("Donepezil binds ACHE?")
    assert plan.intent == "claim", plan.intent
    store = helix.c.store
    gene = next(n for n in store.ids if n.startswith("Gene::"))
    drugs = [n for n in store.ids if n.startswith("Compound::")]
    disease = next(d for c in drugs for d in store.objects(c, "CtD"))
    q = f"{store.name(gene)} treats {store.name(disease)}?"
    assert planner.plan(q).intent != "claim", q
    other = next(
        c
        for c in drugs
        if disease not in store.objects(c, "CtD") and disease not in store.objects(c, "CpD")
    )
    r = helix.ask(f"{store.name(disease)} is treated by {store.name(other)}?")
    assert r.intent == "claim" and r.status is Status.NOT_ANSWERED, r.text
    assert f"**{store.name(other)}** treats **{store.name(disease)}**" in r.text


@pytest.mark.integration
def test_a_claims_verb_is_read_as_the_relation_that_joins_its_ends(helix: Helix) -> None:
    """ "Does <gene> cause <disease>?": "cause" names a drug's side effects, which join no
    gene and disease; the claim is the gene-disease association the graph holds. A yes/no
    answer says yes or no first, and how a name was read after it."""
    store = helix.c.store
    gene, disease = next(
        (g, d)
        for d in (n for n in store.ids if n.startswith("Disease::"))
        for g in store.objects(d, "DaG")
    )
    r = helix.ask(f"Do mutations in {store.name(gene)} cause {store.name(disease)}?")
    assert r.intent == "claim" and r.status is Status.ANSWERED, r.text
    assert r.text.startswith("Yes"), r.text
    assert [(disease, "DaG", gene)] in r.paths
