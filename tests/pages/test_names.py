"""The name a document is shown under (components/shared/names.py): its title when it names something."""

from __future__ import annotations

import pytest

from components.panel.preview import footnote_previews
from components.shared.names import document_name
from ingest.types import PageLocator
from rag.answering.answer import build_answer
from rag.types import Evidence


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("PepsiCo, Inc. 2021 Annual Report", "PepsiCo, Inc. 2021 Annual Report"),
        ("Nike 2023 Proxy", "Nike 2023 Proxy"),
        ("  Attention Is\nAll You Need ", "Attention Is All You Need"),
        # real filings' metadata titles that name nothing (filings-dev)
        ("0001564590-21-009205", "MGMRESORTS_2020_10K.pdf"),
        ("Document", "MGMRESORTS_2020_10K.pdf"),
        ("LMT Q4 2022 10K", "MGMRESORTS_2020_10K.pdf"),
        ("F20_10K_VFinal_07.01.2020", "MGMRESORTS_2020_10K.pdf"),
        ("", "MGMRESORTS_2020_10K.pdf"),
    ],
)
def test_a_title_that_names_nothing_gives_way_to_the_file_name(title: str, shown: str) -> None:
    assert document_name(title, "MGMRESORTS_2020_10K.pdf") == shown


def test_without_a_file_name_the_title_stays() -> None:
    assert document_name("Document", "") == "Document"


def test_the_name_is_on_one_line_whichever_it_is() -> None:
    assert document_name("Document", "annual\nreport  2021.pdf") == "annual report 2021.pdf"


def test_the_side_panel_names_a_filing_by_its_file_name_when_its_title_is_an_accession_number() -> None:
    ev = Evidence(
        "abc1234",
        "a" * 64,
        "d" * 64,
        "0001564590-21-009205",
        "MGMRESORTS_2020_10K.pdf",
        "Casino 1.",
        0.5,
        (PageLocator(4, "5", 0, 9),),
    )
    answer = build_answer("What was casino revenue?", "Casino 1. [abc1234]", [ev], provider="test")
    assert [p["title"] for p in footnote_previews(answer)] == ["MGMRESORTS_2020_10K.pdf"]
    assert ev.title == "0001564590-21-009205"  # the stored title (and the prompt's) is untouched
