"""A patient of one user in the memory replay, and the drug they took on a given day."""

from __future__ import annotations

import random


def value_on(p: Patient, day: int) -> str | None:
    """The drug a patient took on ``day`` (the last one started before it)."""
    cur = None
    for d, start in p.takes:
        if start < day:
            cur = d
    return cur


class Patient:
    """A patient of one user: referred to by MRN or by name, holding the facts said about them."""

    def __init__(
        self,
        rng: random.Random,
        user: str,
        num: int,
        style: str,
        first: str,
        last: str,
        male: bool,
    ):
        self.rng = rng
        self.user, self.num, self.style = user, num, style
        self.first, self.last, self.male = first, last, male
        self.id = f"patient:{num}"
        self.introduced = False
        self.rels: set[str] = set()
        self.takes: list[tuple[str, int]] = []  # (drug, day started)
        self.spare: list[str] = []
        self.labs: list[tuple[str, int]] = []  # (value, day)
        self.measure = ""

    def ref(self) -> str:
        """How the clinician refers to the patient; the first mention introduces name + number."""
        if self.style == "number":
            form = self.rng.choice(["MRN {n}", "pt {n}", "patient {n}", "Patient {n}", "MRN {n}"])
            return form.format(n=self.num)
        if not self.introduced:
            self.introduced = True
            return f"{self.first} {self.last} (MRN {self.num})"
        title = "Mr." if self.male else "Ms."
        return self.rng.choice(
            [
                f"{self.first} {self.last}",
                f"{title} {self.last}",
                f"{self.first} {self.last}",
                f"MRN {self.num}",
            ]
        )
