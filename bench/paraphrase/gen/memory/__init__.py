"""The memory replay stream for ``helix-chat --replay`` (``MemoryStream(T["memory"]).build()``).

- ``pools``: the fixed pools (users, the simulated week, person names, projects, lab measures,
  research results) and value helpers;
- ``patient``: a patient of one user and the facts said about them;
- ``stream``: the stream (its random generator, say/ask events, cross-user null probes and the
  time-ordered replay), built from the sections of ``patients`` (drugs taken, patient
  relations, lab values) and ``projects`` (research notes, project facts).
"""

from .stream import MemoryStream

__all__ = ["MemoryStream"]
