"""Answer markdown becomes sanitised HTML with footnote buttons only for resolved ids."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from components.panel.passage import cited_passage, split_passage
from components.shared.render import escape_stream_text, render_answer_html
from ingest.types import PageLocator
from rag.answering.answer import build_answer
from rag.citations.parser import citation_spans
from rag.types import Answer, Evidence


def _evidence(short_id: str, text: str = "Chunk text.") -> Evidence:
    return Evidence(
        short_id,
        short_id + "0" * 57,
        "d" * 64,
        "Doc",
        "doc.pdf",
        text,
        0.5,
        (PageLocator(0, "1", 0, len(text)),),
    )


def _answer(text: str, ids: tuple[str, ...] = ("aaaa111", "bbbb222")) -> Answer:
    evidence = tuple(_evidence(i) for i in ids)
    return build_answer("q", text, evidence, provider="t")


def _buttons(html: str) -> list[str]:
    return re.findall(r'<button[^>]*data-n="(\d+)"[^>]*>(\d+)</button>', html)


def test_resolved_markers_become_numbered_buttons_by_first_appearance() -> None:
    html = render_answer_html(_answer("One [bbbb222]. Two [aaaa111]. Again [bbbb222]."))
    assert _buttons(html) == [("1", "1"), ("2", "2"), ("1", "1")]
    assert "bbbb222" not in html and "[" not in html


def test_grouped_marker_becomes_adjacent_buttons() -> None:
    html = render_answer_html(_answer("Both [aaaa111, bbbb222] here."))
    assert re.search(r'data-n="1"[^>]*>1</button><button[^>]*data-n="2"', html)


def test_unresolved_ids_are_marked_and_never_buttons() -> None:
    html = render_answer_html(_answer("Made up [zzzz999] and real [aaaa111]."))
    assert _buttons(html) == [("1", "1")]
    assert '<span class="fn-unresolved" title="unresolved citation">zzzz999?</span>' in html


@pytest.mark.parametrize(
    "hostile, forbidden",
    [
        ("<img src=x onerror=window.__pwned=1>", "<img"),
        ("<script>window.__pwned=1</script>", "<script"),
        ("[click](javascript:window.__pwned=1)", 'href="javascript'),
        ("![pic](http://example.invalid/x.png)", "<img"),
        ('<a href="#" onclick="x()">a</a>', '<a href="#"'),
        ("<button class=fn-ref data-n=1>1</button>", "<button class=fn-ref"),
        ("$$\\href{javascript:alert(1)}{x}$$", "<a"),
    ],
)
def test_hostile_text_stays_inert(hostile: str, forbidden: str) -> None:
    html = render_answer_html(_answer(f"Quote: {hostile} [aaaa111]."))
    assert forbidden not in html.lower()
    assert not re.search(r"<[^>]+\son\w+=", html), "an event-handler attribute survived"
    assert _buttons(html) == [("1", "1")]


def test_markdown_survives_and_links_get_rel_without_target() -> None:
    html = render_answer_html(_answer("**Bold** and [a link](https://example.org) [aaaa111].\n\n- item"))
    assert "<strong>Bold</strong>" in html and "<li>item</li>" in html
    assert 'rel="noopener noreferrer"' in html and "target" not in html


def test_image_becomes_text() -> None:
    html = render_answer_html(_answer("See ![a chart](http://x.invalid/c.png) [aaaa111]."))
    assert "[image: a chart]" in html


def test_markers_in_code_are_not_citations() -> None:
    html = render_answer_html(_answer("Use `[aaaa111]` literally."))
    assert _buttons(html) == [] and "<code>[aaaa111]</code>" in html


def test_stream_escaping_neutralises_links_html_and_math() -> None:
    escaped = escape_stream_text("<b>x</b> [l](javascript:y) ![i](z) $a$ :red[t]")
    assert "<" not in escaped.replace("\\<", "")
    assert "](" not in escaped and "$" not in escaped.replace("\\$", "")


def test_cited_passage_finds_the_quoted_sentence_in_the_chunk() -> None:
    chunk = "Intro words here. The boiling point of water is 100 degrees at sea level. More text."
    ev = _evidence("aaaa111", chunk)
    text = "Earlier claim. The boiling point of water is 100 degrees at sea level [aaaa111]."
    answer = build_answer("q", text, [ev], provider="t")
    span = cited_passage(answer, answer.footnotes[0])
    assert span is not None
    before, inside, after = split_passage(chunk, span)
    assert inside.startswith("The boiling point of water is 100 degrees at sea level")
    assert before + inside + after == chunk


def test_no_passage_when_the_sentence_is_not_quoted() -> None:
    ev = _evidence("aaaa111", "Completely different content about birds and trees.")
    text = "Quantum chromodynamics explains hadrons [aaaa111]."
    answer = build_answer("q", text, [ev], provider="t")
    assert cited_passage(answer, answer.footnotes[0]) is None


def test_cited_passage_ignores_pdf_line_breaks() -> None:
    chunk = "Scope.\nThis policy explains who may work away from the office, how often, what the\ncompany pays for."
    ev = _evidence("aaaa111", chunk)
    text = "This policy explains who may work away from the office, how often, what the company pays for [aaaa111]."
    answer = build_answer("q", text, [ev], provider="t")
    before, inside, _after = split_passage(chunk, cited_passage(answer, answer.footnotes[0]))
    assert before == "Scope.\n" and inside.startswith("This policy") and inside.endswith("company pays for.")


def test_cited_passage_when_the_marker_follows_the_full_stop() -> None:
    chunk = "Other words. Equipment belongs to the employee after two years of service. More."
    ev1, ev2 = _evidence("aaaa111", "Unrelated first source text here."), _evidence("bbbb222", chunk)
    text = "Unrelated first source text here. [aaaa111] Equipment belongs to the employee after two years of service. [bbbb222]"
    answer = build_answer("q", text, [ev1, ev2], provider="t")
    _before, inside, _after = split_passage(chunk, cited_passage(answer, answer.footnotes[1]))
    assert inside == "Equipment belongs to the employee after two years of service."


_ALLOWED_TAG = re.compile(
    r"</?(p|br|hr|em|strong|del|s|code|pre|blockquote|ul|ol|li|h[1-6]|a|table|thead|tbody|tr|th|td|button|span)[\s/>]"
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<",
                ">",
                '"',
                "'",
                "=",
                " ",
                "\n",
                "[",
                "]",
                "(",
                ")",
                "!",
                "*",
                "_",
                "`",
                "$",
                "\\",
                ":",
                "/",
                "&",
                "#",
                "img",
                "script",
                "onerror",
                "onclick",
                "javascript",
                "href",
                "src",
                "a",
                "button",
                "fn-ref",
                "data-n",
                "[aaaa111]",
                "[zzzz999]",
                "[aaaa111, bbbb222]",
                "x",
            ]
        ),
        max_size=40,
    ).map("".join)
)
@example("[aaaa111]([aaaa111])")  # found by CI: a citation in a link destination became a button in an href
@example('[x](/u "[aaaa111, bbbb222]")')
def test_any_text_renders_to_allowed_tags_without_handlers(text: str) -> None:
    html = render_answer_html(_answer(text))
    tags = re.findall(r"<[^>]*>", html)
    for tag in tags:
        assert _ALLOWED_TAG.match(tag), tag
        assert not re.search(r"\son\w*\s*=", tag), tag
        assert "javascript:" not in tag.lower(), tag
        assert "FNTOKEN" not in tag, tag
    resolved = sum(1 for s in citation_spans(text) if s.id in ("aaaa111", "bbbb222"))
    # A marker that markdown made part of a link's destination or title stays literal text there.
    kept_literal = sum(len(re.findall(r"aaaa111|bbbb222", tag)) for tag in tags)
    assert len(_buttons(html)) + kept_literal == resolved
    assert "FNTOKEN" not in html


def test_citation_in_a_link_destination_or_title_stays_literal() -> None:
    html = render_answer_html(_answer('[see](/u "[aaaa111]") and [x]([bbbb222])'))
    assert _buttons(html) == []
    assert 'title="[aaaa111]"' in html and 'href="[bbbb222]"' in html


def test_saved_answers_keep_their_spans_and_old_ones_without_them_still_render() -> None:
    from rag.stores.serialize import answer_from_dict, answer_to_dict

    answer = _answer("Made up [zzzz999] and real [aaaa111, zzzz999].")
    saved = answer_to_dict(answer)
    assert [s["id"] for s in saved["unresolved_spans"]] == ["zzzz999", "zzzz999"]
    assert answer_from_dict(saved) == answer
    del saved["unresolved_spans"]  # as saved before the spans were kept
    old = answer_from_dict(saved)
    assert old.spans == answer.spans
    html = render_answer_html(old)
    assert html.count("zzzz999?</span>") == 2 and _buttons(html) == [("1", "1")]


NORMANS = "The Normans gave their name to Normandy, a region in northern France."


def _attributed() -> Answer:
    """One sentence matched by Footnote (no marker), one cited but flagged."""
    evidence = (
        _evidence("aaaa111", NORMANS),
        _evidence("bbbb222", "Rollo swore fealty to King Charles III."),
    )
    text = f"{NORMANS}\n\nPenguins cannot fly at all [bbbb222]."
    return build_answer("q", text, evidence, provider="t")


def test_a_matched_sentence_gets_its_own_badge_and_a_flagged_citation_is_marked() -> None:
    answer = _attributed()
    assert [(f.number, f.kind) for f in answer.footnotes] == [(1, "cited"), (2, "matched")]
    html = render_answer_html(answer)
    assert 'France.<button type="button" class="fn-ref fn-matched" data-n="2"' in html
    assert 'class="fn-ref fn-flagged" data-n="1"' in html
    assert _buttons(html) == [("2", "2"), ("1", "1")]  # in text order
    assert "Matched by Footnote".lower() in html.lower()


def test_a_matched_badge_goes_before_a_closing_table_pipe() -> None:
    text = f"| fact |\n|---|\n| {NORMANS} |"
    answer = build_answer("q", text, (_evidence("aaaa111", NORMANS),), provider="t")
    assert [f.kind for f in answer.footnotes] == ["matched"]
    html = render_answer_html(answer)
    assert re.search(r"<td>.*France\.\s*<button[^>]*fn-matched[^>]*>1</button>\s*</td>", html)


def test_notes_and_panel_labels_name_who_made_the_footnote() -> None:
    from components.shared.render import attribution_notes, footnote_kind_label

    answer = _attributed()
    notes = attribution_notes(answer)
    assert "1 sentence matched by Footnote" in notes[0] and "1 cited sentence not supported" in notes[1]
    assert footnote_kind_label(answer.footnotes[0]) == "Cited by the model"
    assert footnote_kind_label(answer.footnotes[1]).startswith("Matched by Footnote")
    assert attribution_notes(_answer("Plain [aaaa111].")) == []
