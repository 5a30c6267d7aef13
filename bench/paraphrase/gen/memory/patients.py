"""Sections of the memory replay about patients: drugs taken (with switches), patient
relations (diagnoses, symptoms, allergies, side effects) and lab values (with updates).
"""

from __future__ import annotations

from ..kg import NAME
from ..slots import fill
from .patient import Patient, value_on
from .pools import MEASURES, date_word, measure_value


class PatientSections:
    """The patient sections of ``MemoryStream`` (mixed in; they use its generator and events)."""

    def _switch(self, p: Patient, tpl: str, day: int) -> None:
        """Switch ``p`` from its drug to its next spare one on ``day``, said with ``tpl``."""
        prev = p.takes[-1][0]
        new = p.spare.pop(0)
        p.takes.append((new, day))
        self.say(
            p.user,
            self.at(day),
            fill(
                tpl,
                {
                    "Patient": p.ref(),
                    "Compound": self.drug_text(prev),
                    "Compound2": self.drug_text(new),
                },
            ),
            (p.id, "takes", new),
            (p.id, "takes", prev),
        )

    def takes(self) -> None:
        """Drugs patients take: starts, switches (some twice), probes."""
        takes_pts = []
        for tpl in self.M["takes"]["say_start"]:
            u = next(self.user_cycle)
            p = self.new_patient(u)
            self.patients[u].append(p)
            drugs = self.rng.sample(self.drugs, 3)
            p.takes = [(drugs[0], 1)]  # (drug, day started)
            p.rels.add("takes")
            self.say(
                u,
                self.at(1),
                fill(tpl, {"Patient": p.ref(), "Compound": self.drug_text(drugs[0])}),
                (p.id, "takes", drugs[0]),
            )
            p.spare = drugs[1:]
            takes_pts.append(p)
        switch_tpls = self.M["takes"]["say_switch"]
        for j, tpl in enumerate(switch_tpls):
            p = takes_pts[j % len(takes_pts)]
            if len(p.takes) >= 3:
                continue
            day = 3 if len(p.takes) == 1 else 5
            if j % 2 == 1 and len(p.takes) == 1:
                day = 4
            self._switch(p, tpl, day)
        # second switches for a few patients, reusing switch templates (counts are per template;
        # extra facts ok)
        for k, p in enumerate(takes_pts):
            if len(p.takes) == 2 and k % 3 == 0:
                self._switch(p, switch_tpls[k % len(switch_tpls)], 5)

        switched = [p for p in takes_pts if len(p.takes) >= 2]

        for k, tpl in enumerate(self.M["takes"]["ask_current"]):
            p = takes_pts[k % len(takes_pts)]
            if k % 5 == 4 and len(p.takes) >= 2:  # mid-stream probe on day 2 (before any switch)
                self.ask(p.user, self.at(2), fill(tpl, {"Patient": p.ref()}), p.takes[0][0])
            else:
                self.ask(
                    p.user,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Patient": p.ref()}),
                    p.takes[-1][0],
                )
        for k, tpl in enumerate(self.M["takes"]["ask_first"]):
            p = switched[k % len(switched)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref()}),
                p.takes[0][0],
                "first",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_previous"]):
            p = switched[(k + 3) % len(switched)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref()}),
                p.takes[-2][0],
                "previous",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_before"]):
            p = switched[(k + 5) % len(switched)]
            idx = self.rng.randint(1, len(p.takes) - 1)
            named = p.takes[idx][0]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Compound2": self.drug_text(named)}),
                p.takes[idx - 1][0],
                "before",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_as_of"]):
            p = switched[(k + 7) % len(switched)]
            days = [2, 6] + ([4] if p.takes[1][1] == 3 else [])
            day = days[k % len(days)]
            self.ask(
                p.user,
                self.at(7),
                fill(tpl, {"Patient": p.ref(), "Date": date_word(day)}),
                value_on(p, day),
                "as_of",
            )

    def patient_relations(self) -> None:
        """Diagnoses, symptoms, allergies, side effects: one value each."""
        PAT_REL = {
            "diagnosed_with": ("Disease", self.diseases, lambda x: NAME[x]),
            "reports_symptom": ("Symptom", self.symptoms, lambda x: NAME[x].lower()),
            "allergic_to": ("Compound", self.drugs, self.drug_text),
            "had_side_effect": ("SideEffect", self.sidefx, lambda x: NAME[x].lower()),
        }
        for rel, (ph, pool, txt) in PAT_REL.items():
            holders = []
            for k, tpl in enumerate(self.M[rel]["say"]):
                # half on existing patients (mixing relations), half on new ones
                existing = [p for p in self.all_pts() if rel not in p.rels]
                if k % 2 == 0 and existing:
                    p = self.rng.choice(existing)
                else:
                    u = next(self.user_cycle)
                    p = self.new_patient(u)
                    self.patients[u].append(p)
                val = self.rng.choice(pool)
                p.rels.add(rel)
                setattr(p, rel, val)
                holders.append(p)
                self.say(
                    p.user,
                    self.at(self.rng.choice([1, 2, 3, 4])),
                    fill(tpl, {"Patient": p.ref(), ph: txt(val)}),
                    (p.id, rel, val),
                )
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    # null probe: same user, a patient with other facts but not this relation
                    p0 = holders[k % len(holders)]
                    others = [p for p in self.patients[p0.user] if rel not in p.rels]
                    if others:
                        p = self.rng.choice(others)
                        self.ask(
                            p.user,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {"Patient": p.ref()}),
                            None,
                            probe="null-norel",
                        )
                        continue
                p = holders[k % len(holders)]
                self.ask(
                    p.user,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Patient": p.ref()}),
                    getattr(p, rel),
                )

    def lab_values(self) -> None:
        """Lab values, some updated later; current and previous probes."""
        lab_holders = []
        for k, tpl in enumerate(self.M["lab_value"]["say"]):
            existing = [p for p in self.all_pts() if "lab_value" not in p.rels]
            if k % 2 == 0 and existing:
                p = self.rng.choice(existing)
            else:
                u = next(self.user_cycle)
                p = self.new_patient(u)
                self.patients[u].append(p)
            meas = MEASURES[k % len(MEASURES)]
            v1 = measure_value(self.rng, meas)
            p.rels.add("lab_value")
            p.labs = [(v1, 2)]
            p.measure = meas[0]
            lab_holders.append(p)
            self.say(
                p.user,
                self.at(2),
                fill(tpl, {"Patient": p.ref(), "Value": v1}),
                (p.id, "lab_value", v1),
            )
        for k, tpl in enumerate(self.M["lab_value"]["say_update"]):
            p = lab_holders[k % len(lab_holders)]
            meas = next(m for m in MEASURES if m[0] == p.measure)
            while True:
                v2 = measure_value(self.rng, meas)
                if v2 != p.labs[-1][0]:
                    break
            prev = p.labs[-1][0]
            p.labs.append((v2, 4 + (k % 2)))
            self.say(
                p.user,
                self.at(4 + (k % 2)),
                fill(tpl, {"Patient": p.ref(), "Value2": v2}),
                (p.id, "lab_value", v2),
                (p.id, "lab_value", prev),
            )
        for k, tpl in enumerate(self.M["lab_value"]["ask_current"]):
            if k % 4 == 3:
                p0 = lab_holders[k % len(lab_holders)]
                others = [p for p in self.patients[p0.user] if "lab_value" not in p.rels]
                if others:
                    p = self.rng.choice(others)
                    self.ask(
                        p.user,
                        self.at(self.rng.choice([6, 7])),
                        fill(tpl, {"Patient": p.ref(), "Measure": p0.measure}),
                        None,
                        probe="null-norel",
                    )
                    continue
            p = lab_holders[k % len(lab_holders)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Measure": p.measure}),
                p.labs[-1][0],
            )
        for k, tpl in enumerate(self.M["lab_value"]["ask_previous"]):
            upd = [q for q in lab_holders if len(q.labs) >= 2]
            p = upd[k % len(upd)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Measure": p.measure}),
                p.labs[-2][0],
                "previous",
            )
