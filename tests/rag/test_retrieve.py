"""Hybrid retrieval on small real PDFs in a real library: the local one (SQLite + FAISS) and, for
every test that takes ``backend``, PostgreSQL + pgvector too, with the same expected evidence."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest

from ingest.embeddings import HashEmbeddings, LocalEmbeddings
from ingest.pdf.chunking import locator_text
from ingest.pdf.context import indexed_text
from ingest.types import Chunk, LibraryReader, PageLocator
from rag.questions.read import read_question
from rag.retrieval.fusion import fuse, merge_chunks
from rag.retrieval.lexical import LexicalCache, LexicalIndex, collection_paused
from rag.retrieval.page_stage import fused, fused_blind
from rag.retrieval.retrieve import dense_similarities, search_evidence, stand_in
from tests.rag.conftest import ENGINES, GARDEN, OpenLibrary, make_pdf, open_hash_library


def chunk(cid: str, text: str = "text", doc: str = "d", ordinal: int = 0) -> Chunk:
    return Chunk(cid * 8, doc, ordinal, text, (PageLocator(0, "1", 0, len(text)),))


def test_fuse_adds_reciprocal_ranks_across_rankings() -> None:
    a, b, c = chunk("a"), chunk("b"), chunk("c")
    fused = fuse([[a, b], [b, c]], rrf_k=60)
    assert [x.chunk_id[0] for x, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == 1 / 62 + 1 / 61


FRUIT = "apricot banana cherry damson elder fig guava hazel iris juniper".split()
# Short lines, so that neighbouring chunks of 140 characters share two of them (an overlap of 60).
ORCHARD = "\n".join(f"Row {i} grows {fruit} trees." for i, fruit in enumerate(FRUIT))


def test_overlapping_neighbours_come_back_merged_into_one_passage(open_backend_library: OpenLibrary) -> None:
    library = open_backend_library(chunk_size=140, chunk_overlap=60)
    orchard = library.add_pdf(make_pdf([ORCHARD], "Orchard"), "orchard.pdf").doc
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    rows = [c for c in library.chunks() if c.doc_id == orchard.doc_id]
    # "fig" is in one chunk only, "iris" in the next one only, "guava" in the lines they share.
    [second] = [c for c in rows if "fig" in c.text]
    [third] = [c for c in rows if "iris" in c.text]
    assert third.ordinal == second.ordinal + 1 and "guava" in second.text and "guava" in third.text
    found = search_evidence(library, read_question("Which rows grow fig and guava trees?"), k=2).evidence
    assert len(found) == 2
    joined = found[0]
    assert joined.chunk_id == second.chunk_id  # under the best-ranked member's id
    # one passage from the first member to the last (the chunk before them overlaps too, and joins)
    assert joined.locators[0].char_start <= second.locators[0].char_start
    assert joined.locators[-1].char_end >= third.locators[-1].char_end
    pages = library.pages(orchard.doc_id)
    assert joined.text == locator_text(pages, joined.locators)  # still exactly the page text
    assert found[1].chunk_id not in {second.chunk_id, third.chunk_id}  # the merge took one of the k places


@pytest.mark.parametrize(
    ("end", "merged"), [("The longest bridge over the river,", True), ("It is long.", False)]
)
def test_a_sentence_over_a_page_break_comes_back_whole(
    open_backend_library: OpenLibrary, end: str, merged: bool
) -> None:
    library = open_backend_library()
    first = (
        " ".join(f"Bridge number {n} crosses the river at mile {3 * n + 1}." for n in range(20)) + " " + end
    )
    second = "due to the engineer Ada Marsh, spans three hundred metres of water. The ferry still runs."
    doc = library.add_pdf(make_pdf([first, second], "Bridges"), "bridges.pdf").doc
    # the chunker splits at the page break: page 1's last chunk ends where the sentence breaks
    chunks = library.chunks()
    assert chunks[-2].text.endswith(end.split()[-1]) and chunks[-1].text.startswith("due to")
    found = search_evidence(
        library, read_question("Who built the longest bridge over the river?"), k=len(chunks)
    ).evidence
    [passage] = [e for e in found if "Ada Marsh" in e.text]
    if merged:  # one passage over both pages, still exactly the pages' text
        assert [loc.page_index for loc in passage.locators] == [0, 1]
        assert "over the river,\n\ndue to the engineer Ada Marsh" in passage.text
        assert passage.text == locator_text(library.pages(doc.doc_id), passage.locators)
    else:
        assert [loc.page_index for loc in passage.locators] == [1]
        assert any(end in e.text for e in found)  # the chunk before was retrieved, and left apart


def test_duplicate_text_comes_back_once_and_k_is_kept(open_backend_library: OpenLibrary) -> None:
    library = open_backend_library()
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(GARDEN, "Garden guide, second copy"), "garden-copy.pdf")  # the same text
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    found = search_evidence(library, read_question("When was the greenhouse built?"), k=3).evidence
    assert len(found) == 3
    assert sum("greenhouse was built in 1987" in e.text for e in found) == 1
    assert len({" ".join(e.text.split()).lower() for e in found}) == 3


def test_a_keyword_finds_its_page_with_locators(garden_library: LibraryReader) -> None:
    found = search_evidence(garden_library, read_question("When was the greenhouse built?"), k=2).evidence
    best = found[0]
    assert "1987" in best.text and best.title == "Garden guide" and best.file_name == "garden.pdf"
    assert best.page_index == 2 and best.page_label == "3"
    page_text = garden_library.pages(best.doc_id)[2].text
    assert page_text[best.char_start : best.char_end] in best.text
    assert len({e.short_id for e in found}) == len(found) == 2
    assert all(e.chunk_id.startswith(e.short_id) for e in found)


def test_the_document_filter_keeps_other_documents_out(garden_library: LibraryReader) -> None:
    engines = next(d.doc_id for d in garden_library.documents() if d.file_name == "engines.pdf")
    found = search_evidence(
        garden_library, read_question("When was the greenhouse built?"), k=5, doc_ids=[engines]
    ).evidence
    assert found and {e.doc_id for e in found} == {engines}


def test_relevance_signal_separates_related_from_unrelated(garden_library: LibraryReader) -> None:
    related = search_evidence(garden_library, read_question("When must a compost heap be turned?"), k=3)
    unrelated = search_evidence(
        garden_library, read_question("Which violinist played Paganini caprices?"), k=3
    )
    assert related.best_coverage == 1.0 and unrelated.best_coverage == 0.0
    assert related.is_relevant(0.9, 0.5) and not unrelated.is_relevant(0.9, 0.5)


def test_a_name_the_question_gives_makes_evidence_related_when_written_as_a_name(
    garden_library: LibraryReader,
) -> None:
    named = search_evidence(garden_library, read_question("Who was James Watt's teacher?"), k=3)
    common = search_evidence(
        garden_library, read_question("Who painted Full Sun?"), k=3
    )  # the guide's "full sun" is no name
    assert named.best_coverage == common.best_coverage == 2 / 3  # two of three words each
    assert max(named.best_dense, common.best_dense) < 0.9
    assert named.names_found and not common.names_found
    assert named.is_relevant(0.9, 0.8) and not common.is_relevant(0.9, 0.8)


def test_the_lexical_index_follows_adds_and_deletes(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    cache = LexicalCache()
    assert search_evidence(library, read_question("compost heap"), k=3, lexical=cache).evidence == ()
    garden = library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf").doc
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    assert cache.get(library).search("compost heap", 3)[0][0].doc_id == garden.doc_id
    library.delete(garden.doc_id)
    assert all(c.doc_id != garden.doc_id for c, _ in cache.get(library).search("compost heap", 3))
    assert all(
        e.doc_id != garden.doc_id
        for e in search_evidence(library, read_question("compost heap"), k=3).evidence
    )


def test_lexical_index_on_an_empty_library_finds_nothing() -> None:
    assert LexicalIndex([]).search("anything", 3) == []


def test_dense_half_finds_a_paraphrase_with_local_embeddings(open_backend_library: OpenLibrary) -> None:
    library = open_backend_library(
        LocalEmbeddings(), embedding_name="local-test", chunk_size=200, chunk_overlap=0
    )
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    # No content word shared with the passage: only the dense half can find it.
    found = search_evidence(library, read_question("motors firing gasoil through pressure"), k=1)
    assert "Diesel" in found.evidence[0].text
    assert found.best_dense > 0.3


def _cosine(embeddings, question: str, text: str) -> float:
    q, t = np.asarray(embeddings.embed_query(question)), np.asarray(embeddings.embed_documents([text])[0])
    return float(q @ t / (np.linalg.norm(q) * np.linalg.norm(t)))


def test_evidence_score_is_the_dense_cosine_even_for_bm25_only_hits(
    open_backend_library: OpenLibrary,
) -> None:
    library = open_backend_library(chunk_size=200, chunk_overlap=0)  # no merged pieces
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    question = "Which engines and which compost heap were improved in 1765 or turned in May?"
    found = search_evidence(library, read_question(question), k=5, candidates=2).evidence
    dense_ids = {c.chunk_id for c, _ in library.search_vector(library.embeddings.embed_query(question), 2)}
    assert len(found) >= 3 and {e.chunk_id for e in found} - dense_ids  # some found by BM25 alone
    expected = [max(0.0, _cosine(library.embeddings, question, e.text)) for e in found]
    assert [e.score for e in found] == pytest.approx(expected, abs=1e-4)
    assert all(0.0 <= e.score <= 1.0 for e in found)
    by_score = sorted(found, key=lambda e: -e.score)
    by_cosine = [e for _, e in sorted(zip(expected, found), key=lambda pair: -pair[0])]
    assert [e.short_id for e in by_score] == [e.short_id for e in by_cosine]


class _Recording(HashEmbeddings):
    """The hash fake, remembering every passage it was asked to embed."""

    def __init__(self) -> None:
        super().__init__(384)
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += texts
        return super().embed_documents(texts)


def test_passages_of_a_words_only_document_are_not_embedded_and_have_no_cosine() -> None:
    embeddings = _Recording()
    question = "When is the compost heap turned?"
    new = chunk("n", "The compost heap is turned in May.", doc="new")
    old = chunk("o", "A compost heap of leaves and grass.", doc="old")
    other = chunk("e", "Steam engines burn coal.", doc="old", ordinal=1)
    known = chunk("k", "Compost needs air.", doc="old", ordinal=2)
    vector = embeddings.embed_query(question)
    sims = dense_similarities(
        embeddings, vector, [[new], [old], [new, other], [known]], {known.chunk_id: 0.42}, frozenset({"new"})
    )
    assert embeddings.embedded == [
        indexed_text(old.context, old.text),
        indexed_text(other.context, other.text),
    ]
    assert sims[0] is None  # nothing of it can be measured before its vectors are in
    assert sims[1] == pytest.approx(max(0.0, _cosine(embeddings, question, old.text)), abs=1e-6)
    assert sims[2] == pytest.approx(max(0.0, _cosine(embeddings, question, other.text)), abs=1e-6)
    assert sims[3] == 0.42  # returned by the dense search: not embedded again
    # Without words-only documents every missing member is embedded, as before.
    again = _Recording()
    sim = dense_similarities(again, vector, [[new]], {})[0]
    assert again.embedded == [new.text]
    assert sim == pytest.approx(max(0.0, _cosine(again, question, new.text)), abs=1e-6)


class _Counted:
    """A library of one chunk that notes whether the garbage collector ran while it was read."""

    generation, cache_dir = 1, None  # no folder: the index is built from chunks()

    def __init__(self) -> None:
        self.collector_on: list[bool] = []

    def chunks(self) -> list[Chunk]:
        self.collector_on.append(gc.isenabled())
        return [chunk("a", "The compost heap is turned in May.")]


def test_the_index_is_built_with_the_garbage_collector_held_off_then_restored() -> None:
    library = _Counted()
    assert gc.isenabled()
    assert LexicalCache().get(library).search("compost", 1)
    assert library.collector_on == [False] and gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        LexicalCache().get(_Counted())
        assert not gc.isenabled()
    finally:
        gc.enable()
    with collection_paused():  # nested (another thread's build): on again only after the last
        with collection_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_warm_up_builds_the_index_in_the_background_once_per_generation(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    cache = LexicalCache()
    thread = cache.warm(library)
    assert thread is not None
    thread.join(timeout=60)
    built = cache.get(library)
    assert built.generation == library.generation and built.search("compost heap", 1)
    assert cache.warm(library) is None  # built for this generation already: nothing to do
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    thread = cache.warm(library)  # the library changed: build again
    assert thread is not None
    thread.join(timeout=60)
    assert cache.get(library) is not built and cache.get(library).generation == library.generation


def test_a_failed_warm_up_is_logged_and_the_question_still_works(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")

    class Broken:
        generation, cache_dir = 1, None

        def chunks(self) -> list:
            raise OSError("disk went away")

    cache = LexicalCache()
    thread = cache.warm(Broken())
    assert thread is not None
    thread.join(timeout=60)
    assert "warming the BM25 index failed" in caplog.text
    assert cache.get(library).search("compost heap", 1)


def test_a_document_without_vectors_stands_in_the_dense_ranking_at_its_rank_by_words() -> None:
    # Issue 21: a new filing searched by words only beside documents with vectors. Dense search
    # cannot see its chunks (x, y); they take their rank by words in the dense ranking too, so the
    # fusion treats them as if both halves agreed, not as if dense had ranked them last.
    a, b, c = chunk("a", doc="old"), chunk("b", doc="old"), chunk("c", doc="old")
    x, y = chunk("x", doc="new"), chunk("y", doc="new")
    words = [x, a, y]
    dense = stand_in([a, b, c], words, frozenset({"new"}))
    assert [ch.chunk_id[0] for ch in dense] == ["x", "a", "y", "b", "c"]
    assert fuse([dense, words])[0][0] is x
    assert fuse([[a, b, c], words])[0][0] is a  # what happened before: a beat x
    assert stand_in([a, b, c], words, frozenset()) == [a, b, c]  # every document has its vectors


def test_the_page_stage_ranks_a_page_without_vectors_by_words_in_both_halves() -> None:
    lexical, dense = {"new-page": 3.0, "old-page": 2.0}, {"old-page": 0.9, "other": 0.8}
    blind = fused_blind(lexical, dense, lambda key: key == "new-page")
    assert max(blind, key=blind.get) == "new-page"
    seeing = fused_blind(lexical, dense, lambda key: False)
    assert seeing == fused(lexical, dense) and max(seeing, key=seeing.get) == "old-page"


def test_a_merged_passage_keeps_its_members_sections_in_order() -> None:
    loc = lambda start, end: (PageLocator(0, "1", start, end),)  # noqa: E731
    one = Chunk("a" * 64, "d", 0, "Item 2. Properties One factory.", loc(0, 30), sections=("Item 2",))
    two = Chunk("b" * 64, "d", 1, "One factory. Item 3. Legal", loc(18, 44), sections=("Item 2", "Item 3"))
    merged = merge_chunks([two, one], two)
    assert merged.chunk_id == two.chunk_id and merged.sections == ("Item 2", "Item 3")
