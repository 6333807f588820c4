"""Answers as safe markup: sanitised HTML for the interactive view, escaped markdown while streaming.

Pure (no Streamlit), so it is unit-tested directly. Model output and PDF text are untrusted:
markdown is rendered with raw HTML disabled, citation markers become buttons only for ids in
the answer's footnotes, and the result passes an allow-list sanitiser (nh3) last.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Iterable, Mapping

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from rag.types import Answer, CitationSpan, Evidence, Footnote

_TAGS = {
    "p",
    "br",
    "hr",
    "em",
    "strong",
    "del",
    "s",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "button",
    "span",
}
_ATTRIBUTES = {
    "a": {"href", "title"},
    "button": {"data-n", "type", "title"},
    "span": {"title"},
    "ol": {"start"},
    "th": {"style"},
    "td": {"style"},
}
_CLASSES = {"button": {"fn-ref", "fn-matched", "fn-flagged"}, "span": {"fn-unresolved"}}
_SCHEMES = {"http", "https", "mailto"}
_STREAM_ESCAPES = re.compile(r"([\\\[\]!<>$:&`*_~|#()])")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table").enable("strikethrough")

    def image_as_text(renderer, tokens, idx, options, env):
        alt = renderer.renderInlineAsText(tokens[idx].children or [], options, env)
        return f"[image: {escapeHtml(alt)}]"

    md.add_render_rule("image", image_as_text)
    return md


_MD = _markdown()


def sanitize_html(html: str) -> str:
    """Keep only the tags, attributes, classes and URL schemes this module emits."""
    return nh3.clean(
        html,
        tags=_TAGS,
        clean_content_tags={"script", "style"},
        attributes=_ATTRIBUTES,
        allowed_classes=_CLASSES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer",
        filter_style_properties={"text-align"},
    )


def _groups(spans: Iterable[CitationSpan]) -> list[tuple[int, int, list[str]]]:
    """Markers as (group_start, group_end, ids), in text order (a grouped bracket is one entry)."""
    groups: dict[tuple[int, int], list[str]] = {}
    for span in spans:
        groups.setdefault((span.group_start, span.group_end), []).append(span.id)
    return [(start, end, ids) for (start, end), ids in sorted(groups.items())]


MATCHED_TITLE = "Source {n}, matched by Footnote: the model cited nothing for this sentence"
FLAGGED_TITLE = "Source {n}, cited by the model; the automatic check finds it does not support this sentence"


def _button(number: int, kind: str = "") -> str:
    """A footnote button: cited by the model (kind ""), "matched" by Footnote, or cited but "flagged"."""
    title = {"matched": MATCHED_TITLE, "flagged": FLAGGED_TITLE}.get(kind, "Source {n}").format(n=number)
    classes = f"fn-ref fn-{kind}" if kind else "fn-ref"
    return f'<button type="button" class="{classes}" data-n="{number}" title="{title}">{number}</button>'


def _matched_inserts(answer: Answer) -> list[tuple[int, int]]:
    """(offset, footnote number) of every matched sentence: a badge goes at its end, before a
    closing table pipe or emphasis marks, so that markdown still parses."""
    out = []
    for footnote in answer.footnotes:
        for match in footnote.matches:
            end = match.end
            while end > match.start and answer.text[end - 1] in "|*_ \t":
                end -= 1
            out.append((end, footnote.number))
    return sorted(out)


def _flagged_groups(answer: Answer) -> set[tuple[int, int]]:
    """The marker brackets inside flagged sentences."""
    return {
        (s.group_start, s.group_end)
        for flag in answer.flags
        for s in answer.spans
        if flag.start <= s.group_start < flag.end
    }


def _unresolved(cid: str) -> str:
    return f'<span class="fn-unresolved" title="unresolved citation">{cid}?</span>'


def _edits(answer: Answer) -> list[tuple[int, int, list[str]]]:
    """(start, end, markups) in text order: each marker bracket replaced by its buttons (flagged
    when its sentence is) or unresolved ids, and a matched badge inserted after each matched sentence."""
    numbers = {f.short_id: f.number for f in answer.footnotes}
    flagged = _flagged_groups(answer)
    edits = []
    for start, end, ids in _groups(answer.spans):
        kind = "flagged" if (start, end) in flagged else ""
        edits.append(
            (start, end, [_button(numbers[c], kind) if c in numbers else _unresolved(c) for c in ids])
        )
    edits += [(at, at, [_button(number, "matched")]) for at, number in _matched_inserts(answer)]
    return sorted(edits, key=lambda e: (e[0], e[1]))


def render_answer_html(answer: Answer) -> str:
    """The answer's markdown as sanitised HTML with numbered footnote buttons (the model's, those
    in flagged sentences marked so, and Footnote's matches at the end of their sentences, in their
    own style) and marked unresolved citations (grouped markers become adjacent buttons)."""
    nonce = secrets.token_hex(8)
    text = answer.text
    # token -> (markup in text, literal in an attribute): a marker that markdown put into a link
    # destination or title goes back to its source text there, never a button inside an href.
    swaps: dict[str, tuple[str, str]] = {}
    for start, end, markups in reversed(_edits(answer)):
        tokens = []
        for i, markup in enumerate(markups):
            # commas: no URI scheme or e-mail address holds one, so a token never becomes an autolink
            token = f"FNTOKEN,{nonce},{len(swaps)},"
            swaps[token] = (markup, escapeHtml(text[start:end]) if i == 0 else "")
            tokens.append(token)
        text = text[:start] + "".join(tokens) + text[end:]
    html = _MD.render(text)
    if swaps:
        html = _swap_tokens(html, re.compile(f"FNTOKEN,{nonce},\\d+,"), swaps)
    return sanitize_html(html)


def _swap_tokens(html: str, token: re.Pattern[str], swaps: Mapping[str, tuple[str, str]]) -> str:
    """Put citation markup where tokens sit in text, and the marker's source text inside tags."""

    def swap(match: re.Match[str], side: int) -> str:
        found = swaps.get(match.group(0))
        return found[side] if found else ""

    parts = re.split(r"(<[^>]*>)", html)
    for i, part in enumerate(parts):
        side = 1 if part.startswith("<") else 0
        parts[i] = token.sub(functools.partial(swap, side=side), part)
    return "".join(parts)


def escape_stream_text(text: str) -> str:
    """Backslash-escape what would make streamed markdown a link, image, HTML, math or directive."""
    return _STREAM_ESCAPES.sub(r"\\\1", text)


def attribution_notes(answer: Answer) -> list[str]:
    """Markdown badges for what the support check found (rag.answering.attribution): sentences matched by
    Footnote, and cited sentences whose passages do not support them (issue 25: flagged, kept)."""
    notes = []
    matched = sum(len(f.matches) for f in answer.footnotes)
    if matched:
        notes.append(
            f":green-badge[:material/join_inner: {matched} sentence{'s' if matched != 1 else ''} "
            "matched by Footnote, not cited by the model]"
        )
    if answer.flags:
        n = len(answer.flags)
        notes.append(
            f":orange-badge[:material/rule: {n} cited sentence{'s' if n != 1 else ''} not supported "
            f"by {'its' if n == 1 else 'their'} passages (automatic check)]"
        )
    return notes


def footnote_kind_label(footnote: Footnote) -> str:
    """How the side panel names a footnote's origin."""
    if footnote.kind == "matched":
        return (
            "Matched by Footnote: the model cited no source for this sentence; this passage holds its words"
        )
    if footnote.matches:
        return "Cited by the model, and matched by Footnote to a sentence the model left uncited"
    return "Cited by the model"


def stream_badge(number: int | None) -> str:
    """An inert markdown badge for a finished citation while the answer streams."""
    return f":blue-badge[{number}]" if number is not None else ":gray-badge[?]"


def page_range(evidence: Evidence) -> tuple[str, str]:
    """The evidence's printed page label(s) and 0-based page index(es), "5" or "5-6"."""
    if evidence.page_index == evidence.page_end_index:
        return evidence.page_label, str(evidence.page_index)
    return (
        f"{evidence.page_label}-{evidence.page_end_label}",
        f"{evidence.page_index}-{evidence.page_end_index}",
    )


def ocr_note(evidence: Evidence) -> str:
    """ " · read by OCR (confidence 93%)" for evidence on a page read by OCR, else ""."""
    confidence = evidence.ocr_confidence
    return "" if confidence is None else f" · read by OCR (confidence {confidence:.0%})"


def escape_markdown(text: str) -> str:
    """Untrusted text as markdown that renders literally on one line (for widget labels)."""
    flat = " ".join(text.split())
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", flat)
