"""While streaming, finished citations are inert badges and an unfinished marker is held back."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from components.chat.stream import BadgeStream, sources_line
from rag.answering.answer import AnswerCitations, answer_stream, build_answer
from rag.answering.events import Cited, Done, Failed, Retrieved, TextDelta
from rag.questions.read import read_question
from tests.pages.test_render import _evidence


def _events(deltas: list[str], table: tuple[str, ...] = ("aaaa111",)) -> list:
    """Events the way answer_stream reports them: each delta, then the markers it completed."""
    cites = AnswerCitations([_evidence(i) for i in table])
    events = [event for delta in deltas for event in cites.feed(delta)]
    return [*events, *cites.finish(), Done(cites.answer(read_question("q"), provider="t"))]


def test_unfinished_marker_is_held_back_then_becomes_a_badge() -> None:
    stream = BadgeStream()
    pieces = list(stream.pieces(_events(["Water boils [aaa", "a111", "] at 100", " degrees."])))
    shown = ""
    for piece in pieces:
        shown += piece
        assert "[aaa" not in shown and "aaaa111" not in shown
    assert shown == "Water boils  :blue-badge[1] at 100 degrees."
    assert stream.outcome.done is not None


def test_unresolved_and_grouped_markers() -> None:
    pieces = BadgeStream().pieces(_events(["A [aaaa111, zzzz999] b [zzzz999]."]))
    assert "".join(pieces) == "A  :blue-badge[1] :gray-badge[?] b  :gray-badge[?]."


def test_model_text_is_escaped_and_links_do_not_become_markers() -> None:
    out = "".join(BadgeStream().pieces(_events(["<img src=x> [see](javascript:x) [aaaa111]"])))
    assert out.startswith("\\<img src=x\\> \\[see\\]\\(javascript\\:x\\)")
    assert out.endswith(":blue-badge[1]")


def test_failure_ends_the_stream_and_keeps_the_partial_text() -> None:
    stream = BadgeStream()
    events = _events(["Partial [aaaa1"])[:-1]
    out = "".join(stream.pieces([*events, Failed("timeout", "no reply", partial=True)]))
    assert out == "Partial "
    assert stream.outcome.failed is not None and stream.outcome.done is None
    assert stream.outcome.text == "Partial [aaaa1"


def test_answer_so_far_keeps_text_and_cited_evidence_when_the_stream_is_cut_off() -> None:
    events = _events(
        ["Water boils [aaaa111] at", " 100 degrees [aaaa111]. Ice", " melts [zzzz999]. More to come"]
    )
    stream = BadgeStream()
    pieces = stream.pieces(iter(events))
    next(pieces), next(pieces)  # two deltas shown, then the reader stops the run
    pieces.close()
    answer = stream.answer_so_far("When?", "test model")
    assert answer.interrupted and answer.error is None and answer.question == "When?"
    assert answer.text == "Water boils [aaaa111] at 100 degrees [aaaa111]. Ice"
    assert [(f.number, f.short_id, len(f.spans)) for f in answer.footnotes] == [(1, "aaaa111", 2)]
    assert [e.short_id for e in answer.evidence] == ["aaaa111"]


def test_answer_so_far_is_the_finished_answer_once_done_arrived() -> None:
    stream = BadgeStream()
    list(stream.pieces(_events(["Water boils [aaaa111]."])))
    done = stream.outcome.done
    assert done is not None and stream.answer_so_far("q", "p") is done.answer


def test_sources_line_groups_pages_by_document_and_escapes_titles() -> None:
    from dataclasses import replace

    from ingest.types import PageLocator

    a, b = _evidence("aaaa111"), _evidence("bbbb222")
    evil = replace(_evidence("cccc333"), title="**Bold** [x](javascript:y)")
    line = sources_line([a, replace(b, locators=(PageLocator(6, "7", 0, 10),)), evil])
    assert (
        "Found 3 passages in doc\\.pdf (p. 1, 7); " in line
    )  # "Doc" names nothing: the file name (components/shared/names.py)
    assert "\\*\\*Bold\\*\\* \\[x\\]\\(javascript\\:y\\)" in line
    assert sources_line([]).startswith(":material/search_off:")


def test_answer_stream_reports_the_sources_before_the_model_starts(tmp_path) -> None:
    from rag.answering.scripted import ScriptedChatModel
    from tests.pages.conftest import WATER, build_library, make_pdf

    library = build_library(tmp_path / "data", [("water.pdf", make_pdf(WATER, "Water facts"))])
    boils = next(c.chunk_id[:7] for c in library.chunks() if "Water boils" in c.text)
    model = ScriptedChatModel(replies=[f"Water boils at one hundred degrees [{boils}]."])
    events = list(
        answer_stream(
            "When does water boil at sea level?",
            library=library,
            chat_model=model,
            provider_label="test",
            k=3,
        )
    )
    searched = events[0]
    assert isinstance(searched, Retrieved) and len(searched.evidence) == 3
    assert not any(isinstance(e, Retrieved) for e in events[1:])
    assert isinstance(events[1], TextDelta) and isinstance(events[-1], Done)
    assert events[-1].answer.evidence == searched.evidence
    assert [f.short_id for f in events[-1].answer.footnotes] == [boils]


def test_answer_stream_says_when_the_library_cannot_be_searched() -> None:
    from rag.answering.scripted import ScriptedChatModel

    events = list(
        answer_stream("q", library=object(), chat_model=ScriptedChatModel(), provider_label="t", k=3)
    )
    assert len(events) == 1 and isinstance(events[0], Failed) and events[0].cause == "retrieval failed"


_PIECES = st.sampled_from(
    [
        "Water boils ",
        "[aaaa111]",
        "[zzzz999]",
        "[aaaa111, zzzz999]",
        " at",
        ". ",
        "[aaaa1",
        "11]",
        "(x)",
        "`[aaaa111]`",
        "\\[aaaa111]",
        "\n",
    ]
)


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(_PIECES, max_size=12), cuts=st.lists(st.integers(0, 120), max_size=8))
def test_badges_and_answer_come_from_the_events_whatever_the_deltas(
    parts: list[str], cuts: list[int]
) -> None:
    text = "".join(parts)
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    deltas = [text[a:b] for a, b in pairwise(bounds)]
    one, split = BadgeStream(), BadgeStream()
    whole = "".join(one.pieces(_events([text] if text else [])))
    assert "".join(split.pieces(_events(deltas))) == whole
    answer, parsed = split.outcome.done.answer, build_answer("q", text, [_evidence("aaaa111")], provider="t")
    assert answer == parsed  # the stream's spans give the answer a parse of the whole text gives
    assert whole.count(":blue-badge[1]") == sum(len(f.spans) for f in answer.footnotes)
    assert whole.count(":gray-badge[?]") == len(answer.unresolved_spans)


def test_badge_numbers_are_the_ones_the_events_carry() -> None:
    cites = AnswerCitations([_evidence("aaaa111"), _evidence("bbbb222")])
    events = [*cites.feed("B [bbbb222] then A [aaaa111] and B again [bbbb222]."), *cites.finish()]
    numbers = [(e.citation.id, e.number, e.evidence is not None) for e in events if isinstance(e, Cited)]
    assert numbers == [("bbbb222", 1, True), ("aaaa111", 2, True), ("bbbb222", 1, False)]
    out = "".join(BadgeStream().pieces([*events, Done(cites.answer(read_question("q"), provider="t"))]))
    assert out == "B  :blue-badge[1] then A  :blue-badge[2] and B again  :blue-badge[1]."
