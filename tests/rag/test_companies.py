"""One company's filings and the short names a question gives it (rag.retrieval.filings.companies), and
the document stage naming a company by them."""

from __future__ import annotations

from ingest.types import Chunk, PageLocator
from rag.questions.read import read_question
from rag.retrieval.documents import pick_documents
from rag.retrieval.filings.companies import abbreviates, brand_companies, company_of, name_words
from rag.retrieval.filings.covers import Cover
from rag.retrieval.filings.profiles import DocumentProfiles, profile_text


def test_filings_sharing_a_cover_key_are_one_company_transitively() -> None:
    covers = [
        Cover("10-K", 2016, keys=("ein:46-2078182", "file:1-37482")),  # no trading symbol yet
        Cover("10-K", 2019, keys=("ein:46-2078182", "file:1-37482", "symbol:khc")),
        Cover("release", 2023, quarter=1, keys=("symbol:khc",)),  # a release prints the symbol only
        Cover("10-K", 2019, keys=("ein:13-2624428",)),
        Cover(),  # no cover: its own
        Cover(),
    ]
    assert company_of(covers) == [0, 0, 0, 1, 2, 3]


def test_documents_without_covers_are_one_company_by_a_file_name_few_share() -> None:
    stems = [("kestrelmining",), ("kestrelmining",), *[("report",)] * 4, ("other",)]
    assert company_of([Cover()] * 7, stems) == [0, 0, 1, 2, 3, 4, 5]  # most are "report": no one


def test_short_names_are_read_against_the_names_filings_give_themselves() -> None:
    kraft = [name_words("The Kraft Heinz Company")]
    water = [name_words("AMERICAN WATER WORKS COMPANY, INC.")]
    jnj = [name_words("Johnson & Johnson")]
    pepsi = [name_words("PepsiCo, Inc.")]
    assert abbreviates("KHC", kraft) and abbreviates("AmWater", water) and abbreviates("J&J", jnj)
    assert abbreviates("Pepsi", pepsi)
    assert not abbreviates("KH", water) and not abbreviates("AmWorks", water)  # not consecutive words
    assert not abbreviates("Pe", pepsi) and not abbreviates("PepsiCo", pepsi)  # too short; the name itself


def _chunk(doc: str, page: int, text: str) -> Chunk:
    return Chunk(
        f"{doc}-{page}".ljust(64, "0"), doc, page, text, (PageLocator(page, str(page + 1), 0, len(text)),)
    )


def test_a_brand_names_the_company_whose_filings_write_it_on_many_pages() -> None:
    hits = [_chunk("ko16", p, "Diet Coke and Coke Zero grew.") for p in range(6)]
    hits += [_chunk("aes16", p, "Pet Coke supply contracts.") for p in range(2)]
    hits += [_chunk("aes16", p + 10, "coke and coal prices") for p in range(9)]  # not written as a name
    company = {"ko16": 0, "aes16": 1}
    assert brand_companies("Coke", lambda _w, _k: [(c, 1.0) for c in hits], company) == {0}
    few = [h for h in hits if h.doc_id == "aes16"]
    assert brand_companies("Coke", lambda _w, _k: [(c, 1.0) for c in few], company) == set()


def test_a_short_name_picks_the_companys_filing_of_the_asked_period() -> None:
    covers = {
        "awk18": Cover(
            "10-K", 2018, 12, 31, keys=("ein:51-0063696",), name="AMERICAN WATER WORKS COMPANY, INC."
        ),
        "awk19": Cover("10-K", 2019, 12, 31, keys=("ein:51-0063696", "symbol:awk")),
        "awk20": Cover("10-K", 2020, 12, 31, keys=("ein:51-0063696", "symbol:awk")),
        **{f"co{n}": Cover("10-K", 2019, 12, 31, keys=(f"ein:00-000000{n}",)) for n in range(6)},
    }
    texts = {
        d: f"{c.name} annual report for the fiscal year ended December 31, {c.year}"
        for d, c in covers.items()
    }
    profiles = DocumentProfiles(
        {d: profile_text("", f"{d}.pdf", [t]) for d, t in texts.items()}, covers=covers
    )
    pick = pick_documents(profiles, read_question("Is AmWater capital-intensive? Use FY2019."))
    assert pick is not None and pick.doc_ids == ("awk19",)
    pick = pick_documents(profiles, read_question("What did AWK spend on capex in 2020?"))  # its symbol
    assert pick is not None and pick.doc_ids == ("awk20",)
