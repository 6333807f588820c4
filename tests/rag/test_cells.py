"""rag.offline.cells: the value of A under B, read off a table's own labels and headers."""

from __future__ import annotations

from rag.offline.cells import AMBIGUOUS
from rag.tables.passages import table_rows
from tests.rag.test_extractive import ask, evidence

# A paper's table: a header of words, a label column whose rows print a setting as "(0.5)".
PAPER = (
    "All models exhibit rather high consistency, indicating that the LLMs\n"
    "Model Coh. Con. Flu. Rel.\n"
    "GPT-4 (0.5) 4.48 4.89 4.64 4.72\n"
    "ChatGPT (0.1) 4.57 4.94 4.69 4.83\n"
    "Alpaca-7B 4.10 4.46 4.23 3.76\n"
    "LLaMa-7B 3.06 3.79 3.62 2.96\n"
    "Table 4: Evaluation on generated text quality."
)
# A paper's scores with their deviation glued to them.
DEVIATION = "Model Align. Corr. F1.\nLLaMA-7B 47.8(0.6) 70.1(0.8) 31.0\nLLaMA-13B 62.1(0.4) 71.8(1.2) 33.4\n"
# A filing's table: its columns are years, which the computed answers read (rag.compute).
FILING = "Consolidated Statements of Income (in millions)\n2023 2022 2021\nNet income 537 917 722\nRevenue 2,000 1,900 1,800\n"


def test_a_header_of_words_names_each_cell_and_a_setting_stays_in_the_label_column() -> None:
    rows = table_rows(PAPER)
    gpt = next(r for r in rows if r.label == "GPT-4")
    assert [(c.text, c.column_name) for c in gpt.cells] == [
        ("(0.5)", ""),
        ("4.48", "Coh."),
        ("4.89", "Con."),
        ("4.64", "Flu."),
        ("4.72", "Rel."),
    ]
    assert all(PAPER[c.start : c.end] == c.text for r in rows for c in r.cells)


def test_the_value_of_a_row_under_a_column_is_its_cell_with_both_named() -> None:
    text = ask("Table 4 text quality: what relevance score did Alpaca-7B get?", evidence("aaaa111", PAPER))
    assert text.startswith("Alpaca-7B, Rel.: 3.76 (row: Alpaca-7B 4.10 4.46 4.23 3.76"), text
    assert text.endswith("[aaaa111]")


def test_a_cell_with_its_deviation_is_quoted_as_printed() -> None:
    text = ask("What's LLaMA-13B's alignment score?", evidence("aaaa111", DEVIATION))
    assert text.startswith("LLaMA-13B, Align.: 62.1(0.4)"), text


def test_two_cells_that_could_be_it_are_both_quoted() -> None:
    two = PAPER.replace("LLaMa-7B 3.06", "Alpaca-7B 3.06")
    text = ask("What relevance score did Alpaca-7B get?", evidence("aaaa111", two))
    assert text.startswith(AMBIGUOUS), text
    assert "Alpaca-7B, Rel.: 3.76" in text and "Alpaca-7B, Rel.: 2.96" in text


def test_a_filings_year_columns_are_not_read_as_a_header_of_words() -> None:
    rows = table_rows(FILING)
    assert rows and all(c.column_name == "" and c.column is not None for r in rows for c in r.cells)
    text = ask("What was net income in 2022?", evidence("aaaa111", FILING))
    assert "Rel." not in text and "917" in text


def test_a_header_naming_a_year_or_holding_a_stopword_names_no_cells() -> None:
    for above in ("(in millions) 2023 2022 Change", "Results of the segments"):
        rows = table_rows(f"{above}\nAlpha unit 4.10 4.46 4.23\nBeta unit 3.06 3.79 3.62\n")
        assert rows and all(c.column_name == "" for r in rows for c in r.cells), above


def test_a_question_naming_a_period_is_not_answered_from_a_header_of_words() -> None:
    text = ask("What relevance score did Alpaca-7B get in 2023?", evidence("aaaa111", PAPER))
    assert not text.startswith("Alpaca-7B, Rel."), text


def test_a_question_naming_a_table_is_answered_from_that_table() -> None:
    other = PAPER.replace("Table 4:", "Table 2:").replace("Alpaca-7B 4.10", "Alpaca-7B 1.11")
    both = f"{other}\n{PAPER}"
    text = ask("In Table 4, what relevance score did Alpaca-7B get?", evidence("aaaa111", both))
    assert text.startswith("Alpaca-7B, Rel.: 3.76"), text
    assert "1.11" not in text
