"""The offline extractive answerer: given the question and the evidence as values, it quotes and cites,
or abstains plainly."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.embeddings import LocalEmbeddings
from ingest.local.library import Library
from ingest.types import PageLocator
from rag.answering.answer import answer_stream
from rag.answering.events import Done
from rag.citations.parser import extract_citations
from rag.offline.check import OFF
from rag.offline.extractive import ExtractiveAnswerer, split_sentences
from rag.offline.scoring import Source
from rag.prompts import CLOSEST_PASSAGES, NOT_IN_DOCUMENTS
from rag.questions.read import read_question
from rag.types import Evidence
from tests.rag.conftest import make_pdf


def evidence(short_id: str, text: str, page: int = 0, title: str = "Doc") -> Evidence:
    return Evidence(
        short_id,
        short_id + "0" * 57,
        "d" * 64,
        title,
        "doc.pdf",
        text,
        0.5,
        (PageLocator(page, str(page + 1), 0, len(text)),),
    )


GARDEN = evidence(
    "aaaa111", "Tomatoes need full sun. The greenhouse was built in 1987 from recycled windows."
)
ENGINE = evidence("bbbb222", "Diesel engines ignite fuel by compression. They power lorries and ships.", 4)


def ask(question: str, *items: Evidence, model: ExtractiveAnswerer | None = None) -> str:
    return "".join((model or ExtractiveAnswerer()).answer(read_question(question), items))


def test_it_quotes_the_best_sentence_and_cites_its_source() -> None:
    text = ask("When was the greenhouse built?", ENGINE, GARDEN)
    assert text == "The greenhouse was built in 1987 from recycled windows. [aaaa111]"


def test_every_quoted_sentence_carries_a_listed_id() -> None:
    text = ask("How do diesel engines ignite fuel, and what do diesel engines power?", GARDEN, ENGINE)
    ids = extract_citations(text)
    assert ids and set(ids) == {"bbbb222"}
    assert len(ids) == len(split_sentences(text.replace(" [bbbb222]", "")))


def test_it_says_plainly_when_the_documents_do_not_answer() -> None:
    assert ask("What is the capital of Mongolia?", GARDEN, ENGINE) == NOT_IN_DOCUMENTS


@pytest.mark.parametrize(
    "question",
    [
        "When was the greenhouse built in 1990?",  # a number the evidence lacks
        "When did Napoleon build the greenhouse?",  # a name the evidence lacks
    ],
)
def test_related_evidence_without_a_direct_answer_gets_the_closest_passages(question: str) -> None:
    text = ask(question, GARDEN, ENGINE)
    assert text.startswith(CLOSEST_PASSAGES)
    assert "built in 1987" in text and extract_citations(text) == ["aaaa111"]


DECISION = evidence(
    "dddd444",
    "In computability theory, a decision problem is a question posed as a formal problem with a yes "
    "or no answer. Many decision problems concern graphs and the paths between their vertices. "
    "Complexity classes group such problems by the resources they need.",
)


def test_evidence_close_in_meaning_but_not_in_words_gets_the_closest_passages() -> None:
    # The question's rarer words (two, simple, word, responses) are not in the evidence: in words
    # alone it looks unrelated; its meaning is what the first sentence says.
    question = "What are the two simple word responses to a decision problem?"
    assert ask(question, DECISION) == NOT_IN_DOCUMENTS  # without embeddings, words decide
    model = ExtractiveAnswerer(embeddings=LocalEmbeddings())
    text = ask(question, DECISION, model=model)
    assert text.startswith(CLOSEST_PASSAGES)
    ids = extract_citations(text)
    assert "yes or no answer" in text and ids and set(ids) == {"dddd444"}


@pytest.mark.parametrize(
    "question",
    ["Which painter made the problem of the Mona Lisa famous?", "What is the capital of Mongolia?"],
)
def test_a_shared_word_far_in_meaning_still_means_the_documents_do_not_answer(question: str) -> None:
    model = ExtractiveAnswerer(embeddings=LocalEmbeddings())
    assert ask(question, DECISION, model=model) == NOT_IN_DOCUMENTS


class NamedAs:
    """LocalEmbeddings reporting another model's name: its cosine is on a scale never measured."""

    def __init__(self, name: str) -> None:
        self.inner, self.name = LocalEmbeddings(), name

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)


def test_a_cosine_is_read_as_related_only_for_the_model_it_was_measured_with() -> None:
    question = "What are the two simple word responses to a decision problem?"
    measured = ExtractiveAnswerer(embeddings=NamedAs("local:all-MiniLM-L6-v2-fused-int8:384"))
    assert ask(question, DECISION, model=measured).startswith(CLOSEST_PASSAGES)
    other = ExtractiveAnswerer(embeddings=NamedAs("openai:text-embedding-3-small"))
    assert ask(question, DECISION, model=other) == NOT_IN_DOCUMENTS


class Toward1987:
    """Embeddings that make a text close to the question exactly when it holds 1987."""

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] if "1987" in t else [0.0, 1.0] for t in texts]


VILLAGE = evidence(
    "eeee555",
    "The village greenhouse stands behind the village school. The village greenhouse grows tomatoes "
    "and peppers all year. The village greenhouse has a roof of glass. Volunteers raised its walls "
    "for the village in the spring of 1987.",
)


def test_two_closest_passages_are_the_best_by_words_and_the_third_the_best_by_meaning() -> None:
    question = "When did Napoleon build the village greenhouse?"  # no Napoleon: closest passages
    by_words = ask(question, VILLAGE)
    assert by_words.startswith(CLOSEST_PASSAGES) and "1987" not in by_words
    assert by_words.count("[eeee555]") == 3
    text = ask(question, VILLAGE, model=ExtractiveAnswerer(embeddings=Toward1987()))
    quoted = [q.strip() for q in text.removeprefix(CLOSEST_PASSAGES).split("[eeee555]") if q.strip()]
    assert len(quoted) == 3 and "1987" in quoted[2]
    assert quoted[:2] == [q.strip() for q in by_words.removeprefix(CLOSEST_PASSAGES).split("[eeee555]")][:2]


def test_closest_passages_all_from_one_source_are_followed_by_the_best_of_another() -> None:
    question = "When did Napoleon build the village greenhouse?"  # no Napoleon: closest passages
    other = evidence("ffff777", "Villagers built a second greenhouse beside the village hall.", 3)
    alone = ask(question, VILLAGE)
    assert alone.startswith(CLOSEST_PASSAGES) and alone.count("[eeee555]") == 3
    text = ask(question, VILLAGE, other)
    # the same three quotes of the village's passage, then a second place to look
    assert text.startswith(alone) and text.count("[eeee555]") == 3 and text.endswith("[ffff777]")


def test_no_sources_means_no_answer() -> None:
    assert ask("When was the greenhouse built?") == NOT_IN_DOCUMENTS


def test_an_abbreviation_for_a_name_spelled_out_is_no_reason_to_decline() -> None:
    eu = evidence("ffff666", "The European Union pays 5 billion euros a year.")
    assert ask("How much does the EU pay?", eu) == "The European Union pays 5 billion euros a year. [ffff666]"


def test_brackets_in_quoted_text_cannot_pose_as_citations() -> None:
    tricky = evidence("cccc333", "The greenhouse [abcdefg] was built in 1987 from windows.")
    text = ask("When was the greenhouse built?", tricky)
    assert extract_citations(text) == ["cccc333"]


def test_it_streams_word_by_word_the_same_text_it_returns() -> None:
    chunks = list(ExtractiveAnswerer().answer(read_question("When was the greenhouse built?"), [GARDEN]))
    assert len(chunks) > 5 and all(c.endswith(" ") and c.strip() for c in chunks[:-1])
    assert "".join(chunks) == "The greenhouse was built in 1987 from recycled windows. [aaaa111]"


def test_split_sentences_joins_pdf_line_breaks_and_soft_hyphens() -> None:
    text = "The recog\u00adnition of\nthe Normans was slow. It took 3.5 centuries! Then it ended."
    assert split_sentences(text) == [
        "The recognition of the Normans was slow.",
        "It took 3.5 centuries!",
        "Then it ended.",
    ]


def test_split_sentences_splits_off_headings_and_drops_them() -> None:
    text = (
        "Requests go to the manager. The manager\nmust answer within ten days.\nWorking pattern\n"
        "The standard pattern is two days a week in the office.\nEquipment and allowances\n"
        "Employees may claim an allowance of up to\n450 euros."
    )
    assert split_sentences(text) == [
        "Requests go to the manager.",
        "The manager must answer within ten days.",  # a wrapped line, not a heading
        "The standard pattern is two days a week in the office.",
        "Employees may claim an allowance of up to 450 euros.",
    ]


def test_a_heading_is_never_quoted_nor_glued_to_the_first_sentence() -> None:
    policy = evidence(
        "dddd444",
        "Working pattern\nThe standard hybrid pattern is two days a week in the "
        "office and three days away.\nCore hours are 10:00 to 15:00.",
    )
    # The sentences under the heading share its words (rag.offline.scoring.HEADING_WEIGHT), so the next
    # one may follow; the heading itself is never quoted.
    said = ask("What is the standard working pattern?", policy)
    assert said.startswith(
        "The standard hybrid pattern is two days a week in the office and three days away. [dddd444]"
    )
    assert "Working pattern" not in said


POLICY = (
    "Equipment and allowances\nThe company provides a laptop, a monitor and a headset to every hybrid "
    "worker. Employees may also claim a one-off home office allowance of up to 450 euros for a desk, a "
    "chair or lighting, with receipts. Company equipment remains the property of the firm. Equipment "
    "bought with the home office allowance belongs to the employee."
)


def test_the_amount_paid_is_found_for_a_paraphrased_question(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", LocalEmbeddings(), embedding_name="local-test")
    library.add_pdf(make_pdf([POLICY], "Remote work policy"), "policy.pdf")
    question = "What does the company pay for home office equipment?"

    def answer(model: ExtractiveAnswerer) -> str:
        events = answer_stream(question, library=library, chat_model=model, provider_label="t", k=3)
        return next(e.answer for e in events if isinstance(e, Done)).text

    assert answer(ExtractiveAnswerer(embeddings=library.embeddings)).startswith("Employees may also claim")
    # Word overlap alone finds it too: its heading, "Equipment and allowances", holds "equipment"
    # (before headings counted, it preferred "Equipment bought ...", which shares the word itself).
    assert answer(ExtractiveAnswerer(number_bonus=0)).startswith("Employees may also claim")
    # With embeddings it still abstains when nothing is relevant (the retrieval gate is off here).
    off_topic = answer_stream(
        "Which violinist played the Paganini caprices?",
        library=library,
        chat_model=ExtractiveAnswerer(embeddings=library.embeddings),
        provider_label="t",
        k=3,
        check_relevance=False,
    )
    assert next(e.answer for e in off_topic if isinstance(e, Done)).text == NOT_IN_DOCUMENTS


def test_semantic_similarity_picks_the_sentence_that_means_what_the_question_asks() -> None:
    flood = evidence(
        "eeee555",
        "The town museum shows a painting of the river in flood. Heavy rain in the "
        "hills swelled the river until it burst its banks and flooded the town.",
    )
    question = "Why did the river flood the town?"  # both sentences hold every content word
    model = ExtractiveAnswerer(embeddings=LocalEmbeddings())
    assert ask(question, flood, model=model).startswith("Heavy rain in the hills")
    assert ask(question, flood).startswith("The town museum")


def test_the_answerer_reads_each_piece_of_evidence_from_its_fields() -> None:
    loc = (PageLocator(4, "5", 0, 20), PageLocator(5, "6", 0, 9))
    table = Evidence(
        "aaaa111",
        "a" * 64,
        "d",
        "Annual\n report",
        "t.pdf",
        "  Capital expenditures 1,577\n",
        0.5,
        loc,
        context="Cash flows |\n 2023 2022",
    )
    assert Source.of(table) == Source(
        "aaaa111", "Capital expenditures 1,577", "Cash flows | 2023 2022", "Annual report", "5-6"
    )
    # No title: the file name. A first line that reads like a prompt's context line is text still.
    quoted = Evidence(
        "bbbb222", "b" * 64, "d", "", "t.pdf", "Context: a prompt.\nThe model read it.", 0.5, loc[:1]
    )
    assert Source.of(quoted) == Source("bbbb222", "Context: a prompt.\nThe model read it.", "", "t.pdf", "5")


def test_the_same_sentence_in_two_sources_is_quoted_once_with_both_ids() -> None:
    twin = evidence("cccc333", GARDEN.text, page=7)
    assert ask("When was the greenhouse built?", GARDEN, twin) == (
        "The greenhouse was built in 1987 from recycled windows. [aaaa111][cccc333]"
    )


def test_a_running_header_on_several_pages_is_never_quoted() -> None:
    header = "Acme Foods, Inc. | Annual Report on Form 10-K | Fiscal 2023\n"
    first = evidence("aaaa111", header + "We sell snacks in Canada.", page=3)
    second = evidence("bbbb222", header + "Our plants are in Ohio.", page=9)
    text = ask("Where does Acme Foods sell snacks in fiscal 2023?", first, second)
    assert "Annual Report" not in text and "We sell snacks in Canada." in text
    # Chunks that overlap share a page: a line they share is text, not a running header.
    overlap = evidence("cccc333", header + "Our plants are in Ohio.", page=3)
    assert "Annual Report" in ask("Which annual report form is this?", first, overlap)


BIG_O = evidence(
    "gggg777",
    "Upper and lower bounds are usually stated using the big O notation, which hides constant "
    "factors and smaller terms.",
)
TIMES = evidence(
    "hhhh888",
    'In 1900, the Los Angeles Times defined southern California as including "the seven counties".',
)


@pytest.mark.parametrize(
    ("question", "source"),
    [
        ("What does not hide constant factors or smaller terms?", BIG_O),  # the quote is not negated
        ("What did the California Times define twice?", TIMES),  # a name the quote does not hold
    ],
)
def test_a_quote_that_does_not_answer_this_question_is_only_a_closest_passage(
    question: str, source: Evidence
) -> None:
    """Issue 25: without the answer check these were quoted as the answer."""
    unchecked = ask(
        question, source, model=ExtractiveAnswerer(embeddings=LocalEmbeddings(), answer_check=OFF)
    )
    assert not unchecked.startswith(CLOSEST_PASSAGES) and unchecked != NOT_IN_DOCUMENTS
    text = ask(question, source, model=ExtractiveAnswerer(embeddings=LocalEmbeddings()))
    assert text.startswith(CLOSEST_PASSAGES)
    assert extract_citations(text) == [source.short_id]


ROLL_FORWARD = evidence(
    "cccc333",
    "A summary of our restructuring plan activity is as follows:\n"
    "Severance and Other Employee Costs Asset Impairments Other Costs Total\n"
    "Liability as of December 29, 2018 $ 105 $ — $ 1 $ 106\n"
    "2019 restructuring charges 149 92 129 370\n"
    "Cash payments (138) — (119) (257)\n"
    "2020 restructuring charges 158 33 98 289\n"
    "Cash payments (138) — (117) (255)\n"
    "2021 restructuring charges 120 32 95 247\n"
    "Cash payments (163) — (93) (256)\n",
    76,
)


def test_a_roll_forward_row_is_the_year_its_label_names() -> None:
    # The table's columns name no year (Severance ... Total): the year is in each row's label, so
    # the question's year picks the 2021 row, not the first restructuring row (PepsiCo's 2021 10-K).
    text = ask("What is the quantity of restructuring costs in FY2021?", ROLL_FORWARD)
    assert text == "2021 restructuring charges: 120 / 32 / 95 / 247 [cccc333]"


class Counting:
    """Embeddings that count the texts they are asked to embed."""

    name = "counting"

    def __init__(self) -> None:
        self.queries: list[str] = []
        self.documents: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return [1.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents.extend(texts)
        return [[0.0, 1.0] if "1987" in t else [1.0, 0.0] for t in texts]


def test_choosing_the_closest_passages_embeds_no_text_twice() -> None:
    counting = Counting()
    question = "When did Napoleon build the village greenhouse?"
    ask(question, VILLAGE, model=ExtractiveAnswerer(embeddings=counting))
    assert len(counting.queries) == 1 and counting.documents  # scored twice, embedded once
    assert len(counting.documents) == len(set(counting.documents))


PLANT = evidence(
    "ffff666",
    "Depreciation expense was $166 million, $148 million and $122 million in fiscal 2023, 2022 and "
    "2021, respectively.\n"
    "Property and equipment 2023 2022\n"
    "Land and buildings 1,204 1,188\n"
    "Machinery and equipment 2,310 2,164\n"
    "Less: accumulated depreciation (1,920) (1,754)\n",
    40,
)


def test_a_row_beside_the_answer_is_quoted_only_for_the_line_the_question_names() -> None:
    text = ask(
        "What was depreciation in fiscal 2022?", PLANT, model=ExtractiveAnswerer(embeddings=LocalEmbeddings())
    )
    assert text == (
        "Depreciation expense was $166 million, $148 million and $122 million in fiscal 2023, 2022 "
        "and 2021, respectively. [ffff666]"
    )


def test_how_many_people_a_company_employs_is_answered_by_its_employees() -> None:
    """Snowball stems "employees" apart from "employ"; joined (rag.text.JOINED), the sentence
    giving the headcount is the answer, not a closest passage."""
    mill = evidence(
        "aaaa111",
        "The Halden mill burns wood chips from local forests. "
        "At the end of 2021 the mill had about 340 employees, most of them on two shifts.",
    )
    text = ask("How many people did the Halden mill employ at the end of 2021?", mill)
    assert (
        text == "At the end of 2021 the mill had about 340 employees, most of them on two shifts. [aaaa111]"
    )


def test_a_tables_lines_read_as_one_sentence_are_never_the_answer() -> None:
    # Labels wrapped from the line above keep these lines from parsing as rows; run together until
    # the full stop they hold every row's label, more of the question's words than a sentence, but
    # they are no sentence: with nothing else, the answer is closest passages.
    results = evidence(
        "aaaa111",
        "Acme Corporation Results of Operations\nIn millions 2018 2017 2016 $ % $ %\n"
        "and total revenues 194,579 184,786 177,546 9,793 5.3 % 7,240 4.1 %\n"
        "and goodwill impairments 6,149 181 — 5,968 3,297.2 % 181 — %\n"
        "and net income (loss) (596) 6,623 5,319 (7,219) (109.0)% 1,304 24.5 %\n"
        "See accompanying notes.",
        title="Acme Corporation annual report",
    )
    text = ask("Why did Acme report a net loss despite higher revenues?", results)
    assert text.startswith(CLOSEST_PASSAGES), text
    assert "net income (loss) (596)" in text  # still quoted among the closest passages
