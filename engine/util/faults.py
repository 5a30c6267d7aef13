"""The one kind of error a front end shows as it is: a store that cannot be used.

Its message is one sentence naming the file (or database) and what to do about it; the CLI
prints it as its error, the chat shows it in the turn and stays usable, MCP returns it as the
tool's error. Anything else that escapes is a bug, and is reported as one.
"""

from __future__ import annotations


class StoreFault(RuntimeError):
    """A store (the graph, an index, a user's memory or sessions) cannot be read or written;
    the message says which file and the fix."""

    def __init__(self, message: str, *, unwritten: bool = False) -> None:
        super().__init__(message)
        self.unwritten = unwritten
        """True when the operation failed before it reached the store (the database could
        not be reached): nothing of it was written, so there is nothing to check."""


class MemoryFault(StoreFault):
    """A user's memory store cannot be used: a graph question is still answered without it."""


__all__ = ["MemoryFault", "StoreFault"]
