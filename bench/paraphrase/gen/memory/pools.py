"""Fixed pools of the memory replay: users, the simulated week, names, projects, measures."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

USERS = [f"u{i}" for i in range(1, 9)]
DAY0 = datetime(2026, 3, 2)  # day 1 = Monday March 2 2026; day 7 = March 8


def date_word(day: int) -> str:
    d = DAY0 + timedelta(days=day - 1)
    return f"{d.strftime('%B')} {d.day}"


FIRST_F = [
    "Ada",
    "Helen",
    "Maria",
    "Grace",
    "Nora",
    "Leila",
    "Ines",
    "Zoe",
    "Clara",
    "Priya",
    "Hana",
    "Olga",
    "Sofia",
    "Elif",
    "Mei",
    "Ruth",
    "Aisha",
    "Greta",
    "Lucia",
    "Tamar",
]
FIRST_M = [
    "Victor",
    "Mateo",
    "Jonas",
    "Omar",
    "Kenji",
    "Luis",
    "Tomas",
    "Arjun",
    "Felix",
    "Samuel",
    "Dmitri",
    "Hugo",
    "Kofi",
    "Rafael",
    "Emil",
    "Andre",
    "Yusuf",
    "Pavel",
    "Marco",
    "Ivan",
]
LAST = [
    "Moreno",
    "Park",
    "Costa",
    "Eriksson",
    "Bauer",
    "Ferreira",
    "Nakamura",
    "Okafor",
    "Lindqvist",
    "Novak",
    "Haddad",
    "Schultz",
    "Rossi",
    "Kowalski",
    "Tanaka",
    "Brennan",
    "Duarte",
    "Ivanova",
    "Sato",
    "Mensah",
    "Varga",
    "Petrov",
    "Oyelaran",
    "Castillo",
    "Nguyen",
    "Jensen",
    "Fischer",
    "Dubois",
    "Silva",
    "Horvat",
    "Andersen",
    "Quinn",
    "Abe",
    "Morales",
    "Yilmaz",
    "Kaplan",
    "Weber",
    "Hughes",
    "Vasquez",
    "Lund",
    "Baptiste",
    "Soto",
    "Ortega",
    "Falk",
    "Ruiz",
    "Marek",
    "Doyle",
    "Aziz",
    "Kagame",
    "Pereira",
    "Sandoval",
    "Strand",
    "Oduya",
    "Richter",
    "Mori",
    "Kral",
    "Toth",
    "Barros",
    "Keane",
    "Wolff",
]
PROJECTS = [
    "the xenograft study",
    "the CRISPR screen",
    "the organoid project",
    "the biobank cohort study",
    "the neuroinflammation project",
    "the fibrosis screen",
    "the kinase panel",
    "the zebrafish screen",
    "the sepsis cohort",
    "the repurposing screen",
    "the iPSC cardiomyocyte project",
    "the AML PDX study",
    "the microbiome pilot",
    "the tau aggregation assay",
    "the lupus registry study",
    "the NASH mouse study",
    "the glioma organoid screen",
    "the asthma airway project",
    "the beta-cell project",
    "the retinal degeneration study",
    "the obesity cohort",
    "the antibiotic synergy screen",
    "the psoriasis biopsy study",
    "the ALS motor neuron project",
    "the HCC spheroid study",
    "the T-cell exhaustion project",
    "the osteoarthritis explant study",
    "the CKD progression cohort",
    "the melanoma resistance project",
    "the migraine imaging study",
]
MEASURES = [
    ("HbA1c", "%", (5.6, 11.5, 1)),
    ("creatinine", "mg/dL", (0.6, 3.8, 1)),
    ("potassium", "mmol/L", (2.9, 5.9, 1)),
    ("LDL", "mg/dL", (60, 210, 0)),
    ("TSH", "mIU/L", (0.2, 9.5, 1)),
    ("eGFR", "mL/min/1.73m2", (18, 95, 0)),
    ("hemoglobin", "g/dL", (7.5, 16.5, 1)),
    ("PSA", "ng/mL", (0.5, 30, 1)),
    ("INR", "", (0.9, 4.2, 1)),
    ("ALT", "U/L", (12, 240, 0)),
    ("CRP", "mg/L", (1, 120, 0)),
    ("ferritin", "ng/mL", (8, 900, 0)),
    ("troponin I", "ng/L", (3, 450, 0)),
    ("sodium", "mmol/L", (126, 148, 0)),
]
RESULTS = [
    "tumour growth inhibition {}%",
    "IC50 {} nM",
    "fold change {}",
    "HR {}",
    "AUC {}",
    "EC50 {} uM",
    "knockdown efficiency {}%",
    "response rate {}%",
]


def measure_value(rng_, meas) -> str:
    name, unit, (lo, hi, dec) = meas
    v = round(rng_.uniform(lo, hi), dec)
    v = int(v) if dec == 0 else v
    return f"{name} {v}{unit}" if unit == "%" else (f"{name} {v} {unit}" if unit else f"{name} {v}")


def slugify(project: str) -> str:
    s = re.sub(r"^the ", "", project.lower())
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")
