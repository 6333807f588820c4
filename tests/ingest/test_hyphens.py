"""ingest.pdf.hyphens: a line-end hyphen is a compound's when the document prints that compound with
a hyphen inside a line (and never the joined word), else a soft one; no character index moves."""

from __future__ import annotations

from ingest.pdf.hyphens import compound_hyphens
from ingest.pdf.reader import read_pdf
from ingest.text import SOFT_HYPHEN
from tests.ingest.pdfs import make_pdf

S = SOFT_HYPHEN


def test_a_compound_the_document_prints_keeps_its_hyphen_where_a_line_breaks_it() -> None:
    pages = ["Our long-term debt grew.", f"We repaid long{S}term debt, and recog{S}nition came later."]
    assert compound_hyphens(pages) == [
        pages[0],
        "We repaid long-term debt, and recog" + S + "nition came later.",
    ]


def test_the_joined_word_printed_anywhere_keeps_the_hyphen_soft() -> None:
    pages = ["Data are stored on-premises.", f"Some on{S}premises servers; onpremises too."]
    assert compound_hyphens(pages)[1] == pages[1]


def test_each_pair_of_a_longer_compound_counts_and_case_does_not() -> None:
    texts = ["Weak-To-Strong generalization.", f"the weak-to{S}strong gap and a multi{S}hop claim"]
    assert compound_hyphens(texts)[1] == f"the weak-to-strong gap and a multi{S}hop claim"


def test_no_character_index_moves_and_a_surrogates_mark_is_left_alone() -> None:
    texts = [f"x-ray and X{S}ray, \U0001d465{S}ray", f"long-term, long{S}term"]
    out = compound_hyphens(texts)
    assert [len(t) for t in out] == [len(t) for t in texts]
    assert out[0] == f"x-ray and X-ray, \U0001d465{S}ray"  # the math letter's mark stays
    assert out[1] == "long-term, long-term"


def test_a_pdf_read_keeps_the_compound_and_joins_the_broken_word() -> None:
    data = make_pdf(["Our long-term debt grew.\nWe repaid long-\nterm debt and recog-\nnition came later."])
    text = read_pdf(data, "x.pdf").pages[0].text
    assert "repaid long-term debt" in text
    assert f"recog{S}nition" in text
