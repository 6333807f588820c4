"""Every marker style of rag/citations/grammar.py's table, replayed by the scripted OpenAI-compatible
server in small streamed deltas through the real ChatOpenAI path: each sentence ends cited by the
model, matched by Footnote, or unsourced, as the table says; matched footnotes open their
passage; nothing dangling becomes a footnote."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from components.panel.passage import cited_passage
from ingest.types import PageLocator
from rag.answering.answer import stream_answer
from rag.answering.events import Cited, Done, TextDelta
from rag.answering.metrics import answer_sentences
from rag.questions.read import read_question
from rag.retrieval.retrieve import Retrieval
from rag.types import Answer, Evidence
from settings import load_settings
from tests.openai_server import ScriptedOpenAIServer, stream
from wiring import make_chat_model

A, B = "abc1234", "def5678"
NORMANS = (
    "The Normans gave their name to Normandy, a region in northern France. They descended from Norse "
    "raiders from Denmark, Iceland and Norway."
)
ROLLO = "Rollo swore fealty to King Charles III of West Francia after the siege of Chartres in 911."
S1 = "The Normans gave their name to Normandy, a region in northern France."
S2 = "Rollo swore fealty to King Charles III of West Francia after the siege of Chartres in 911."
S3 = "Their descendants later conquered England."  # in neither passage


def _ev(short_id: str, text: str, page: int) -> Evidence:
    return Evidence(
        short_id,
        short_id + "0" * 57,
        "d" * 64,
        "Normans",
        "normans.pdf",
        text,
        0.9,
        (PageLocator(page, str(page + 1), 0, len(text)),),
    )


EVIDENCE = (_ev(A, NORMANS, 0), _ev(B, ROLLO, 1))
CITED_A, CITED_B, MATCHED_A, MATCHED_B, UNSOURCED = (
    ("cited", A),
    ("cited", B),
    ("matched", A),
    ("matched", B),
    ("unsourced", None),
)

# name, the model's reply, each sentence's outcome, the unresolved ids
STYLES = [
    ("prompt's own", f"{S1} [{A}] {S2} [{B}] {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("label inside", f"{S1} [Source ID: {A}] {S2} [Source: {B}] {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("markdown footnote", f"{S1}[^{A}] {S2}[^{B}] {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("link to nowhere", f"{S1} [{A}](#) {S2} [{B}](#source) {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("parentheses", f"{S1} ({A}) {S2} (Source: {B}) {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("bare label", f"{S1} Source {A}. {S2} Source ID: {B}. {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("another case", f"{S1} [{A.upper()}] {S2} ({B.upper()}) {S3}", [CITED_A, CITED_B, UNSOURCED], []),
    ("numbered", f"{S1} [1] {S2} [2] {S3} [3]", [MATCHED_A, MATCHED_B, UNSOURCED], []),
    (
        "list at the end",
        f"{S1} {S2} {S3}\n\nSources:\n- [{A}]\n- [{B}]",
        [MATCHED_A, MATCHED_B, UNSOURCED],
        [],
    ),
    ("no markers", f"{S1}\n{S2}\n{S3}", [MATCHED_A, MATCHED_B, UNSOURCED], []),
    # Without valid ids: a dangling bracket stays unresolved, loose styles stay text.
    (
        "invented bracket ids",
        f"{S1} [zzz9999] {S2} [Source ID: yyy8888] {S3} [xxx7777]",
        [MATCHED_A, MATCHED_B, UNSOURCED],
        ["zzz9999", "yyy8888", "xxx7777"],
    ),
    (
        # "(zzz9999)" is text opening the next sentence; "Source yyy8888." is a sentence of its own
        "invented loose ids",
        f"{S1} (zzz9999) {S2} Source yyy8888. {S3}",
        [MATCHED_A, MATCHED_B, UNSOURCED, UNSOURCED],
        [],
    ),
    (
        "invented footnote and link",
        f"{S1} [^zzz9999] {S2} [yyy8888](#) {S3}",
        [MATCHED_A, MATCHED_B, UNSOURCED],
        ["zzz9999", "yyy8888"],
    ),
]


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def ask(server: ScriptedOpenAIServer, reply: str, size: int) -> list:
    server.push(stream(*(reply[i : i + size] for i in range(0, len(reply), size))))
    settings = load_settings(
        llm_provider="openai",
        llm_base_url=server.base_url,
        llm_api_key="sk-test",
        llm_model="m",
        llm_timeout_s=5.0,
    )
    model, label = make_chat_model(settings)
    retrieval = Retrieval(EVIDENCE, best_dense=0.9, best_coverage=1.0)
    return list(
        stream_answer(
            read_question("Who were the Normans?"),
            retrieval,
            chat_model=model,
            provider_label=label,
            retries=0,
        )
    )


def outcomes(answer: Answer) -> list[tuple[str, str | None]]:
    """Each sentence's outcome: cited by the model (the first id), matched (its piece), or unsourced."""
    out = []
    for start, end in answer_sentences(answer.text, answer.spans):
        cited = [f.short_id for f in answer.footnotes for s in f.spans if start <= s.start < end]
        matched = [
            f.short_id for f in answer.footnotes for m in f.matches if (m.start, m.end) == (start, end)
        ]
        out.append(("cited", cited[0]) if cited else ("matched", matched[0]) if matched else UNSOURCED)
    return out


@pytest.mark.parametrize("size", [1, 3, 7])
@pytest.mark.parametrize(("name", "reply", "expected", "dangling"), STYLES, ids=[s[0] for s in STYLES])
def test_each_style_ends_cited_matched_or_unsourced(
    server: ScriptedOpenAIServer, name: str, reply: str, expected: list, dangling: list[str], size: int
) -> None:
    events = ask(server, reply, size)
    done = events[-1]
    assert isinstance(done, Done)
    answer = done.answer
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == answer.text == reply
    assert outcomes(answer) == expected
    assert list(answer.unresolved) == dangling
    assert {f.short_id for f in answer.footnotes} <= {A, B}  # nothing dangling is a footnote
    for cited in (e for e in events if isinstance(e, Cited)):
        assert cited.resolved == (cited.citation.id in (A, B)) and (cited.evidence is None or cited.resolved)
    m = answer.metrics
    assert (m.cited_sentences, m.matched_sentences, m.unsourced_sentences) == tuple(
        sum(o[0] == kind for o in expected) for kind in ("cited", "matched", "unsourced")
    )
    assert not answer.unsupported and answer.flags == ()


@pytest.mark.parametrize("name", ["numbered", "list at the end", "no markers"])
def test_matched_footnotes_open_the_passage_of_their_sentence(
    server: ScriptedOpenAIServer, name: str
) -> None:
    reply = next(s[1] for s in STYLES if s[0] == name)
    answer = ask(server, reply, 4)[-1].answer
    for footnote in answer.footnotes:
        [match] = footnote.matches
        start, end = cited_passage(answer, footnote)
        sentence = answer.text[match.start : match.end]
        assert footnote.evidence.text[start:end] in sentence and end - start >= 40
        assert footnote.evidence.locators[0].page_index == (0 if footnote.short_id == A else 1)


def test_a_model_citation_its_passage_does_not_hold_is_flagged_not_rewritten(
    server: ScriptedOpenAIServer,
) -> None:
    reply = f"{S1} [{A}] {S3} [{B}]"
    answer = ask(server, reply, 5)[-1].answer
    assert answer.text == reply and outcomes(answer) == [CITED_A, CITED_B]
    [flag] = answer.flags
    assert answer.text[flag.start : flag.end].startswith(S3) and flag.numbers == (2,)
    assert answer.metrics.flagged_sentences == 1
