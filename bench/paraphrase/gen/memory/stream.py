"""The memory replay stream: its generator, pools, say/ask events and the time-ordered replay.

The sections that say and ask the facts are in ``patients`` and ``projects`` (mixed in).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import datetime, timedelta

from .. import SEED
from ..kg import IN_E, KIND, NAME, OUT_E, good
from .patient import Patient
from .patients import PatientSections
from .pools import DAY0, FIRST_F, FIRST_M, LAST, RESULTS, USERS, slugify
from .projects import ProjectSections


def cycle(items):
    """Endless round-robin over ``items``."""
    while True:
        yield from items


class MemoryStream(PatientSections, ProjectSections):
    """The memory replay: users say facts about patients, entities and projects over a simulated
    week (day 1 = DAY0) and ask about them (current value, history, null probes).

    Every random choice comes from one generator seeded SEED + 1, in a fixed order: the sections
    must run in the order of ``build``.
    """

    def __init__(self, memory_templates: dict):
        self.M = memory_templates
        self.rng = random.Random(SEED + 1)
        # entity pools (unambiguous names; common: drugs with indications, diseases,
        # druggable genes)
        self.drugs = sorted(
            c for c in set(OUT_E["CtD"]) | set(OUT_E["CpD"]) if good(c) and len(NAME[c]) <= 20
        )
        self.diseases = sorted(
            d for d, k in KIND.items() if k == "Disease" and good(d) and len(NAME[d]) <= 30
        )
        self.symptoms = sorted(
            s
            for s in set(IN_E["DpS"])
            if good(s) and len(NAME[s]) <= 22 and len(IN_E["DpS"][s]) >= 5
        )
        self.sidefx = sorted(
            s
            for s in set(IN_E["CcSE"])
            if good(s) and len(NAME[s]) <= 22 and len(IN_E["CcSE"][s]) >= 3
        )
        self.genes = sorted(g for g in set(IN_E["CbG"]) if good(g))
        self.used_nums: set[int] = set()
        self.last_pool = LAST[:]
        self.rng.shuffle(self.last_pool)
        self.events: list[dict] = []
        self.user_cycle = cycle(USERS)
        self.patients: dict[str, list[Patient]] = defaultdict(list)
        self.proj_pool: list[str] = []
        self.projects: list[dict] = []

    def build(self) -> tuple[list[dict], Counter[str]]:
        """All sections in order; returns the replay rows and the count of asks per probe kind."""
        self.takes()
        self.patient_relations()
        self.lab_values()
        self.research_notes()
        self.project_facts()
        self.cross_user_nulls()
        return self.replay()

    # --- helpers

    def result_value(self) -> str:
        t = self.rng.choice(RESULTS)
        if "HR" in t or "AUC" in t:
            return t.format(round(self.rng.uniform(0.4, 0.95), 2))
        if "fold" in t:
            return t.format(round(self.rng.uniform(1.5, 8.0), 1))
        return t.format(self.rng.randint(12, 88))

    def drug_text(self, c: str) -> str:
        nm = NAME[c]
        return nm.lower() if self.rng.random() < 0.5 else nm

    def new_patient(self, user: str) -> Patient:
        while True:
            n = self.rng.randint(1000, 9899)
            if n not in self.used_nums:
                self.used_nums.add(n)
                break
        style = self.rng.choice(["number", "number", "name"])
        male = self.rng.random() < 0.5
        first = self.rng.choice(FIRST_M if male else FIRST_F)
        last = self.last_pool.pop()
        return Patient(self.rng, user, n, style, first, last, male)

    def all_pts(self) -> list[Patient]:
        return [p for u in USERS for p in self.patients[u]]

    def new_project(self, u: str) -> dict:
        name = self.proj_pool.pop()
        pr = {"user": u, "name": name, "id": f"note:{slugify(name)}", "rels": {}}
        self.projects.append(pr)
        return pr

    def proj_text(self, pr: dict) -> str:
        nm = pr["name"]
        return nm if self.rng.random() < 0.7 else nm[4:]  # sometimes without the determiner

    def at(self, day: int) -> datetime:
        """A random office-hours instant of simulated ``day``."""
        return DAY0 + timedelta(
            days=day - 1,
            hours=self.rng.randint(8, 17),
            minutes=self.rng.randint(0, 59),
            seconds=self.rng.randint(0, 59),
        )

    def say(self, user, when, text, fact, supersedes=None) -> None:
        ev = {"at": when, "user": user, "type": "say", "text": text, "fact": list(fact)}
        if supersedes is not None:
            ev["supersedes"] = list(supersedes)
        self.events.append(ev)

    def ask(self, user, when, text, expect, temporal=None, probe=None) -> None:
        """An ask; ``probe`` defaults to null / the temporal reading / current."""
        ev = {"at": when, "user": user, "type": "ask", "text": text, "expect": expect}
        if temporal:
            ev["temporal"] = temporal
        ev["_probe"] = probe or ("null" if expect is None else (temporal or "current"))
        self.events.append(ev)

    def cross_user_nulls(self) -> None:
        """Another user asks the first user's question about the same subject."""
        owned = [e for e in self.events if e["type"] == "ask" and e["expect"] is not None]
        self.rng.shuffle(owned)
        for e in owned[: max(40, len(owned) // 4)]:
            other = self.rng.choice([u for u in USERS if u != e["user"]])
            self.ask(other, self.at(7), e["text"], None, probe="null-cross")

    def replay(self) -> tuple[list[dict], Counter[str]]:
        """Events in time order (strictly increasing instants), grouped into sessions."""
        for e in self.events:
            e["_t"] = e["at"]
        self.events.sort(key=lambda e: (e["_t"], e["user"], e["type"] == "ask"))
        # strictly increasing instants
        last = None
        for e in self.events:
            if last is not None and e["_t"] <= last:
                e["_t"] = last + timedelta(seconds=7)
            last = e["_t"]
        sess_no: dict[str, int] = defaultdict(int)
        sess_key: dict[str, tuple] = {}
        replay = []
        probe_kinds: Counter[str] = Counter()
        for e in self.events:
            u = e["user"]
            key = (e["_t"].date(), e["_t"].hour // 4)
            if sess_key.get(u) != key:
                sess_no[u] += 1
                sess_key[u] = key
            out = {
                "at": e["_t"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                "user": u,
                "session": f"{u}-s{sess_no[u]}",
                "type": e["type"],
                "text": e["text"],
            }
            if e["type"] == "say":
                out["fact"] = e["fact"]
                if "supersedes" in e:
                    out["supersedes"] = e["supersedes"]
            else:
                out["expect"] = e["expect"]
                if e.get("temporal"):
                    out["temporal"] = e["temporal"]
                out["probe"] = e["_probe"]
                probe_kinds[e["_probe"]] += 1
            replay.append(out)
        return replay, probe_kinds
