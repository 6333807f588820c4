"""A computed figure in the answer: the offline answer is its line, each operand a footnote of its
own cell; a refusal says which operand failed and quotes the closest passages; a model is given
the figure and its cells as one block, and whatever it writes, the answer opens with the line
(a scripted model, then the real ChatOpenAI path against the loopback server); the figure is
kept with saved answers, listed by `python -m cli.rag ask --json`, and its operands are the audit's citations."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag.answering.answer import stream_answer
from rag.answering.events import Done
from rag.answering.json_report import answer_json
from rag.answering.scripted import ScriptedChatModel
from rag.audit.records import turn_records
from rag.compute.present import BLOCK_HEAD, NOT_COMPUTED
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import read_question
from rag.retrieval.retrieve import Retrieval
from rag.stores.serialize import answer_from_dict, answer_to_dict
from rag.types import Answer, Turn
from settings import load_settings
from tests.cli.test_rag import run_cli
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.rag.conftest import make_pdf, open_hash_library
from tests.rag.test_compute import BALANCE, INCOME, evidence
from wiring import make_chat_model

RATIO = "What is Acme's FY2021 current ratio?"


def answer(question: str, model: object, *texts: str) -> Answer:
    retrieval = Retrieval(evidence(*texts), best_dense=0.9, best_coverage=1.0)
    events = stream_answer(read_question(question), retrieval, chat_model=model, provider_label="test")
    done = [e for e in events if isinstance(e, Done)]
    return done[0].answer


def test_offline_the_line_is_the_answer_and_each_operand_its_own_footnote() -> None:
    got = answer(RATIO, ExtractiveAnswerer(), BALANCE)
    assert got.computed is not None and got.computed.result == "0.87"
    assert got.text.startswith("Current ratio, FY2021 = current assets 3,000 [")
    assert [f.number for f in got.footnotes] == [1, 2]
    chunk = got.evidence[0]
    for footnote, operand in zip(got.footnotes, got.computed.operands):
        assert footnote.short_id == operand.short_id and footnote.kind == "cited"
        assert footnote.evidence.chunk_id == chunk.chunk_id and footnote.evidence.cell is not None
        assert footnote.evidence.cell.chunk == chunk.short_id
    assert not got.flags and not got.closest and not got.unsupported


def test_a_refusal_says_which_operand_failed_then_quotes_the_closest_passages() -> None:
    got = answer("What was Acme's FY2018 current ratio?", ExtractiveAnswerer(), BALANCE, INCOME)
    assert got.computed is None and got.closest
    assert got.text.startswith(f'{NOT_COMPUTED} "current assets": its rows have no 2018 column.')
    assert "3,000" in got.text  # the rows found, cited by their passages
    assert got.footnotes and all(f.evidence.cell is None for f in got.footnotes)


def test_a_model_gets_one_block_and_the_answer_opens_with_the_line_whatever_it_writes() -> None:
    model = ScriptedChatModel(replies=["The current ratio is about 0.9, a tight position."])
    got = answer(RATIO, model, BALANCE)
    line, _, rest = got.text.partition("\n\n")
    assert line.startswith("Current ratio, FY2021 =") and rest.startswith("The current ratio is about 0.9")
    assert got.computed is not None and got.computed.result == "0.87"
    prompt = str(model.calls[0][-1].content)
    assert prompt.count(BLOCK_HEAD) == 1
    for operand in got.computed.operands:  # the cells are listed in the block, not as sources of their own
        assert prompt.count(f"Source ID [{operand.short_id}]: cell of source [") == 1


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def test_the_real_chat_path_keeps_the_line_and_cites_the_cells(server: ScriptedOpenAIServer) -> None:
    retrieval = Retrieval(evidence(BALANCE), best_dense=0.9, best_coverage=1.0)
    first = answer(RATIO, ExtractiveAnswerer(), BALANCE).computed
    assert first is not None
    cell = first.operands[1].short_id
    server.push(stream("Current liabilities were ", f"3,456 [{cell}]", "; the ratio is 0.9."))
    settings = load_settings(
        llm_provider="openai",
        llm_base_url=server.base_url,
        llm_api_key="sk-test",
        llm_model="m",
        llm_timeout_s=60.0,
    )
    model, label = make_chat_model(settings)
    events = list(stream_answer(read_question(RATIO), retrieval, chat_model=model, provider_label=label))
    got = events[-1].answer
    assert got.text.startswith("Current ratio, FY2021 =") and got.text.endswith("the ratio is 0.9.")
    assert got.computed is not None and got.computed.result == "0.87"
    assert cell in {f.short_id for f in got.footnotes}
    sent = server.requests[0]["body"]["messages"]
    assert BLOCK_HEAD in sent[1]["content"] and "never redo or change its arithmetic" in sent[0]["content"]


def test_the_figure_is_saved_listed_and_audited() -> None:
    got = answer(RATIO, ExtractiveAnswerer(), BALANCE)
    again = answer_from_dict(json.loads(json.dumps(answer_to_dict(got))))
    assert again == got
    old = answer_to_dict(got)
    old.pop("computed")
    for item in old["evidence"]:
        item.pop("cell", None)
    assert answer_from_dict(old).computed is None  # a turn saved before computed figures still loads
    data = answer_json(got)
    assert data["computed"]["result"] == "0.87" and data["computed"]["unit"] == "ratio"
    assert [o["footnote"] for o in data["computed"]["operands"]] == [1, 2]
    assert data["footnotes"][0]["cell"]["label"] == "Total current assets"
    assert "computed" not in answer_json(answer("Who is Acme's auditor?", ExtractiveAnswerer(), BALANCE))
    records = turn_records(Turn("t1", "c1", 0, got))
    assert [r.evidence.short_id for r in records] == [o.short_id for o in got.computed.operands]


def test_rag_ask_json_carries_the_computed_object(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf([BALANCE.replace("\u2014", "-"), INCOME], "Acme annual report"), "acme.pdf")
    done = run_cli(tmp_path / "lib", "--json", "--k", "3", RATIO)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    computed = data["computed"]
    assert (computed["formula"], computed["result"], computed["unit"]) == (
        "current assets / current liabilities",
        "0.87",
        "ratio",
    )
    assert [(o["value"], o["scale"], o["label"], o["column"]) for o in computed["operands"]] == [
        ("3000", "millions", "Total current assets", "2021"),
        ("3456", "millions", "Total current liabilities", "2021"),
    ]
    numbers = {f["n"]: f for f in data["footnotes"]}
    for operand in computed["operands"]:
        cell = numbers[operand["footnote"]]
        assert cell["short_id"] == operand["short_id"] and cell["cell"]["printed"] == operand["printed"]
