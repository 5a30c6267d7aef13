"""What a person keeps of the chat app between runs: ``chat.toml`` in ``Settings.config_dir``
(the platform config dir unless ``HELIX_CONFIG_DIR`` says otherwise).

    theme = "nord"            # any of Textual's built-in themes (ctrl+p → "Change theme")
    reveal_ms = 35            # pause between the sentences of an answer as it appears; 0: at once
    editing_mode = "vi"       # helix-chat --inline: emacs (the default) or vi keys

    [keys]                    # binding id = key(s); the ids are listed by /help
    "chat.export" = "ctrl+e"
    "chat.copy" = "ctrl+y,f6"

A file that cannot be read is reported and left untouched: the app runs on defaults and does
not overwrite it.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.config import Settings

CONFIG_FILE = "chat.toml"
DEFAULT_THEME = "textual-dark"


class ChatConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    theme: str = DEFAULT_THEME
    """A Textual theme name."""
    reveal_ms: float = Field(default=35.0, ge=0.0, le=2000.0)
    """Pause between sentences while an answer appears (0 shows it at once)."""
    editing_mode: Literal["emacs", "vi"] = "emacs"
    """The line editor's keys in ``helix-chat --inline``."""
    keys: dict[str, str] = Field(default_factory=dict)
    """Binding id -> comma-separated keys, replacing that binding's default keys."""

    @field_validator("keys")
    @classmethod
    def _keys_are_named(cls, keys: dict[str, str]) -> dict[str, str]:
        for binding_id, key in keys.items():
            if not key.strip():
                raise ValueError(f"{binding_id!r} has no key")
        return {k.strip(): ",".join(p.strip() for p in v.split(",")) for k, v in keys.items()}


@dataclass
class LoadedConfig:
    path: Path
    config: ChatConfig = field(default_factory=ChatConfig)
    problem: str | None = None
    """Why the file was not used (then it is never overwritten)."""

    @classmethod
    def load(cls, settings: Settings) -> LoadedConfig:
        path = settings.config_dir / CONFIG_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            return cls(path, problem=f"{path} cannot be read ({exc}); using defaults")
        try:
            return cls(path, ChatConfig.model_validate(tomllib.loads(text)))
        except tomllib.TOMLDecodeError as exc:
            return cls(path, problem=f"{path} is not valid TOML ({exc}); using defaults")
        except ValidationError as exc:
            errors = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
            )
            return cls(path, problem=f"{path}: {errors}; using defaults")

    def save(self) -> None:
        """Write the config (atomically); refused when the file on disk could not be read."""
        if self.problem is not None:
            raise ValueError(f"not saved: fix {self.path} first")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(config_toml(self.config), encoding="utf-8")
        tmp.replace(self.path)


def config_toml(config: ChatConfig) -> str:
    """``config`` as TOML (strings are written as JSON strings, which TOML reads alike)."""
    lines = [
        "# Helix chat settings (the app rewrites this file when the theme changes).",
        f"theme = {json.dumps(config.theme)}",
        f"reveal_ms = {config.reveal_ms:g}",
        f"editing_mode = {json.dumps(config.editing_mode)}  # --inline: emacs or vi keys",
        "",
        '# binding id = key(s), e.g. "chat.export" = "ctrl+e"; /help lists the ids',
        "[keys]",
        *(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(config.keys.items())),
    ]
    return "\n".join(lines) + "\n"
