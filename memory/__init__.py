"""Per-user memory: stated facts with validity intervals (vault), recent turns (episodic),
an answer cache, fact capture from chat statements and answering from the user's own memory.

Entry points: ``memory.service.UserMemory`` (the engine's ``MemoryPort``), ``memory.service.
delete_user``, ``memory.replay.run.run_replay`` and ``memory.linking.engine_linker``.
"""
