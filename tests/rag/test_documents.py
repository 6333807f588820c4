"""The document stage: a question's naming words pick documents; a library of unnamed documents
(or one too small for any word to name a document) is left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.local.library import Library
from ingest.types import Chunk, PageLocator
from rag.questions.read import read_question
from rag.retrieval.documents import drew_on, pick_documents, small_library_names
from rag.retrieval.filings.covers import Cover, read_cover
from rag.retrieval.filings.profiles import DocumentProfiles, ProfileCache, profile_text, profiles_for
from rag.retrieval.lexical import LexicalIndex, tokenize
from rag.retrieval.retrieve import search_evidence, without_words
from rag.types import Answer, Evidence, Footnote
from tests.rag.conftest import make_pdf, open_hash_library

COMPANIES = [
    "Ashcombe Mills",
    "Bellhaven Foods",
    "Corrigan Steel",
    "Dunmore Textiles",
    "Elsworth Paper",
    "Farrowby Glass",
]
# The same body in every report: only the cover says whose it is (as in many real 10-Ks).
BODY = (
    "Purchases of property and equipment were 249 in the year, mainly for new packaging lines. "
    "Capital spending next year is expected to be similar. The board reviews every large project "
    "twice a year against its budget and its expected return. Most spending went to the plants "
    "that make our best-selling lines, and a smaller share to warehouses and information systems, "
    "where older equipment was replaced."
)


GENERIC = [
    f"Inc. reported {topic} for the year; {topic} are described in the notes. " * 5
    for topic in ("revenue", "segment results", "income taxes", "leases", "pension costs", "debt maturities")
]


def _profiles(names: list[str]) -> DocumentProfiles:
    return DocumentProfiles(
        {f"doc{i}": profile_text(f"{n} annual report", f"report-{i}.pdf", []) for i, n in enumerate(names)}
    )


def test_a_named_company_picks_its_report() -> None:
    pick = pick_documents(
        _profiles(COMPANIES), read_question("What did Dunmore Textiles spend on equipment?")
    )
    assert pick is not None and pick.doc_ids == ("doc3",)
    assert set(pick.words) == set(tokenize("Dunmore Textiles"))


def test_no_naming_word_or_a_small_library_picks_nothing() -> None:
    assert (
        pick_documents(
            _profiles(COMPANIES), read_question("What was spent on equipment in the annual report?")
        )
        is None
    )
    assert pick_documents(_profiles(COMPANIES[:3]), read_question("What did Corrigan Steel spend?")) is None


def test_the_pick_stays_within_the_documents_the_user_limited_to() -> None:
    profiles = _profiles(COMPANIES)
    assert (
        pick_documents(
            profiles, read_question("Dunmore Textiles spending?"), ["doc0", "doc1", "doc2", "doc4"]
        )
        is None
    )
    limited = pick_documents(
        profiles, read_question("Dunmore Textiles spending?"), [f"doc{i}" for i in range(6)]
    )
    assert limited is not None and limited.doc_ids == ("doc3",)


def _reports(path: Path) -> tuple[Library, dict[str, str]]:
    library = open_hash_library(path)
    ids = {}
    for name in COMPANIES:
        cover = f"{name}, Inc.\nAnnual Report on Form 10-K\nFor the fiscal year ended December 31, 2023"
        ids[name] = library.add_pdf(
            make_pdf([cover, BODY], f"Form 10-K {len(ids)}"), f"report-{len(ids)}.pdf"
        ).doc.doc_id
    return library, ids


def test_retrieval_draws_on_the_named_report_among_look_alikes(tmp_path: Path) -> None:
    library, ids = _reports(tmp_path / "lib")
    for name in ("Elsworth Paper", "Bellhaven Foods"):
        retrieval = search_evidence(
            library, read_question(f"How much did {name} spend on purchases of equipment?"), k=3
        )
        body = [e for e in retrieval.evidence if "249" in e.text]
        assert body and body[0].doc_id == ids[name]
        assert retrieval.picked == (ids[name],)


def test_profiles_are_cached_per_library_generation(tmp_path: Path) -> None:
    library, _ = _reports(tmp_path / "lib")
    cache = ProfileCache()
    first = cache.get(library)
    assert cache.get(library) is first
    library.add_pdf(make_pdf(["Glenhurst Ltd annual report", BODY], "Glenhurst"), "glenhurst.pdf")
    assert cache.get(library) is not first and len(cache.get(library).terms) == len(COMPANIES) + 1


def test_a_small_library_is_named_only_by_what_a_title_or_file_name_writes() -> None:
    titles = {
        "water": "0001410636-23-000011 AMERICANWATERWORKS_2022_10K.pdf",
        "socal": "Southern California a.pdf",
    }
    profiles = DocumentProfiles(
        {
            "water": profile_text(
                titles["water"], "", ["American Water Works Company, Inc. Camden, New Jersey"]
            ),
            "socal": profile_text(
                titles["socal"], "", ["Southern California includes Los Angeles and San Diego."]
            ),
        },
        titles=titles,
    )
    assert set(
        small_library_names(profiles, read_question("What was American Water Works' revenue?"))
    ) == set(tokenize("American Water Works"))
    # on the article's first page, but what the question is about, not which document it asks
    assert (
        small_library_names(profiles, read_question("In which direction from Los Angeles is San Diego?"))
        == ()
    )
    assert small_library_names(profiles, read_question("How large is Southern California?")) == tuple(
        sorted(tokenize("Southern California"))
    )
    assert small_library_names(profiles, read_question("How large is Southern California?"), ["water"]) == ()
    # a name joins its words to meet a file name's; a name no title starts with names nothing
    assert small_library_names(profiles, read_question("Where is Water Works based?")) == ()


def test_saved_profiles_know_the_titles_too(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(
        make_pdf(["Corrigan Steel, Inc. annual report", BODY], "0000000000-24-000001"), "CORRIGANSTEEL.pdf"
    )
    built, reread = profiles_for(library), profiles_for(library)
    assert not built.saved and reread.saved
    question = "What did Corrigan Steel spend on equipment?"
    assert (
        small_library_names(reread, read_question(question))
        == small_library_names(built, read_question(question))
        == tuple(sorted(tokenize("Corrigan Steel")))
    )


def test_a_small_librarys_search_keeps_the_names_no_title_writes(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    cities = (
        "Southern California includes Los Angeles, San Diego and Riverside, and its economy is large. "
        "Los Angeles and San Diego have many business districts and ports. " * 3
    )
    answer = "To the south of Los Angeles, with a population of 1,307,402, is San Diego."
    filler = "The region has mountains, deserts and a long coast, and many people visit it every year. " * 6
    socal = library.add_pdf(
        make_pdf([cities, filler, answer + " " + filler], "Southern California"), "socal.pdf"
    )
    for n, topic in enumerate(("the cardinal virtues", "direction finding at sea")):
        text = f"This essay is about {topic}. In which direction one travels matters here. " * 8
        library.add_pdf(make_pdf([text], f"Essay {n}"), f"essay-{n}.pdf")
    # Searched without "Los Angeles" and "San Diego", the question was about cardinal directions:
    # the essays only. With them, the article about the two cities is in the evidence.
    retrieval = search_evidence(
        library, read_question("In which cardinal direction from Los Angeles is San Diego?"), k=3
    )
    assert any(e.doc_id == socal.doc.doc_id for e in retrieval.evidence)


def test_bm25_reads_a_chunks_context_too() -> None:
    row = Chunk(
        "a" * 64,
        "d",
        0,
        "Dividends paid (38) (50)",
        (PageLocator(0, "1", 0, 24),),
        "Consolidated Statements of Cash Flows | 2023 2022",
    )
    other = Chunk("b" * 64, "d", 1, "Dividends paid to employees trust", (PageLocator(1, "2", 0, 33),))
    found = LexicalIndex([other, row]).search("cash flows dividends", 2)
    assert found[0][0].chunk_id == row.chunk_id


def test_shorthand_in_the_question_reaches_the_spelled_out_line(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    filler = " ".join(["Revenue grew in every region we serve, and what was sold was paid for."] * 6)
    library.add_pdf(
        make_pdf([filler, BODY, "Depreciation and amortization was 176 for the year."], "Report"), "r.pdf"
    )
    retrieval = search_evidence(library, read_question("What was D&A?"), k=1)
    assert "Depreciation and amortization" in retrieval.evidence[0].text


def test_drew_on_lists_each_cited_document_once_in_citation_order() -> None:
    def note(n: int, doc: str, title: str) -> Footnote:
        ev = Evidence(f"s{n}", f"c{n}", doc, title, f"{doc}.pdf", "text", 1.0, (PageLocator(0, "1", 0, 4),))
        return Footnote(n, ev.short_id, ev, ())

    notes = (note(1, "b", "Beta  report"), note(2, "a", ""), note(3, "b", "Beta report"))
    answer = Answer("q", "text", notes, (), ())
    assert drew_on(answer) == (("b", "Beta report"), ("a", "a.pdf"))


def test_a_tie_among_too_many_documents_picks_none_of_them() -> None:
    profiles = DocumentProfiles(
        {f"doc{i}": f"{'Tessaro' if i < 4 else 'Quillon'} annual report {i}" for i in range(20)}
    )
    assert (
        pick_documents(profiles, read_question("Tessaro revenue?")) is None
    )  # four reports tie: none is named more than the others
    assert pick_documents(profiles, read_question("Tessaro revenue in report 2?")).doc_ids == ("doc2",)


def test_within_the_named_report_the_name_itself_does_not_crowd_out_the_answer(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    legal = (
        "Item 3. Legal Proceedings. We are not a party to any material pending legal proceedings, "
        "and no such proceedings are known to be contemplated by governmental authorities. " * 3
    )
    for name in COMPANIES:
        named = [
            f"{name}, Inc. Annual Report on Form 10-K. {name} makes goods. " * 4,
            f"Signatures. {name}, Inc. has duly caused this report to be signed. {name}. " * 4,
            f"Exhibits of {name}, Inc.: articles and bylaws of {name}. " * 5,
        ]
        pages = [named[0], legal, BODY, *named[1:], *(f"{name} {line}" for line in GENERIC)]
        library.add_pdf(make_pdf(pages, f"{name} 10-K"), f"{name}.pdf")
    retrieval = search_evidence(
        library, read_question("Has Dunmore Textiles, Inc. reported any legal proceedings?"), k=3
    )
    assert any(
        "Legal Proceedings" in e.text and e.title == "Dunmore Textiles 10-K" for e in retrieval.evidence
    )


def test_without_words_drops_the_words_of_the_given_terms_only() -> None:
    assert without_words("Has Dunmore Textiles, Inc. sued?", tokenize("Dunmore Textiles")) == "Has Inc sued"
    assert without_words("Dunmore", tokenize("Dunmore")) == "Dunmore"  # nothing left: keep the question


def test_profiles_read_the_first_pages_in_one_query_as_page_by_page(tmp_path: Path) -> None:
    from rag.retrieval.filings.profiles import PROFILE_PAGES, build_profiles
    from tests.rag.conftest import ENGINES, GARDEN

    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines"), "engines.pdf")
    expected = {d.doc_id: library.pages(d.doc_id)[:PROFILE_PAGES] for d in library.documents()}
    assert library.first_pages(PROFILE_PAGES) == expected
    assert all(len(pages) == PROFILE_PAGES for pages in expected.values())
    texts = {d: [p.text for p in pages] for d, pages in expected.items()}
    page_by_page = DocumentProfiles(
        {d.doc_id: profile_text(d.title, d.file_name, texts[d.doc_id]) for d in library.documents()},
        covers={d: read_cover(t) for d, t in texts.items()},
    )
    assert build_profiles(library).terms == page_by_page.terms


def test_a_year_chooses_among_a_companys_reports_but_never_outweighs_its_name() -> None:
    # Ten reports: Dunmore's for 2022 and 2023, and eight other companies', one of them for 2021,
    # which is as rare a year in this library as the company's name is.
    names = [("Dunmore Textiles", 2022), ("Dunmore Textiles", 2023), ("Ashcombe Mills", 2021)]
    names += [
        (f"{n} Holdings", 2020 + i % 2 * 4) for i, n in enumerate("Bel Cor Elm Far Gor Hal Ivo".split())
    ]
    profiles = DocumentProfiles(
        {
            f"doc{i}": profile_text(f"{n} annual report fiscal {y}", f"r{i}-fy{y}.pdf", [])
            for i, (n, y) in enumerate(names)
        }
    )
    pick = pick_documents(profiles, read_question("Dunmore Textiles capex in fiscal 2021?"))
    assert pick is not None and set(pick.doc_ids) == {"doc0", "doc1"}  # not Ashcombe's 2021 report
    pick = pick_documents(profiles, read_question("Dunmore Textiles capex in fiscal 2023?"))
    assert pick is not None and pick.doc_ids[0] == "doc1"
    pick = pick_documents(
        profiles, read_question("capex in fiscal 2021?")
    )  # only a year: it names the report
    assert pick is not None and pick.doc_ids == ("doc2",)


def test_a_word_written_in_lower_case_beside_capitalised_names_names_no_document() -> None:
    names = [*COMPANIES, "Kestrel Bay Materials", "Kestrel Ridge Therapeutics"]
    profiles = _profiles(names)
    pick = pick_documents(
        profiles, read_question("Has Kestrel Ridge Therapeutics reported any material legal proceedings?")
    )
    assert pick is not None and pick.doc_ids == ("doc7",) and "materi" not in pick.words
    pick = pick_documents(
        profiles, read_question("Has Kestrel Bay Materials reported any material legal proceedings?")
    )
    assert pick is not None and pick.doc_ids == ("doc6",)
    # Typed all in lower case, every naming word stays: "material" names Kestrel Bay Materials too.
    pick = pick_documents(
        profiles, read_question("has kestrel ridge reported any material legal proceedings?")
    )
    assert pick is not None and set(pick.doc_ids) == {"doc6", "doc7"}


def test_a_capitalised_name_on_no_cover_still_makes_lower_case_words_ordinary() -> None:
    # "Luxor" is on no cover; "material" is on Kestrel Bay Materials' one. The question writes its
    # name with a capital, so "material" is an ordinary word and names no document.
    profiles = _profiles([*COMPANIES, "Kestrel Bay Materials", "Kestrel Ridge Therapeutics"])
    assert pick_documents(profiles, read_question("Which material is used north of Luxor?")) is None
    assert (
        pick_documents(profiles, read_question("which material is used north of luxor?")) is not None
    )  # all lower case


@pytest.mark.parametrize(
    ("cover", "read"),
    [
        (
            "FORM 10-K ANNUAL REPORT ... For the fiscal year ended December 31, 2018 or ...",
            Cover("10-K", 2018, 12, 31),
        ),
        ("FORM 10-K FOR THE FISCAL YEAR ENDED May 31, 2020", Cover("10-K", 2020, 5, 31)),
        # pdfium reads some covers' columns interleaved
        (
            "FORM 10-Q For the quarterly period ended Commission file June 30, 2022 number 1-5805",
            Cover("10-Q", 2022, 6, 30, keys=("file:1-5805",)),
        ),
        (
            "FOR IMMEDIATE RELEASE 2023 Second-Quarter reported sales growth of 6.3%",
            Cover("release", 2023, quarter=2),
        ),
        (
            "FORM 8-K CURRENT REPORT Date of Report (Date of earliest event reported): May 25, 2023 "
            "LOCKHEED MARTIN CORPORATION (Exact name of registrant as specified in its charter) "
            "Maryland 1-11437 52-1893632",
            Cover("8-K", 2023, 5, 25, keys=("ein:52-1893632",), name="LOCKHEED MARTIN CORPORATION"),
        ),
        ("An article about the Normans, who conquered England in 1066.", Cover()),
    ],
)
def test_a_cover_says_which_filing_it_is(cover: str, read: Cover) -> None:
    assert read_cover([cover]) == read


def test_a_cover_names_its_registrant_and_the_keys_its_other_filings_share() -> None:
    cover = (
        "Commission file number: 001-34028\nAMERICAN WATER WORKS COMPANY, INC.\n"
        "(Exact name of registrant as specified in its charter)\nDelaware 51-0063696\n"
        "Title of each class Trading Symbol Name of each exchange on which registered\n"
        "Common stock, par value $0.01 per share AWK New York Stock Exchange"
    )
    read = read_cover([cover])
    assert read.name == "AMERICAN WATER WORKS COMPANY, INC."
    assert read.keys == ("ein:51-0063696", "file:1-34028", "symbol:awk")
    release = read_cover(
        ["News Release. Lockheed Martin Corporation [NYSE: LMT] today reported first quarter 2023"]
    )
    assert (release.form, release.quarter, release.name, release.keys) == (
        "release",
        1,
        "Lockheed Martin Corporation",
        ("symbol:lmt",),
    )


def test_the_year_picks_the_filing_whose_cover_covers_it_among_one_companys_filings() -> None:
    """Both of Acme's reports mention 2021 on their covers (one compares with it), but only one
    covers it: "Acme's FY2021 revenue" is asked of that one alone."""
    texts = {
        "acme22": "Acme Corp annual report. For the fiscal year ended December 31, 2022. Compared with 2021.",
        "acme21": "Acme Corp annual report. For the fiscal year ended December 31, 2021.",
        **{
            f"other{n}": f"Company {n} Holdings annual report. For the fiscal year ended June 30, 2021."
            for n in range(8)
        },
    }
    covers = {d: read_cover([t]) for d, t in texts.items()}
    profiles = DocumentProfiles(texts, covers=covers)
    pick = pick_documents(profiles, read_question("What was Acme's FY2021 revenue?"))  # periods spelled out
    assert pick is not None and pick.doc_ids == ("acme21",)


def test_a_quarter_chooses_among_a_companys_filings_but_names_no_company() -> None:
    """ "Q2" on two covers (another company's and the wrong year's) is a period like a year: it
    chooses among Acme's filings, and never brings in Beta's."""
    texts = {
        "acme22q2": "Acme Corp quarterly report. For the quarterly period ended June 30, 2022.",
        "acme23q2": "Acme Corp quarterly report Q2 2023. For the quarterly period ended June 30, 2023.",
        "acme21q1": "Acme Corp quarterly report. For the quarterly period ended March 31, 2021.",
        "beta23q2": "Beta Foods Q2 2023 earnings. For the quarterly period ended July 2, 2023.",
        **{f"other{n}": f"Company {n} Holdings annual report for the fiscal year 2019." for n in range(12)},
    }
    covers = {d: read_cover([t]) for d, t in texts.items()}
    profiles = DocumentProfiles(texts, covers=covers)
    pick = pick_documents(
        profiles, read_question("In 2022 Q2, which of Acme's segments had the highest net income?")
    )
    assert pick is not None and pick.doc_ids[0] == "acme22q2" and "beta23q2" not in pick.doc_ids


def test_a_name_its_file_name_writes_names_a_filing_whose_cover_does_not() -> None:
    """One of Kestrel Mining's three reports has a cover that lost "Mining" (a broken text layer);
    its file name still writes the whole name, so the year can choose it."""
    texts = {
        "k18": "Kestrel annual report. For the fiscal year ended December 31, 2018.",
        "k20": "Kestrel Mining annual report. For the fiscal year ended December 31, 2020.",
        "k22": "Kestrel Mining annual report. For the fiscal year ended December 31, 2022.",
        **{f"other{n}": f"Company {n} Holdings annual report for the fiscal year 2019." for n in range(8)},
    }
    files = {"k18": "KESTRELMINING_2018_10K.pdf", "k20": "KESTRELMINING_2020_10K.pdf"}
    files |= {"k22": "KESTRELMINING_2022_10K.pdf"}
    covers = {d: read_cover([t]) for d, t in texts.items()}
    profiles = DocumentProfiles(
        {d: profile_text(files.get(d, d), files.get(d, f"{d}.pdf"), [t]) for d, t in texts.items()},
        covers=covers,
        titles={d: f"{files.get(d, d)} {files.get(d, d)}" for d in texts},
        files=files,
    )
    pick = pick_documents(
        profiles, read_question("What was Kestrel Mining's revenue in 2018? fiscal 2018 2018")
    )
    assert pick is not None and pick.doc_ids[0] == "k18"


def _acme_and_others() -> DocumentProfiles:
    """Acme's annual reports for 2020 to 2022 and a quarterly one, and 20 other companies'."""
    texts = {
        f"acme{y}": f"Acme Corp annual report. For the fiscal year ended December 31, {y}."
        for y in (2020, 2021, 2022)
    }
    texts["acme22q2"] = "Acme Corp quarterly report. For the quarterly period ended June 30, 2022."
    texts["beta"] = "Beta Foods annual report. Two segments. Diluted EPS grew."
    texts |= {f"other{n}": f"Company {n} Holdings annual report for the fiscal year 2019." for n in range(20)}
    files = {d: f"ACMECORP_{d[4:]}_10K.pdf" for d in texts if d.startswith("acme")}
    return DocumentProfiles(
        {d: profile_text(files.get(d, d), files.get(d, f"{d}.pdf"), [t]) for d, t in texts.items()},
        covers={d: read_cover([t]) for d, t in texts.items()},
        titles={d: f"{files.get(d, d)} {files.get(d, d)}" for d in texts},
        files=files,
    )


def test_a_later_sentences_first_word_and_an_analysts_shorthand_name_no_document() -> None:
    """ "Two decimals." and "EPS" are on Beta's cover only, rarer than Acme's name: still they name
    nothing (a later sentence's first word is a name only before another capitalised word)."""
    profiles = _acme_and_others()
    pick = pick_documents(profiles, read_question("What was Acme's current ratio in FY2021? Two decimals."))
    assert pick is not None and pick.doc_ids == ("acme2021",)
    pick = pick_documents(
        profiles,
        read_question("What was Acme's dividend payout (dividends per share / diluted EPS) in FY2021?"),
    )
    assert pick is not None and "beta" not in pick.doc_ids


def test_a_framing_clauses_year_and_the_latest_of_several_years_choose_the_filing() -> None:
    profiles = _acme_and_others()
    pick = pick_documents(
        profiles, read_question("Using the FY2020 balance sheet, what was Acme's current ratio?")
    )
    assert pick is not None and pick.doc_ids == ("acme2020",)
    # a growth over years is read from the latest year's report, which shows the years before it
    pick = pick_documents(profiles, read_question("What was Acme's revenue CAGR from FY2020 to FY2022?"))
    assert pick is not None and pick.doc_ids[0] == "acme2022"
