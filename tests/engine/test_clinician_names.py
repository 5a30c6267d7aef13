"""Therapy questions and names as clinicians type them, on the real engine slice: treats and
palliates answered together, a disease's initials, a Disease Ontology name the graph holds
under its nearest disease, and a therapy asked of what is no disease."""

from __future__ import annotations

from typing import Any

from engine.result import Status


def test_a_therapy_question_answers_treats_and_palliates_labelled(helix: Any) -> None:
    # Parkinson's disease has palliating drugs only in Hetionet: asking what treats it must
    # not come back empty
    r = helix.ask("what drugs treat Parkinson's disease")
    assert r.status is Status.ANSWERED
    assert r.answers and all(a.kind == "Compound" for a in r.answers)
    assert "symptomatic (palliates)" in r.text and "disease-modifying (treats)" in r.text
    assert {t[1] for p in r.paths for t in p} == {"CpD"}


def test_treats_come_first_and_palliation_asked_in_words_keeps_to_it(helix: Any) -> None:
    both = helix.ask("drugs for type 2 diabetes mellitus")
    rels = [
        {t[1] for p in both.paths for t in p if both.answers[0].id in (t[0], t[2])},
        {t[1] for p in both.paths for t in p if both.answers[-1].id in (t[0], t[2])},
    ]
    assert "CtD" in rels[0]
    only = helix.ask("which drugs palliate Parkinson's disease")
    assert only.status is Status.ANSWERED
    assert "Compounds that palliate" in only.text
    assert "disease-modifying" not in only.text


def test_a_disease_typed_as_its_initials_is_that_disease(helix: Any) -> None:
    r = helix.ask("meds for T2DM")
    assert r.status is Status.ANSWERED
    assert [e.id for e in r.linked] == ["Disease::DOID:9352"]
    assert any("Reading 'T2DM' as type 2 diabetes mellitus" in u for u in r.understood)


def test_a_name_the_graph_lacks_is_read_as_its_nearest_disease(helix: Any) -> None:
    # status epilepticus is a Disease Ontology term under epilepsy, which the graph holds
    r = helix.ask("what is given for status epilepticus")
    assert [e.id for e in r.linked] == ["Disease::DOID:1826"]
    assert r.status is Status.ANSWERED
    assert r.understood and "nearest broader disease" in r.understood[0]
    assert r.text.startswith("Reading 'status epilepticus' as")


def test_lower_case_initials_that_are_an_everyday_word_are_not_a_disease(helix: Any) -> None:
    from engine.understand.mentions import initials

    assert initials("type 2 diabetes mellitus") == "t2dm"
    assert initials("Alzheimer's disease") == "ad"
    assert initials("asthma") is None
    # two lower-case letters are initials only where a name is asked for
    framed = helix.link("what drugs treat pd")
    assert any(e.id == "Disease::DOID:14330" for e in framed)
    bare = helix.link("is pd contagious")
    assert all(e.id != "Disease::DOID:14330" for e in bare)


def test_a_statement_that_denies_a_recorded_edge_is_contradicted(helix: Any) -> None:
    denied = helix.ask("metformin doesn't treat type 2 diabetes mellitus, right?")
    assert denied.intent == "claim"
    assert denied.text.startswith("No — the knowledge graph records that **Metformin** treats")
    asked = helix.ask("Doesn't metformin treat type 2 diabetes mellitus?")
    assert asked.text.startswith("Yes — the knowledge graph records")


def test_a_statement_denies_between_its_names_when_it_opens_so_or_after_both() -> None:
    from engine.understand.negation import denies_between

    def denies(text: str, a: str, b: str) -> bool:
        i, j = text.index(a), text.index(b)
        return denies_between(text, (i, i + len(a)), (j, j + len(b)))

    assert denies("X doesn't treat Y, right?", "X", "Y")
    assert denies("X is not linked to Y", "X", "Y")
    assert denies("no link between X and Y, right?", "X", "Y")
    assert denies("not true that X causes Y?", "X", "Y")
    assert denies("X and Y aren't related, are they", "X", "Y")
    # a negated auxiliary asks for a confirmation; "or not" and a tag deny nothing
    assert not denies("Doesn't X treat Y?", "X", "Y")
    assert not denies("Isn't there a link between X and Y?", "X", "Y")
    assert not denies("does X cause Y or not", "X", "Y")
    assert not denies("X causes Y, no?", "X", "Y")
    assert not denies("X is autoimmune isn't it", "X", "autoimmune")
    assert not denies("X causes Y doesnt it", "X", "Y")
    assert denies("X isn't for Y is it", "X", "Y")


def test_a_claim_denied_before_its_names_is_answered_no(helix: Any) -> None:
    genes = helix.ask("genes associated with Alzheimer's disease")
    gene = genes.answers[0].name
    said = helix.ask(f"is {gene} associated with Alzheimer's disease")
    assert said.intent == "claim" and said.text.startswith("Yes")
    denied = helix.ask(f"no link between {gene} and Alzheimer's disease, right?")
    assert denied.intent == "claim" and denied.text.startswith("No")


def test_eponyms_and_shorthand_as_typed(helix: Any) -> None:
    genes = helix.ask("alzheimers assoc genes")
    assert [e.id for e in genes.linked] == ["Disease::DOID:10652"]
    assert genes.status is Status.ANSWERED and genes.answers[0].kind == "Gene"
    tx = helix.ask("tx for parkinsons")
    assert [e.id for e in tx.linked] == ["Disease::DOID:14330"]
    assert "symptomatic (palliates)" in tx.text
    sx = helix.ask("parkinsons sx")
    assert {t[1] for p in sx.paths for t in p} == {"DpS"}


def test_an_international_drug_name_in_lower_case_is_the_graph_drug(helix: Any) -> None:
    # DrugCentral names Glyburide by its INN, glibenclamide; the graph's node has the US name
    r = helix.ask("what does glibenclamide treat")
    assert [e.id for e in r.linked] == ["Compound::DB01016"]
    assert r.status is Status.ANSWERED
    assert "Disease::DOID:9352" in [a.id for a in r.answers]


def test_a_long_drug_name_with_one_letter_wrong_is_that_drug(helix: Any) -> None:
    r = helix.ask("what is metformine used for")
    assert [e.id for e in r.linked] == ["Compound::DB00331"]
    assert r.status is Status.ANSWERED


def test_a_name_typed_in_the_plural_is_the_name(helix: Any) -> None:
    from engine.understand.linking import singular

    assert [singular(w) for w in ("cancers", "arteries", "diabetes", "sepsis", "ms")] == [
        "cancer",
        "artery",
        "diabete",  # the index holds "diabetes" as written: that span stands
        None,
        None,
    ]
    linked = helix.link("which genes are associated with breast cancers")
    assert [e.id for e in linked] == ["Disease::DOID:1612"]


def test_a_yes_no_question_about_one_drug_and_an_unnamed_matter_is_for_the_literature(
    helix: Any,
) -> None:
    # the graph holds nothing about falls: a list of metformin's relations answers no such
    # question
    r = helix.ask("does metformin reduce falls in elderly people")
    assert r.intent == "literature" and not r.answers
    # a yes/no question naming only a relation of the drug is asked of the graph, and so is
    # one the bank reads as one relation with confidence
    listed = helix.ask("does metformin have any targets")
    assert listed.intent == "one_hop" and listed.answers
    genes = helix.ask("is psoriasis hereditary")
    assert genes.intent == "one_hop" and all(a.kind == "Gene" for a in genes.answers)


def test_what_a_thing_is_names_it_first_with_its_definition(helix: Any) -> None:
    from engine.understand.form import defining

    def asks(text: str, name: str) -> bool:
        at = text.index(name)
        return defining(text, at, at + len(name))

    assert asks("what is SLE?", "SLE") and asks("define sarcoidosis", "sarcoidosis")
    assert asks("what does CML stand for", "CML") and asks("whats cml", "cml")
    assert not asks("what is SLE treated with", "SLE")
    assert not asks("what is the treatment of SLE", "SLE")
    r = helix.ask("what is multiple sclerosis?")
    assert r.status is Status.ANSWERED and r.intent == "overview"
    ms = r.answers[0]
    assert ms.id == "Disease::DOID:2377" and ms.why == "the thing asked"
    description = helix.node_description(ms.id)
    assert description and r.text.startswith(f"**multiple sclerosis**: {description[:40]}")


def test_a_drug_name_cut_short_is_the_drug_it_begins(helix: Any) -> None:
    r = helix.ask("which genes does lamot bind")
    assert [e.id for e in r.linked] == ["Compound::DB00555"]
    assert r.understood == ["Reading 'lamot' as Lamotrigine, the drug whose name it begins."]
    # an everyday word that begins a drug's name is no drug
    assert not any(e.kind == "Compound" for e in helix.link("test results for epilepsy"))


def test_drugs_for_the_diseases_presenting_a_symptom_walk_through_them(helix: Any) -> None:
    r = helix.ask("Which drugs treat diseases that present with chorea?")
    assert r.status is Status.ANSWERED and r.intent == "multi_hop"
    assert r.answers and all(a.kind == "Compound" for a in r.answers)
    assert all(p[0][1] == "DpS" for p in r.paths)


def test_two_things_named_together_are_joined_or_left_to_the_literature(helix: Any) -> None:
    from engine.understand.linking import fills

    joined = helix.ask("donepezil and alzheimer's disease")
    assert joined.intent == "claim" and joined.status is Status.ANSWERED
    assert joined.text.startswith("Yes — the knowledge graph records that **Donepezil**")
    apart = helix.ask("donepezil and psoriasis and epilepsy")
    assert apart.intent == "literature" and not apart.answers
    # a word that is only part of a name is not that name by meaning alone
    assert not fills("shift", "Shift to the left")
    assert fills("pulmonary fibrosis", "idiopathic pulmonary fibrosis")


def test_a_receptor_named_without_its_number_is_its_family(helix: Any) -> None:
    asked = helix.ask("what binds the dopamine receptor")
    # the family, asked about; never dopamine the drug
    assert asked.status is Status.NEEDS_CLARIFICATION
    assert len(asked.candidates) >= 2
    assert all(c.name.startswith("DRD") for c in asked.candidates)
    claim = helix.ask("does pramipexole act on the dopamine receptor?")
    assert claim.intent == "claim" and claim.status is Status.ANSWERED
    assert claim.answers[0].name.startswith("DRD")
    assert claim.text.startswith("Yes — the knowledge graph records that **Pramipexole** binds")


def test_a_gene_symbol_in_lower_case_where_a_gene_is_asked_for(helix: Any) -> None:
    r = helix.ask("which drugs inhibit comt")
    assert [e.id for e in r.linked] == ["Gene::1312"]
    assert r.status is Status.ANSWERED and all(a.kind == "Compound" for a in r.answers)
    # not framed as a gene: left alone
    assert not any(e.kind == "Gene" for e in helix.link("comt is what i typed"))


def test_is_a_drug_a_member_of_a_class(helix: Any) -> None:
    # the class's name in the singular ("inducer" of Cytochrome P450 3A4 Inducers)
    r = helix.ask("is topiramate a cytochrome p450 3a4 inducer?")
    assert r.intent == "claim" and r.status is Status.ANSWERED
    assert r.text.startswith("Yes — the knowledge graph records that **Cytochrome P450 3A4")
    assert r.paths and r.paths[0][0][1] == "PCiC"
    no = helix.ask("is lamotrigine a cytochrome p450 3a4 inducer?")
    assert no.intent == "claim" and no.status is Status.NOT_ANSWERED


def test_a_class_for_a_side_effect_asks_for_a_remedy_never_what_causes_it(helix: Any) -> None:
    from engine.agent.planner import _class_for_it
    from engine.result import LinkedEntity

    def cls(text: str, name: str) -> list[LinkedEntity]:
        at = text.index(name)
        return [
            LinkedEntity(
                mention=name,
                id="Pharmacologic Class::X",
                name=name,
                kind="Pharmacologic Class",
                score=1.0,
                method="exact",
                start=at,
                end=at + len(name),
            )
        ]

    assert _class_for_it("anticoagulants for dvt", cls("anticoagulants for dvt", "anticoagulants"))
    assert not _class_for_it(
        "which anticoagulants cause dvt", cls("which anticoagulants cause dvt", "anticoagulants")
    )
    r = helix.ask("cytochrome p450 3a4 inducers for nausea")
    # what causes nausea is no answer to what to give for it
    assert not any(t[1] == "CcSE" for p in r.paths for t in p)


def test_a_disease_said_with_an_everyday_word_of_care_is_that_disease(helix: Any) -> None:
    # "bipolar maintenance" is no name; its part "bipolar" is (bipolar disorder), and
    # "maintenance" is a word of everyday language
    r = helix.ask("bipolar maintenance meds")
    assert r.status is Status.ANSWERED
    assert [e.id for e in r.linked] == ["Disease::DOID:3312"]
    assert r.answers and all(a.kind == "Compound" for a in r.answers)
    # a word that could be part of a name the graph lacks keeps the phrase unlinked
    odd = helix.ask("bipolar zorblaxia meds")
    assert odd.status is Status.NOT_ANSWERED


def test_a_disease_said_with_words_the_graph_has_no_name_for_is_read_as_that_disease(
    helix: Any,
) -> None:
    from engine.ingest.nearest import BROADER
    from engine.understand.linking import Linker

    # without a vocabulary every word may be part of a name: the whole phrase is a longer
    # name, which the graph lacks
    linker = Linker(helix.c.store, helix.c.planner.linker.aliases, helix.settings)
    found = linker.link("genes in familial epilepsy", whole_names=True)
    assert not found.unlinked
    [m] = found.mentions
    assert m.text == "familial epilepsy"
    assert {helix.c.store.kind(n) for n in m.node_ids} == {"Disease"}
    assert {c.source for c in m.candidates} == {BROADER}
    # a word that negates the disease keeps the phrase apart
    assert linker.link("genes in non epilepsy", whole_names=True).unlinked


def test_a_body_part_before_a_drug_form_is_its_route_not_a_subject(helix: Any) -> None:
    store, linker = helix.c.store, helix.c.planner.linker
    part = next(
        name
        for _, name in sorted(store.names_of_kind("Anatomy"))
        if name.isalpha()
        and [
            store.kind(n)
            for m in linker.link(f"what does the {name} express").mentions
            for n in m.node_ids
        ]
        == ["Anatomy"]
    )
    drops = linker.link(f"{part} drops for Alzheimer's disease", whole_names=True).mentions
    assert [store.kind(n) for m in drops for n in m.node_ids] == ["Disease"]


def test_a_claim_that_a_drug_treats_a_symptom_is_read_of_a_disease_saying_more() -> None:
    from engine.agent.planner import says_more

    assert says_more("bulimia nervosa", "bulimia")
    assert says_more("anxiety disorder", "Anxiety")
    # a name saying less is another claim: allopurinol treats gout, not acute gout attacks
    assert not says_more("gout", "gout attack")
    assert not says_more("obesity", "Obesity, Abdominal")


def _symptom_only(helix: Any) -> str:
    """The first one-word symptom name that links to a symptom only."""
    store = helix.c.store
    return next(
        name
        for _, name in sorted(store.names_of_kind("Symptom"))
        if name.isalpha() and [store.kind(e.id) for e in helix.link(name)] == ["Symptom"]
    )


def _named_disease_is(monkeypatch: Any, disease: str) -> None:
    """Every symptom names ``disease``, by more words than its own."""
    import engine.agent.planner as planner

    monkeypatch.setattr(planner, "disease_named_by", lambda _s, _said, _uses=None: disease)
    monkeypatch.setattr(planner, "says_more", lambda _name, _said: True)


def test_a_claim_that_a_drug_treats_a_symptom_the_graph_names_a_disease_by(
    helix: Any, monkeypatch: Any
) -> None:
    store = helix.c.store
    disease = "Disease::DOID:10652"
    drug = next(t[0] for t in helix.triples(disease, "CtD", 5))
    symptom = _symptom_only(helix)
    # the graph's disease for the symptom, named by more words than the symptom's
    _named_disease_is(monkeypatch, disease)
    r = helix.ask(f"{store.name(drug)} treats {symptom.lower()}?")
    assert r.intent == "claim" and r.text.startswith("Yes")
    assert [a.id for a in r.answers] == [disease]
    assert any("the disease its name says" in u for u in r.understood), r.understood


def test_a_claim_about_a_name_read_as_its_broader_disease_is_not_confirmed_as_said(
    helix: Any,
) -> None:
    from engine.ingest.nearest import BROADER

    store, aliases = helix.c.store, helix.c.planner.linker.aliases
    found = None
    for key, cands in sorted(aliases.by_key.items()):
        if len(cands) != 1 or cands[0].source != BROADER or not key.isascii():
            continue
        disease = cands[0].node_id
        drug = next((t[0] for t in helix.triples(disease, "CtD", 5)), None)
        if drug is not None and " " in key:
            found = (cands[0].alias, disease, drug)
            break
    assert found is not None
    said, disease, drug = found
    r = helix.ask(f"does {store.name(drug)} treat {said}?")
    assert r.intent == "claim"
    assert r.text.startswith(f"I can't confirm that for '{said}' itself")
    assert store.name(disease) in r.text


def test_how_a_drug_works_in_a_symptom_the_graph_names_a_disease_by(
    helix: Any, monkeypatch: Any
) -> None:
    store = helix.c.store
    disease = "Disease::DOID:10652"
    drug = next(t[0] for t in helix.triples(disease, "CtD", 5))
    symptom = _symptom_only(helix)
    _named_disease_is(monkeypatch, disease)
    r = helix.ask(f"how does {store.name(drug)} work in {symptom.lower()}")
    assert r.intent == "mechanism"
    assert [e.id for e in r.linked][-1] == disease


def test_a_symptom_named_in_one_number_is_also_the_side_effect_named_in_the_other() -> None:
    from engine.understand.linking import Linker
    from engine.understand.mentions import Candidate, Mention

    kinds = {"S::1": "Symptom", "E::1": "Side Effect", "D::1": "Disease"}
    index = {
        "hallucination": [Candidate("E::1", "Hallucination", "sider", True)],
        "hallucinations": [Candidate("S::1", "Hallucinations", "mesh", True)],
        "migraines": [Candidate("D::1", "migraine", "do", False)],
    }

    class Store:
        def kind(self, node_id: str) -> str:
            return kinds[node_id]

    class Aliases:
        def get(self, key: str) -> list[Candidate]:
            return index.get(key, [])

    linker = Linker.__new__(Linker)
    linker.store, linker.aliases = Store(), Aliases()  # type: ignore[assignment]

    def said(text: str, key: str) -> list[str]:
        m = Mention(text, 0, len(text), 0, 0, list(index[key]))
        return linker._number_kin(m).node_ids

    assert said("hallucinations", "hallucinations") == ["S::1", "E::1"]
    assert said("hallucination", "hallucination") == ["E::1", "S::1"]
    # a disease is no such concept
    assert said("migraines", "migraines") == ["D::1"]


def test_genes_of_a_side_effect_are_those_of_the_disease_its_name_says(
    helix: Any, monkeypatch: Any
) -> None:
    import engine.agent.planner as planner

    store = helix.c.store
    disease = "Disease::DOID:10652"
    said = _symptom_only(helix)
    asked: list[object] = []

    def named_by(_store: object, _said: str, uses: object = None) -> str:
        asked.append(uses)
        return disease

    monkeypatch.setattr(planner, "disease_named_by", named_by)
    r = helix.ask(f"{said.lower()} genes")
    assert r.status is Status.ANSWERED and r.answers and r.answers[0].kind == "Gene"
    assert r.linked[0].id == disease
    assert r.understood[0].startswith(f"Reading '{said.lower()}' as {store.name(disease)}")
    assert "the graph records genes of diseases" in r.understood[0]
    # looked up among the diseases that have genes, not among those with drugs
    assert any(u and {x.rel for x in u} == {"DaG"} for u in asked)  # type: ignore[attr-defined]


def test_infections_and_tumours_asked_of_a_drug_are_the_diseases_it_treats(helix: Any) -> None:
    drug = helix.c.store.name(next(t[0] for t in helix.triples("Disease::DOID:10652", "CtD", 5)))
    planner = helix.c.planner
    for asked in (f"{drug.lower()} what infections", f"which tumours is {drug} used for"):
        assert planner.plan(asked).features.target_kind == "Disease", asked
        r = helix.ask(asked)
        assert r.status is Status.ANSWERED, asked
        assert r.answers and {a.kind for a in r.answers} == {"Disease"}, asked


def test_how_a_drug_works_in_a_disease_no_path_joins_it_to_is_what_it_acts_on(
    helix: Any, monkeypatch: Any
) -> None:
    import engine.agent.loop as loop
    from engine.agent.reviewer import Verdict, review_paths

    drug = "Compound::DB00843"  # donepezil
    targets = {t[2] for t in helix.triples(drug, "CbG", 200)}
    assert targets
    walked: list[int] = []

    def no_mechanism_path(paths: Any, threshold: float) -> Verdict:
        # the mechanism's walk (paths of two hops and more) finds nothing
        if paths and all(len(p.uses) > 1 for p in paths):
            walked.append(len(paths))
            return Verdict(False, 0.0, "no path reaches an answer")
        return review_paths(paths, threshold)

    monkeypatch.setattr(loop, "review_paths", no_mechanism_path)
    r = helix.ask("how does donepezil work in Alzheimer's disease")
    assert walked
    assert r.intent == "mechanism" and r.status is Status.ANSWERED
    assert r.answers and {a.id for a in r.answers} <= targets
    assert r.text.startswith("No path in the graph joins what Donepezil acts on to")


def test_a_one_letter_slip_is_the_drug_every_name_so_close_belongs_to() -> None:
    from engine.understand.linking import Linker
    from engine.understand.mentions import Candidate

    index = {
        "ibuprofen": [Candidate("C::1", "Ibuprofen", "hetionet", True)],
        "ibuprocin": [Candidate("C::1", "Ibuprocin", "drugbank", False)],
        "cefazolin": [Candidate("C::2", "Cefazolin", "hetionet", True)],
        "cefazilin": [Candidate("C::3", "Cefazilin", "drugbank", False)],
    }

    class Aliases:
        common: frozenset[str] = frozenset()

        def near_length(self, n: int) -> list[str]:
            return [k for k in index if abs(len(k) - n) <= 2]

        def get(self, key: str) -> list[Candidate]:
            return index.get(key, [])

    linker = Linker.__new__(Linker)
    linker.aliases, linker.vocabulary, linker.fuzzy_accept = Aliases(), None, 90.0  # type: ignore[assignment]
    assert [k for k, _ in linker._fuzzy("ibuprofin")] == ["ibuprofen"]
    # two close names of two drugs: no reading
    assert linker._fuzzy("cefazalin") == []


def test_a_condition_named_before_a_noun_for_drugs_asks_for_a_remedy() -> None:
    from engine.agent.planner import _drugs_after
    from engine.result import LinkedEntity

    def said(question: str, name: str) -> bool:
        at = question.index(name)
        seed = LinkedEntity(
            mention=name, id="SE::1", name=name, kind="Side Effect", score=1.0,
            method="exact", start=at, end=at + len(name),
        )  # fmt: skip
        return _drugs_after(question, seed)

    assert said("nausea drugs", "nausea")
    assert said("any good anxiety meds?", "anxiety")
    assert said("pulmonary arterial hypertension medications", "pulmonary arterial hypertension")
    assert not said("drugs that cause nausea", "nausea")
    assert not said("nausea with metformin", "nausea")
