"""The library as a LangChain retriever, and the example of docs/langchain.md that uses it, run verbatim."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest
from langchain_core.retrievers import BaseRetriever

from ingest.local.library import Library
from rag.retrieval.retriever import library_retriever
from tests.rag.conftest import make_pdf, open_hash_library

ROOT = Path(__file__).resolve().parents[2]
WATER = [
    (
        "Water boils at one hundred degrees Celsius at sea level. At higher altitudes the boiling point "
        "drops because the air pressure is lower."
    ),
    (
        "Salt lowers the freezing point of water, which is why roads are salted in winter. Sea water "
        "freezes at about minus two degrees."
    ),
]
METADATA = {"short_id", "doc_id", "title", "page_index", "page_label", "char_start", "char_end", "score"}


def test_documents_carry_the_evidence_locators(hash_library: Library) -> None:
    retriever = library_retriever(hash_library, k=3)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("How often must a compost heap be turned?")
    assert 1 <= len(docs) <= 3
    top = docs[0].metadata
    assert set(top) >= METADATA and top["title"] == "Garden guide" and "turned" in docs[0].page_content
    page = hash_library.pages(top["doc_id"])[top["page_index"]]
    assert top["page_label"] == page.label
    single = [d for d in docs if d.metadata["page_end_index"] == d.metadata["page_index"]]
    assert single
    for doc in single:  # the offsets point at the passage on its page
        meta = doc.metadata
        text = hash_library.pages(meta["doc_id"])[meta["page_index"]].text
        shown = text[meta["char_start"] : meta["char_end"]]
        assert " ".join(shown.split()) == " ".join(doc.page_content.split())


def test_doc_ids_limit_the_search(hash_library: Library) -> None:
    engines = next(d.doc_id for d in hash_library.documents() if d.title == "Engines primer")
    docs = library_retriever(hash_library, k=5, doc_ids=[engines]).invoke("compost heap turned")
    assert docs and {d.metadata["doc_id"] for d in docs} == {engines}


def _docs_example() -> str:
    text = (ROOT / "docs" / "langchain.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 1, "docs/langchain.md should hold exactly one python block"
    return blocks[0]


def test_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data_dir = tmp_path / "data"
    library = open_hash_library(data_dir, chunk_size=180, chunk_overlap=0)
    library.add_pdf(make_pdf(WATER, "Water facts"), "water.pdf")
    short_ids = {c.short_id for c in library.chunks()}
    for name in [n for n in os.environ if n.startswith("FOOTNOTE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("FOOTNOTE_EMBEDDING_PROVIDER", "fake")
    monkeypatch.setenv("FOOTNOTE_CHUNK_SIZE", "180")
    monkeypatch.setenv("FOOTNOTE_CHUNK_OVERLAP", "0")
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml of the developer's
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = compile(_docs_example(), "docs/langchain.md", "exec")
        exec(code, {"__name__": "docs_example"})
    printed = out.getvalue()
    first = re.search(r"^\[(\w+)\] Water facts, page 1: Water boils", printed, re.MULTILINE)
    assert first and first.group(1) in short_ids
    context = re.search(r"^\[(\w+)\] Salt lowers the freezing point", printed, re.MULTILINE)
    assert context and context.group(1) in short_ids


def test_k_and_doc_ids_work_per_call_and_leave_the_retriever_as_it_was(hash_library: Library) -> None:
    engines = next(d.doc_id for d in hash_library.documents() if d.title == "Engines primer")
    retriever = library_retriever(hash_library, k=4)
    assert len(retriever.invoke("compost heap turned", k=1)) == 1
    only = retriever.invoke("compost heap turned", doc_ids=[engines])
    assert only and {d.metadata["doc_id"] for d in only} == {engines}
    again = retriever.invoke("compost heap turned")
    assert retriever.k == 4 and retriever.doc_ids is None
    assert len(again) > 1 and len({d.metadata["doc_id"] for d in again}) == 2


async def test_ainvoke_passes_the_call_keywords_on(hash_library: Library) -> None:
    engines = next(d.doc_id for d in hash_library.documents() if d.title == "Engines primer")
    docs = await library_retriever(hash_library, k=4).ainvoke("compost heap turned", k=1, doc_ids=[engines])
    assert len(docs) == 1 and docs[0].metadata["doc_id"] == engines


@pytest.mark.parametrize(
    ("keywords", "error", "words"),
    [
        ({"top_k": 2}, TypeError, "not ['top_k']"),
        ({"k": 0}, ValueError, "at least 1, not 0"),
        ({"k": "2"}, ValueError, "not '2'"),
        ({"doc_ids": "abc123"}, TypeError, "not the string 'abc123'"),
    ],
)
def test_a_wrong_call_keyword_is_refused_not_ignored(
    hash_library: Library, keywords: dict, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=re.escape(words)):
        library_retriever(hash_library).invoke("compost", **keywords)
