"""A disease's initials as an alias: made from its name and DO label, cut to the most
connected disease when one dominates those sharing them."""

from __future__ import annotations

from collections.abc import Iterator

from engine.graph.store import KGStore
from engine.understand.mentions import INITIALISM, Candidate, central, initialisms, initials


def test_initials_keep_numbers_and_drop_the_possessive() -> None:
    assert initials("type 2 diabetes mellitus") == "t2dm"
    assert initials("chronic obstructive pulmonary disease") == "copd"
    assert initials("Alzheimer's disease") == "ad"
    assert initials("non-small cell lung cancer") == "nsclc"
    assert initials("asthma") is None


def test_only_names_and_labels_give_initials_not_synonyms() -> None:
    rows = [
        ("ulcerative colitis", "Disease::DOID:8577", "ulcerative colitis", "hetionet", True),
        ("hay fever", "Disease::DOID:4481", "hay fever", "disease-ontology", False),
        ("ckd", "Disease::DOID:784", "chronic kidney disease", "disease-ontology-label", False),
        ("gene", "Gene::1", "some gene name", "ncbi-gene", True),
    ]
    keys = [key for key, _ in initialisms(rows)]
    assert keys == ["uc", "ckd"]
    assert all(c.source == INITIALISM for _, c in initialisms(rows))


def test_the_most_connected_disease_takes_initials_it_dominates() -> None:
    def cand(node: str) -> Candidate:
        return Candidate(node, "MS", INITIALISM, False)

    links = {"ms": 900, "msx": 200, "ad1": 300, "ad2": 200}.__getitem__
    out = central([("ms", cand("ms")), ("ms", cand("msx"))], links)
    assert [c.node_id for c in out["ms"]] == ["ms"]
    close = central([("ad", cand("ad1")), ("ad", cand("ad2"))], links)
    assert [c.node_id for c in close["ad"]] == ["ad1", "ad2"]


def test_an_eponymous_disease_name_is_typed_without_its_apostrophe_or_its_noun() -> None:
    from engine.understand.mentions import EPONYM, eponyms

    rows = [
        ("alzheimer s disease", "Disease::DOID:10652", "Alzheimer's disease", "hetionet", True),
        (
            "paget s disease of bone",
            "Disease::DOID:5408",
            "Paget's disease of bone",
            "hetionet",
            True,
        ),
        ("parkinson s disease", "Side Effect::C1", "Parkinson's disease", "hetionet", True),
    ]
    keys = {key: c for key, c in eponyms(rows)}
    assert set(keys) == {
        "alzheimers disease",
        "alzheimers",
        "alzheimer s",
        "pagets disease of bone",
    }
    assert all(c.source == EPONYM for c in keys.values())


def test_clinical_shorthand_is_written_out_for_the_reading() -> None:
    from engine.understand.lexicon import KIND_WORDS, written_out

    assert written_out("tx of gout") == "treatment of gout"
    assert written_out("Parkinson sx and MOA of levodopa") == (
        "Parkinson symptoms and mechanism of action of levodopa"
    )
    assert written_out("txt taxes") == "txt taxes"
    assert written_out("se of amlodipine, side fx of x, AEs") == (
        "side effects of amlodipine, side effects of x, adverse effects"
    )
    assert KIND_WORDS["sx"] == "Symptom"


def test_two_lower_case_letters_are_initials_only_where_a_name_is_asked_for() -> None:
    from engine.understand.mentions import framed, tokenize

    def at(text: str, word: str) -> bool:
        tokens = tokenize(text)
        return framed(tokens, next(i for i, t in enumerate(tokens) if t.norm == word))

    assert at("meds for ra", "ra")  # after a preposition that follows a kind noun
    assert at("ra drugs", "ra")  # beside a kind noun
    assert at("what are the symptoms in ms", "ms")
    assert at("meds used in ms", "ms")  # after a cue that ends in its preposition
    assert at("is it approved for ra", "ra")
    assert at("first line for ms", "ms")  # after a cue of several words and a preposition
    assert not at("is ms contagious", "ms")
    assert not at("anything new in ms", "ms")
    assert not at("what is ra", "ra")


def test_a_framed_pair_of_letters_links_its_disease_on_the_real_slice(helix) -> None:  # type: ignore[no-untyped-def]
    from engine.understand.mentions import initials

    aliases = helix.c.planner.linker.aliases
    names = [
        n
        for (n,) in helix.c.store.con.execute(
            "SELECT name FROM nodes WHERE kind = 'Disease'"
        ).fetchall()
    ]
    keys = sorted(
        k
        for n in names
        if (k := initials(n)) is not None
        and len(k) == 2
        and aliases.get(k)
        and all(c.source == INITIALISM for c in aliases.get(k))
    )
    assert keys, "the slice has a disease known by two initials alone"
    key = keys[0]
    linked = {e.id for e in helix.link(f"drugs for {key}")} & {
        e.id for e in helix.link(f"{key} drugs")
    }
    assert linked <= {c.node_id for c in aliases.get(key)} and linked
    assert not helix.link(f"is {key} ok")


def test_two_letters_listed_beside_a_disease_are_its_kin_s_initials(helix) -> None:  # type: ignore[no-untyped-def]
    from engine.understand.mentions import initials

    aliases = helix.c.planner.linker.aliases
    rows = helix.c.store.con.execute(
        "SELECT id, name FROM nodes WHERE kind = 'Disease' ORDER BY name"
    ).fetchall()
    pairs = [
        (nid, k)
        for nid, n in rows
        if (k := initials(n)) is not None
        and len(k) == 2
        and aliases.get(k)
        and all(c.source == INITIALISM for c in aliases.get(k))
    ]
    assert pairs, "the slice has a disease known by two initials alone"
    nid, key = pairs[0]
    other = next(n for i, n in rows if i != nid and " " not in n and len(n) > 4)
    assert nid not in {e.id for e in helix.link(f"what about {key}")}
    for text in (f"genes shared by {other} and {key}", f"{key} or {other}: which genes"):
        assert nid in {e.id for e in helix.link(text)}, text


def test_a_line_of_therapy_and_side_effect_shorthand_are_relation_cues() -> None:
    from engine.understand.parse import find_cues

    def rels(text: str) -> set[str]:
        return {r for c in find_cues(text.lower(), [], text) for r in c.rels}

    assert "CtD" in rels("first line for htn")
    assert "CtD" in rels("second-line agents for epilepsy")
    assert "CcSE" in rels("se of amlodipine")
    assert "CcSE" in rels("zoloft side fx")
    assert not rels("which line is it on, and what does it see") & {"CtD", "CcSE"}


def test_clinical_shorthand_is_never_a_diseases_initials() -> None:
    rows = [
        ("mucocele of appendix", "Disease::DOID:13248", "mucocele of appendix", "hetionet", True),
        ("acute endophthalmitis", "Disease::X", "acute endophthalmitis", "hetionet", True),
        ("ulcerative colitis", "Disease::DOID:8577", "ulcerative colitis", "hetionet", True),
    ]
    # "moa of the first one", "ae of warfarin": a mechanism of action, adverse effects
    assert [key for key, _ in initialisms(rows)] == ["uc"]


def test_a_claim_about_a_disease_named_by_its_initials_says_yes_before_how_it_read_them(
    helix,  # type: ignore[no-untyped-def]
) -> None:
    from engine.result import Status
    from engine.understand.mentions import initials

    store = helix.c.store
    aliases = helix.c.planner.linker.aliases

    def by_initials(disease: str) -> str | None:
        key = initials(store.name(disease))
        cands = aliases.get(key) if key and len(key) >= 4 else []
        return key if [(c.node_id, c.source) for c in cands] == [(disease, INITIALISM)] else None

    found = next(
        (
            (drug, disease, key)
            for drug, disease in _treated(store)
            if (key := by_initials(disease))
        ),
        None,
    )
    assert found, "the slice has a treated disease known by its initials"
    drug, disease, key = found
    r = helix.ask(f"does {store.name(drug)} treat {key.upper()}?")
    assert r.intent == "claim" and r.status is Status.ANSWERED, r.text
    assert r.text.startswith("Yes"), r.text
    assert r.text.rstrip().endswith(
        f"Reading '{key.upper()}' as {store.name(disease)}, a disease with these initials."
    )


def test_the_words_of_a_cue_of_several_words_are_wording() -> None:
    from engine.understand.mentions import phrase_cue_tokens, tokenize

    tokens = tokenize("first line for ms")
    assert phrase_cue_tokens(tokens) == {0, 1}  # "first line": no name the graph lacks
    assert phrase_cue_tokens(tokenize("first patient seen")) == set()


def test_a_diseases_short_name_beside_a_drug_is_kept_where_a_name_is_asked_for(
    helix,  # type: ignore[no-untyped-def]
) -> None:
    """Short letters beside another name are dropped as an abbreviation of the field ("GO
    terms"), but not a disease's short name after a relation word ("does imatinib treat
    CML")."""
    from engine.understand.mentions import SHORT_SYNONYM
    from engine.util.text import alias_key

    store = helix.c.store
    aliases = helix.c.planner.linker.aliases

    def short_name(disease: str) -> str | None:
        for (alias,) in store.con.execute(
            "SELECT alias FROM aliases WHERE node_id = ?", [disease]
        ).fetchall():
            key = alias_key(alias)
            cands = aliases.get(key)
            if (
                key.isalpha()
                and 2 < len(key) <= SHORT_SYNONYM
                and cands
                and not any(c.primary for c in cands)
                and disease in {c.node_id for c in cands}
            ):
                return str(alias).upper()
        return None

    found = next(
        (
            (drug, disease, short)
            for drug, disease in _treated(store)
            if (short := short_name(disease))
        ),
        None,
    )
    assert found, "the slice has a treated disease with a short synonym"
    drug, disease, short = found
    linked = {e.id for e in helix.link(f"does {store.name(drug)} treat {short}")}
    assert disease in linked, (short, linked)


def _treated(store: KGStore) -> Iterator[tuple[str, str]]:
    """(drug, disease) for each treats edge of the store, drug by drug."""
    treats = next(u for u in store.uses() if u.rel == "CtD" and not u.inverse)
    for drug in (n for n in store.ids if n.startswith("Compound::")):
        for j in store.neighbors(store.index[drug], treats).tolist():
            yield drug, store.ids[j]
