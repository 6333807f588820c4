"""The citation grammar, from one table of raw text -> expected ids, plus streaming and resolve."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.types import PageLocator
from rag.answering.answer import AnswerCitations
from rag.answering.events import Cited
from rag.citations.parser import CitationStream, citation_spans, extract_citations
from rag.citations.table import resolve
from rag.questions.read import read_question
from rag.types import CitationSpan, Evidence

A, B, C = "abc1234", "def5678", "0a1b2c3d"

CASES: list[tuple[str, str, list[str]]] = [
    # name, text, expected ids in order (duplicates kept)
    ("none", "No citations here.", []),
    ("empty", "", []),
    ("single", f"Paris is in France [{A}].", [A]),
    ("at start", f"[{A}] opens the answer.", [A]),
    ("at end", f"Ends with a marker [{A}]", [A]),
    ("whole text", f"[{A}]", [A]),
    ("eight chars", f"Claim [{C}].", [C]),
    ("adjacent pair", f"Claim [{A}][{B}].", [A, B]),
    ("spaced pair", f"Claim [{A}] [{B}].", [A, B]),
    ("repeated id", f"One [{A}]. Two [{A}].", [A, A]),
    ("three in order", f"[{B}] then [{A}] then [{C}]", [B, A, C]),
    ("comma group", f"Claim [{A}, {B}].", [A, B]),
    ("comma group no space", f"Claim [{A},{B}].", [A, B]),
    ("semicolon group", f"Claim [{A}; {B}].", [A, B]),
    ("three group", f"Claim [{A}, {B}, {C}].", [A, B, C]),
    ("space before comma", f"Claim [{A} , {B}].", [A, B]),
    ("group with repeat", f"[{A}, {A}]", [A, A]),
    ("full-width", f"Claim \u3010{A}\u3011.", [A]),
    ("full-width group", f"Claim \u3010{A}, {B}\u3011.", [A, B]),
    ("full-width then ascii", f"\u3010{A}\u3011[{B}]", [A, B]),
    ("full-width before paren", f"\u3010{A}\u3011(see)", [A]),
    ("uppercase kept", "Claim [ABC1234].", ["ABC1234"]),
    ("mixed case kept", "Claim [AbC1234].", ["AbC1234"]),
    ("digits only", "Claim [1234567].", ["1234567"]),
    ("word that fits", "See [Appendix] for more.", ["Appendix"]),
    ("word with digit", "See [Figure1].", ["Figure1"]),
    ("six chars", "[abc123]", []),
    ("nine chars", "[abcdefghi]", []),
    ("hyphen", "[abc-1234]", []),
    ("underscore", "[abc_1234]", []),
    ("number ref", "As shown [1].", []),
    ("todo", "[TODO] fix", []),
    ("markdown link", "[website](https://example.com)", []),
    ("markdown link id-like", f"[{A}](https://example.com)", []),
    ("image", f"![{A}](x.png)", []),
    ("link then citation", f"[website](http://x) claim [{A}]", [A]),
    ("leading space", f"[ {A}]", []),
    ("trailing space", f"[{A} ]", []),
    ("empty brackets", "[]", []),
    ("trailing comma", f"[{A},]", []),
    ("bad member spoils group", f"[{A}, abc]", []),
    ("bad long member", f"[{A}, abcdefghij]", []),
    ("words in brackets", "[this is not a citation]", []),
    ("non-ascii letters", "[abcdéf12]", []),
    ("full-width digits", "[\uff11\uff12\uff13\uff14\uff15\uff16\uff17]", []),
    ("mismatched close", f"\u3010{A}]", []),
    ("mismatched open", f"[{A}\u3011", []),
    ("unclosed", f"Claim [{A}", []),
    ("unclosed then valid", f"[{A} and [{B}]", [B]),
    ("nested", f"[[{A}]]", [A]),
    ("escaped bracket", f"\\[{A}]", []),
    ("escaped backslash", f"\\\\[{A}]", [A]),
    ("inline code", f"Use `[{A}]` literally.", []),
    ("after inline code", f"`code` then [{A}]", [A]),
    ("double backtick code", f"``a ` [{A}]`` then [{B}]", [B]),
    ("fenced code", f"```\n[{A}]\n```\nreal [{B}]", [B]),
    ("escaped backtick", f"\\`[{A}]", [A]),
    ("unicode before", f"Köln liegt am Rhein [{A}].", [A]),
    ("emoji around", f"\U0001f600[{A}]\U0001f600", [A]),
    ("cjk around", f"東京は日本の首都です[{A}]。", [A]),
    ("newline inside", f"[{A},\n{B}]", []),
    ("line break between", f"Claim.\n[{A}]\n[{B}]", [A, B]),
    ("in markdown list", f"- one [{A}]\n- two [{B}]", [A, B]),
    ("in bold", f"**Key fact [{A}]**", [A]),
    ("in table", f"| a | b [{A}] |", [A]),
    ("latex-ish", f"$x_{{1}}$ [{A}]", [A]),
    ("reference style link text", f"[{A}][ref]", [A]),
    # What models write when they half-follow the prompt (rag/citations/grammar.py's table).
    ("label source id", f"Claim [Source ID: {A}].", [A]),
    ("label source", f"Claim [Source: {A}, {B}].", [A, B]),
    ("label words no colon", f"Claim [source id {A}].", [A]),
    ("label id", f"Claim [ID: {A}].", [A]),
    ("label alone", "Claim [Source ID].", []),
    ("label after id", f"Claim [{A}, Source {B}].", []),
    ("three labels", f"[Source ID ID: {A}]", []),
    ("sources word fits", "See [Sources] below.", ["Sources"]),
    ("caret", f"Claim [^{A}].", [A]),
    ("caret twice", f"[^^{A}]", []),
    ("caret in full-width", f"\u3010^{A}\u3011", []),
    ("link to fragment", f"Claim [{A}](#).", [A]),
    ("link to named fragment", f"Claim [{A}](#source-1) and [{B}](#)", [A, B]),
    ("link to nothing", f"Claim [{A}]().", [A]),
    ("group link to fragment", f"Claim [{A}, {B}](#).", [A, B]),
    ("fragment with space", f"[{A}](# x)", []),
    ("parentheses without known ids", f"Claim ({A}).", []),
    ("bare word without known ids", f"Source {A} says so.", []),
    ("numbered", "As shown [2].", []),
    ("none", None, []),
]

# With the evidence ids known (as the answer stream knows them): the loose styles.
LOOSE_CASES: list[tuple[str, str, list[str]]] = [
    ("parentheses", f"Claim ({A}).", [A]),
    ("parentheses group", f"Claim ({A}, {B}).", [A, B]),
    ("parentheses label", f"Claim (Source: {A}).", [A]),
    ("parentheses other case", "Claim (ABC1234).", ["ABC1234"]),
    ("parentheses unknown id", "Claim (zzz9999).", []),
    ("parentheses one unknown", f"Claim ({A}, zzz9999).", []),
    ("parentheses word", "Revenue (million) rose (approved).", []),
    ("parentheses in code", f"Use `({A})` literally.", []),
    ("parentheses escaped", f"\\({A})", []),
    ("link destination", f"[see]({A})", [A]),
    ("bracket link is a link", f"[{A}](https://x) ({B})", [B]),
    ("bare", f"According to Source {A}, yes.", [A]),
    ("bare lower case", f"as source {A} says", [A]),
    ("bare source id colon", f"Source ID: {B}.", [B]),
    ("bare sources", f"Sources: {A}, {B}.", [A]),
    ("bare at end", f"See Source {A}", [A]),
    ("bare other case", "Source ABC1234.", ["ABC1234"]),
    ("bare unknown", "Source material is cited.", []),
    ("bare mid word", f"Resource {A}", []),
    ("bare then bracket", f"Source {A}[{B}]", [A, B]),
    ("bare in code", f"`Source {A}`", []),
    ("bare then too long", f"Source {A}x.", []),
    ("strict unknown still counts", "Claim [zzz9999].", ["zzz9999"]),
    ("plain words", "Sources say so, and so does the source.", []),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_grammar_table(name: str, text: str | None, expected: list[str]) -> None:
    assert extract_citations(text) == expected


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_grammar_table_through_the_answer_stream_one_character_at_a_time(
    name: str, text: str | None, expected: list[str]
) -> None:
    cites = AnswerCitations([])
    events = [e for ch in text or "" for e in cites.feed(ch)] + list(cites.finish())
    assert [e.citation.id for e in events if isinstance(e, Cited)] == expected
    assert [s.id for s in cites.answer(read_question("q"), provider="t").spans] == expected


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize(("name", "text", "expected"), LOOSE_CASES, ids=[c[0] for c in LOOSE_CASES])
def test_loose_styles_count_only_with_known_ids(name: str, text: str, expected: list[str]) -> None:
    assert extract_citations(text, known=[A, B]) == expected
    stream = CitationStream(known=[A, B])
    events = [e for ch in text for e in stream.feed(ch)] + stream.finish()
    assert [e.id for e in events] == expected


def test_an_id_in_another_case_resolves_to_the_table_spelling() -> None:
    res = resolve(citation_spans("One [ABC1234]. Two (Def5678).", known=[A, B]), [_evidence(A), _evidence(B)])
    assert [(f.short_id, [s.id for s in f.spans]) for f in res.footnotes] == [(A, [A]), (B, [B])]
    assert res.unresolved == ()


def test_held_back_text_of_a_loose_candidate_is_released_when_it_is_not_a_marker() -> None:
    stream = CitationStream(known=[A])
    stream.feed("Revenue (milli")
    assert stream.safe_length == len("Revenue ")
    stream.feed("on) and Source mat")
    assert stream.safe_length == len("Revenue (million) and ")
    stream.feed("erial.")
    assert stream.safe_length == len(stream.text)
    assert stream.finish() == []


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        (f"x [{A}] y", [CitationSpan(A, 2, 11, 2, 11)]),
        (f"[{A}, {B}]", [CitationSpan(A, 1, 8, 0, 18), CitationSpan(B, 10, 17, 0, 18)]),
        (f"\u3010{A}\u3011", [CitationSpan(A, 0, 9, 0, 9)]),
        (f"[{A}][{B}]", [CitationSpan(A, 0, 9, 0, 9), CitationSpan(B, 9, 18, 9, 18)]),
    ],
)
def test_spans_cover_brackets_or_ids(text: str, spans: list[CitationSpan]) -> None:
    assert citation_spans(text) == spans
    for span in spans:
        assert text[span.start : span.end].strip("[]\u3010\u3011") == span.id


def _stream(deltas: list[str]) -> tuple[list[tuple[str, int, int, bool]], CitationStream]:
    stream = CitationStream()
    events = [e for d in deltas for e in stream.feed(d)] + stream.finish()
    return [(e.id, e.start, e.end, e.first) for e in events], stream


@pytest.mark.parametrize(
    "deltas",
    [
        ["Claim [abc", f"1234] more [{B}]."],  # split across two deltas
        ["Claim [a", "bc12", "34] more [", f"{B}]."],  # split across three-plus deltas
        [f"Claim [{A}] more [{B}].", ""],  # several markers in one delta
        [f"Claim [{A}", f"] more [{B}", "]."],  # a delta closes one marker and opens another
        [f"Claim [{A}]", f" more [{B}]", "."],  # closing bracket at the end of a delta
    ],
)
def test_stream_splits_give_the_one_shot_events(deltas: list[str]) -> None:
    events, stream = _stream(deltas)
    assert events == [(A, 6, 15, True), (B, 21, 30, True)]
    assert stream.text == "".join(deltas)


def test_first_flag_only_on_first_occurrence() -> None:
    events, _ = _stream([f"[{A}] x [{B}] y [{A}]"])
    assert [e[3] for e in events] == [True, True, False]


def test_marker_reported_once_and_only_when_confirmed() -> None:
    stream = CitationStream()
    assert stream.feed(f"Claim [{A}") == []
    assert stream.safe_length == len("Claim ")
    # The closing bracket arrived, but "(" would make it a link: not reported yet, still held back.
    assert stream.feed("]") == []
    assert stream.safe_length == len("Claim ")
    [event] = stream.feed(" and")
    assert (event.id, event.start, event.end) == (A, 6, 15)
    assert stream.safe_length == len(f"Claim [{A}] and") == len(stream.text)
    assert stream.finish() == []


def test_link_is_never_reported() -> None:
    stream = CitationStream()
    assert stream.feed(f"[{A}]") == []
    assert stream.feed("(http://x)") == []
    assert stream.finish() == []


def test_full_width_marker_reported_at_its_closing_bracket() -> None:
    stream = CitationStream()
    [event] = stream.feed(f"x \u3010{A}\u3011")
    assert (event.id, event.start, event.end) == (A, 2, 11)


def test_safe_length_holds_back_an_unfinished_marker_and_releases_non_markers() -> None:
    stream = CitationStream()
    stream.feed("Partial [abc12")
    assert stream.safe_length == len("Partial ")
    stream.feed("-x]")  # not a marker after all: released as text
    assert stream.safe_length == len("Partial [abc12-x]") == len(stream.text)


def test_take_safe_returns_each_character_once() -> None:
    stream = CitationStream()
    pieces = []
    for delta in ["Hello [ab", "c1234] wor", "ld [def5", "678]"]:
        stream.feed(delta)
        pieces.append(stream.take_safe())
    stream.finish()
    pieces.append(stream.take_safe())
    # The last marker waits for the next character (a "(" would make it a link) or finish().
    assert pieces == ["Hello ", f"[{A}] wor", "ld ", "", f"[{B}]"]
    assert "".join(pieces) == stream.text


def test_unfinished_marker_at_finish_is_not_a_citation() -> None:
    stream = CitationStream()
    stream.feed(f"Cut off [{A}")
    assert stream.finish() == []


def test_feed_after_finish_is_an_error() -> None:
    stream = CitationStream()
    stream.finish()
    with pytest.raises(RuntimeError):
        stream.feed("x")


_ALPHABET = st.sampled_from([*list("ab1 [],;`\\(\n.x"), "【", "】", A, B, f"[{A}]", f"[{A}, {B}]", "`", "é"])
_LOOSE_ALPHABET = st.sampled_from(
    [*list("ab1 [](),;:#^`\\\n.xsS"), A, B, "ABC1234", "Source ", "ID: ", f"({A})", f"[{A}](#)", "zzz9999"]
)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=40), cuts=st.lists(st.integers(0, 400), max_size=12))
def test_any_split_into_deltas_gives_the_one_shot_spans(parts: list[str], cuts: list[int]) -> None:
    text = "".join(parts)
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    deltas = [text[a:b] for a, b in itertools.pairwise(bounds)]
    stream = CitationStream()
    events = [e for d in deltas for e in stream.feed(d)] + stream.finish()
    assert [e.span for e in events] == citation_spans(text)
    seen: set[str] = set()
    for e in events:
        assert e.first == (e.id not in seen)
        seen.add(e.id)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_LOOSE_ALPHABET, max_size=40), cuts=st.lists(st.integers(0, 400), max_size=12))
def test_any_split_gives_the_one_shot_spans_with_known_ids(parts: list[str], cuts: list[int]) -> None:
    text = "".join(parts)
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    stream = CitationStream(known=[A, B])
    events = [e for a, b in itertools.pairwise(bounds) for e in stream.feed(text[a:b])] + stream.finish()
    assert [e.span for e in events] == citation_spans(text, known=[A, B])
    assert stream.text == text
    for e in events:
        assert e.group_start <= e.start < e.end <= e.group_end <= len(text)


def _evidence(short_id: str) -> Evidence:
    return Evidence(
        short_id, short_id + "0" * 57, "d" * 64, "T", "t.pdf", "text", 1.0, (PageLocator(0, "1", 0, 4),)
    )


def test_resolve_numbers_by_first_appearance_and_keeps_all_spans() -> None:
    text = f"One [{B}]. Two [{A}]. Three [{B}, zzz9999]. Four [Appendix]."
    res = resolve(citation_spans(text), [_evidence(A), _evidence(B)])
    assert [(f.number, f.short_id, len(f.spans)) for f in res.footnotes] == [(1, B, 2), (2, A, 1)]
    assert res.unresolved == ("zzz9999", "Appendix")
    assert res.markers == 5


def test_resolve_with_nothing_cited_or_nothing_given() -> None:
    assert resolve([], [_evidence(A)]).footnotes == ()
    res = resolve(citation_spans(f"[{A}]"), [])
    assert res.footnotes == () and res.unresolved == (A,)
