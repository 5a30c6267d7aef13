"""Chat sessions and their turns, per user (``sessions.store.SessionStore``)."""
