"""Prompt and answer templates, stored as Markdown files with a YAML front-matter.

A file ``prompts/<name>.md`` looks like::

    ---
    variables: [question, node]
    response: edge_scores      # optional name of the pydantic schema the reply must match
    ---
    Template text with $question and $node.

``load(name)`` reads it; ``Prompt.render(**vars)`` substitutes with ``string.Template.substitute``
and fails loudly on a missing or unexpected variable.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml


class PromptError(ValueError):
    """A prompt file is missing, malformed, or rendered with the wrong variables."""


@dataclass(frozen=True)
class Prompt:
    name: str
    body: str
    variables: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    def render(self, **values: object) -> str:
        missing = [v for v in self.variables if v not in values]
        extra = [k for k in values if k not in self.variables]
        if missing or extra:
            raise PromptError(
                f"prompt {self.name!r}: missing variables {missing}, unexpected {extra}"
            )
        try:
            return string.Template(self.body).substitute({k: str(v) for k, v in values.items()})
        except (KeyError, ValueError) as exc:
            raise PromptError(f"prompt {self.name!r}: {exc}") from exc


def parse(name: str, text: str) -> Prompt:
    meta: dict[str, Any] = {}
    body = text
    if text.startswith("---"):
        parts = text.split("---", 2)
        if len(parts) < 3:
            raise PromptError(f"prompt {name!r}: unterminated front-matter")
        loaded = yaml.safe_load(parts[1]) or {}
        if not isinstance(loaded, dict):
            raise PromptError(f"prompt {name!r}: front-matter must be a mapping")
        meta = loaded
        body = parts[2].lstrip("\n")
    variables = tuple(str(v) for v in meta.get("variables", []) or [])
    return Prompt(name=name, body=body, variables=variables, meta=meta)


@lru_cache(maxsize=64)
def load(name: str) -> Prompt:
    """Load ``prompts/<name>.md`` shipped with the package."""
    try:
        text = resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PromptError(f"no prompt named {name!r}") from exc
    return parse(name, text)
