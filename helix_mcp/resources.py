"""The ``helix://relations`` resource: the relation vocabulary as JSON."""

from __future__ import annotations

import json

from engine.graph.relations import RELATIONS, directed_uses


def relations_json() -> str:
    return json.dumps(
        {
            "relations": [
                {
                    "rel": r.rel,
                    "source": r.source,
                    "target": r.target,
                    "verb": r.verb,
                    "description": r.description,
                    "undirected": r.undirected,
                    "forward_phrases": list(r.forward),
                    "backward_phrases": list(r.backward),
                }
                for r in RELATIONS
            ],
            "directed_uses": [{"code": u.key, "from": u.src, "to": u.dst} for u in directed_uses()],
            "note": "rel^-1 follows a relation backwards (object to subject); undirected "
            "relations are followed both ways under their plain code.",
        },
        indent=1,
    )
