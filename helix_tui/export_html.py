"""A session as one self-contained HTML page: no scripts, no external files."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from helix_tui.relations import path_text, short_id, triple_text

CSS = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #1d2330; background: #fbfbfd; }
h1 { margin-bottom: .2rem; } .meta { color: #667; margin-top: 0; }
section.turn { border: 1px solid #dde; border-radius: 8px; padding: .4rem 1.2rem 1rem;
               margin: 1.2rem 0; background: #fff; }
h2.question { font-size: 1.1rem; } .status { font-size: .8rem; padding: .1rem .5rem;
 border-radius: 1rem; background: #e8eefc; color: #234; margin-left: .4rem; }
.status.NOT_ANSWERED { background: #fdeaea; } .status.NEEDS_CLARIFICATION { background: #fff4d6; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; border-bottom: 1px solid #eee; padding: .25rem .4rem;
         vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
ol.paths li { margin: .2rem 0; } code { font-size: .85em; color: #556; }
"""


def session_html(data: Mapping[str, Any]) -> str:
    """``data`` is ``helix_tui.export.session_data``'s dict."""
    info = data["session"]
    title = escape(info["title"])
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title} · Helix</title><style>{CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<p class="meta">Session <code>{escape(info["id"])}</code> of {escape(info["user"])},'
        f" started {escape(info['created_at'])} · {len(data['turns'])} turn(s)</p>",
    ]
    for turn in data["turns"]:
        parts.append(_turn(turn))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _turn(turn: Mapping[str, Any]) -> str:
    r = turn["result"]
    names: dict[str, str] = turn.get("names") or {}

    def name(node: str) -> str:
        return names.get(node) or short_id(node)

    status = escape(str(r.get("status", "")))
    out = [
        '<section class="turn">',
        f'<h2 class="question">{turn["n"]}. {escape(turn["question"])}'
        f'<span class="status {status}">{status}</span></h2>',
    ]
    out += [f"<p>{escape(p)}</p>" for p in str(r.get("text") or "").split("\n\n") if p.strip()]
    if r.get("clarification"):
        out.append(f"<blockquote>{escape(r['clarification'])}</blockquote>")
    if r.get("answers"):
        out.append("<h3>Answers</h3><table><tr><th>#</th><th>answer</th><th>score</th></tr>")
        for i, a in enumerate(r["answers"], 1):
            label = escape(a.get("name") or name(a["id"]))
            out.append(
                f"<tr><td>{i}</td><td>{label} <code>{escape(a['id'])}</code></td>"
                f'<td class="num">{a.get("score", 0):.2f}</td></tr>'
            )
        out.append("</table>")
    if r.get("paths"):
        out.append('<h3>Paths</h3><ol class="paths">')
        out += [f"<li>{escape(path_text(p, name))}</li>" for p in r["paths"]]
        out.append("</ol>")
    if r.get("evidence"):
        out.append(
            "<h3>Evidence</h3><table><tr><th>score</th><th>kind</th><th>evidence</th>"
            "<th>source</th></tr>"
        )
        for e in r["evidence"]:
            what = triple_text(e["triple"], name) if e.get("triple") else (e.get("text") or "")
            ident = f" <code>{escape(e['id'])}</code>" if e.get("id") else ""
            out.append(
                f'<tr><td class="num">{e.get("score", 0):.2f}</td><td>{escape(e["kind"])}</td>'
                f"<td>{escape(what)}{ident}</td><td>{escape(e.get('source') or '')}</td></tr>"
            )
        out.append("</table>")
    out.append("</section>")
    return "\n".join(out)
