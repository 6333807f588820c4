"""Every page of every PDF of docs-dev and sample-files is read into valid text and chunked
(reading and chunking only, so the suite stays fast), and the two docs-dev PDFs whose text layer
holds math italic letters (characters above U+FFFF) are added to a library."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.embeddings import LOCAL_NAME, HashEmbeddings, LocalEmbeddings
from ingest.errors import IngestError, UnreadableText
from ingest.local.library import Library
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.context import indexed_text
from ingest.pdf.reader import read_pdf
from ingest.text import first_invalid
from tests.ingest.test_corpus import FAILS, PASSWORDS

pytestmark = pytest.mark.corpus
PAPER = "2310.09158v1.pdf"  # 23 pages: added with the local model, whose tokenizer refused them
MANUAL = "mmdetection-readthedocs-io-en-v2.18.0.pdf"  # 468 pages: stored with the fake embeddings


def _above_bmp(text: str) -> bool:
    return any(ord(c) > 0xFFFF for c in text)


def test_every_page_of_every_pdf_is_valid_text(corpus: Path) -> None:
    paths = sorted((corpus / "docs-dev" / "pdfs").glob("*.pdf")) + sorted(
        (corpus / "sample-files").rglob("*.pdf")
    )
    assert len(paths) >= 26 + 30
    read = 0
    for path in (p for p in paths if p.name != MANUAL):  # the manual is read by the test below
        try:
            doc = read_pdf(path.read_bytes(), path.name, password=PASSWORDS.get(path.name))
        except IngestError as exc:  # the sample files that must fail, each for its own reason
            assert path.name in FAILS and not isinstance(exc, UnreadableText), (path.name, exc)
            continue
        texts = [p.text for p in doc.pages] + [doc.title] + [h.title for h in doc.outline + doc.layout]
        assert first_invalid(texts) is None, path.name
        chunks = chunk_pages("doc", doc.pages, 1000, 150)
        assert chunks and first_invalid([c.text for c in chunks]) is None, path.name
        assert _above_bmp("".join(texts)) == (path.name == PAPER), path.name
        read += 1
    assert read == len(paths) - 1 - len(FAILS)


def test_the_pdfs_with_math_letters_are_added(corpus: Path, tmp_path: Path) -> None:
    pdfs = corpus / "docs-dev" / "pdfs"
    local = LocalEmbeddings()
    paper = Library.open(tmp_path / "paper", local, embedding_name=LOCAL_NAME)
    added = paper.add_pdf((pdfs / PAPER).read_bytes(), PAPER)
    assert added.status == "ok" and added.doc.pages == 23 and paper.check() == []
    assert any(_above_bmp(c.text) for c in paper.chunks())

    manual = Library.open(tmp_path / "manual", HashEmbeddings(), embedding_name="fake:hash:384")
    added = manual.add_pdf((pdfs / MANUAL).read_bytes(), MANUAL)
    assert added.status == "ok" and added.doc.pages == 468 and manual.check() == []
    math = [c for c in manual.chunks() if _above_bmp(c.text)]
    assert math  # and the local model takes them as they are stored and searched:
    assert len(local.embed_documents([indexed_text(c.context, c.text) for c in math])) == len(math)
