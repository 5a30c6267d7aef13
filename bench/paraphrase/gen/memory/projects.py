"""Sections of the memory replay about research: notes on KG entities and project facts."""

from __future__ import annotations

from collections import defaultdict

from ..kg import KIND, NAME
from ..slots import PLACEHOLDER_KIND, fill
from .pools import PROJECTS


class ProjectSections:
    """The research sections of ``MemoryStream`` (mixed in; they use its generator and events)."""

    def research_notes(self) -> None:
        """Research notes about KG entities (subject = the entity)."""
        NOTE_REL = {
            "inhibits": ("Compound", self.drugs, "Gene", self.genes),
            "upregulates": ("Compound", self.drugs, "Gene", self.genes),
            "biomarker_for": ("Gene", self.genes, "Disease", self.diseases),
            "candidate_for": ("Compound", self.drugs, "Disease", self.diseases),
        }
        # user -> subject -> relation -> object
        note_subjects: dict[str, dict[str, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))
        used_subj: set[str] = set()
        for rel, (sph, spool, oph, opool) in NOTE_REL.items():
            holders = []
            for k, tpl in enumerate(self.M[rel]["say"]):
                u = next(self.user_cycle)
                # some subjects reuse a subject the user already noted for another relation
                # (for null probes)
                mine = [
                    s
                    for s in note_subjects[u]
                    if rel not in note_subjects[u][s] and KIND[s] == PLACEHOLDER_KIND[sph]
                ]
                if k % 3 == 0 and mine:
                    s = self.rng.choice(sorted(mine))
                else:
                    s = self.rng.choice([x for x in spool if x not in used_subj])
                used_subj.add(s)
                o = self.rng.choice(opool)
                note_subjects[u][s][rel] = o
                holders.append((u, s))
                stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                otxt = self.drug_text(o) if oph == "Compound" else NAME[o]
                self.say(
                    u,
                    self.at(self.rng.choice([1, 2, 3, 4, 5])),
                    fill(tpl, {sph: stxt, oph: otxt}),
                    (s, rel, o),
                )
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    u0, _ = holders[k % len(holders)]
                    others = sorted(
                        s
                        for s in note_subjects[u0]
                        if rel not in note_subjects[u0][s] and KIND[s] == PLACEHOLDER_KIND[sph]
                    )
                    if others:
                        s = self.rng.choice(others)
                        stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                        self.ask(
                            u0,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {sph: stxt}),
                            None,
                            probe="null-norel",
                        )
                        continue
                u, s = holders[k % len(holders)]
                stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                self.ask(
                    u,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {sph: stxt}),
                    note_subjects[u][s][rel],
                )

    def project_facts(self) -> None:
        """Projects: lead compound (some switched), key result, target gene."""
        self.proj_pool = PROJECTS[:]
        self.rng.shuffle(self.proj_pool)
        lead_projects = []
        for tpl in self.M["lead_compound"]["say"]:
            pr = self.new_project(next(self.user_cycle))
            c = self.rng.choice(self.drugs)
            pr["rels"]["lead_compound"] = [c]
            lead_projects.append(pr)
            self.say(
                pr["user"],
                self.at(self.rng.choice([1, 2])),
                fill(tpl, {"Project": self.proj_text(pr), "Compound": self.drug_text(c)}),
                (pr["id"], "lead_compound", c),
            )
        for k, tpl in enumerate(self.M["lead_compound"]["say_switch"]):
            pr = lead_projects[k % len(lead_projects)]
            prev = pr["rels"]["lead_compound"][-1]
            new = self.rng.choice([d for d in self.drugs if d not in pr["rels"]["lead_compound"]])
            pr["rels"]["lead_compound"].append(new)
            self.say(
                pr["user"],
                self.at(self.rng.choice([3, 4, 5])),
                fill(
                    tpl,
                    {
                        "Project": self.proj_text(pr),
                        "Compound": self.drug_text(prev),
                        "Compound2": self.drug_text(new),
                    },
                ),
                (pr["id"], "lead_compound", new),
                (pr["id"], "lead_compound", prev),
            )
        for rel, ph, _mk in (("key_result", "Value", None), ("target_gene", "Gene", None)):
            for k, tpl in enumerate(self.M[rel]["say"]):
                # half on lead self.projects (mixing relations), half on new self.projects
                cand = [p for p in self.projects if rel not in p["rels"]]
                pr = (
                    self.rng.choice(cand)
                    if (k % 2 == 0 and cand)
                    else self.new_project(next(self.user_cycle))
                )
                val = self.result_value() if rel == "key_result" else self.rng.choice(self.genes)
                pr["rels"][rel] = [val]
                self.say(
                    pr["user"],
                    self.at(self.rng.choice([2, 3, 4, 5])),
                    fill(
                        tpl,
                        {
                            "Project": self.proj_text(pr),
                            ph: val if rel == "key_result" else NAME[val],
                        },
                    ),
                    (pr["id"], rel, val),
                )
        for rel in ("lead_compound", "key_result", "target_gene"):
            holders = [p for p in self.projects if rel in p["rels"]]
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    u0 = holders[k % len(holders)]["user"]
                    others = [p for p in self.projects if p["user"] == u0 and rel not in p["rels"]]
                    if others:
                        pr = self.rng.choice(others)
                        self.ask(
                            u0,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {"Project": self.proj_text(pr)}),
                            None,
                            probe="null-norel",
                        )
                        continue
                pr = holders[k % len(holders)]
                self.ask(
                    pr["user"],
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Project": self.proj_text(pr)}),
                    pr["rels"][rel][-1],
                )
        for k, tpl in enumerate(self.M["lead_compound"]["ask_previous"]):
            sw = [p for p in lead_projects if len(p["rels"]["lead_compound"]) >= 2]
            pr = sw[k % len(sw)]
            self.ask(
                pr["user"],
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Project": self.proj_text(pr)}),
                pr["rels"]["lead_compound"][-2],
                "previous",
            )
