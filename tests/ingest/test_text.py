"""Every text layer becomes valid text (ingest.text): surrogate pairs joined without moving a
character index, lone surrogates and control characters replaced, and one search form (NFKC) in
which "x" and a math italic x (U+1D465) are the same word."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ingest.text import SOFT_HYPHEN, first_invalid, search_form, valid_in_place, valid_text
from rag.text import tokenize

MATH_X = "\U0001d465"  # MATHEMATICAL ITALIC SMALL X
HIGH, LOW = "\ud835", "\udc65"  # its two UTF-16 halves, as pdfium hands them one index each


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain text", "plain text"),
        (f"let {HIGH}{LOW} be", f"let {MATH_X}{SOFT_HYPHEN} be"),
        (f"{HIGH}{LOW}{HIGH}{LOW}", f"{MATH_X}{SOFT_HYPHEN}{MATH_X}{SOFT_HYPHEN}"),
        (f"lone {HIGH} high", "lone \ufffd high"),
        (f"lone {LOW} low", "lone \ufffd low"),
        (f"swapped {LOW}{HIGH}", "swapped \ufffd\ufffd"),
    ],
)
def test_page_text_is_made_valid_without_moving_an_index(raw: str, expected: str) -> None:
    assert valid_in_place(raw) == expected
    assert len(valid_in_place(raw)) == len(raw)


@given(st.lists(st.one_of(st.characters(), st.sampled_from([HIGH, LOW, "\x00", "\n"])), max_size=40))
@example([HIGH, LOW, LOW, HIGH, "a"])
def test_any_code_units_become_valid_text_of_the_same_length(units: list[str]) -> None:
    raw = "".join(units)
    fixed = valid_in_place(raw)
    assert len(fixed) == len(raw)
    fixed.encode("utf-8")  # raises on any surrogate left
    valid_text(raw).encode("utf-8")


def test_other_strings_are_joined_and_cleaned() -> None:
    assert valid_text(f"Title with {HIGH}{LOW}\x07 and {HIGH}") == f"Title with {MATH_X}  and \ufffd"
    assert valid_text("lines\nand\ttabs stay") == "lines\nand\ttabs stay"


def test_first_invalid_names_the_text_that_cannot_be_stored() -> None:
    assert first_invalid(["fine", f"{MATH_X} fine"]) is None
    assert first_invalid(["fine", f"bad {HIGH}", "also fine"]) == 1


def test_search_form_makes_math_letters_and_ligatures_plain() -> None:
    assert search_form(f"{MATH_X} = 2") == "x = 2"
    assert search_form("\ufb01nance") == "finance"  # the ﬁ ligature
    assert tokenize(f"the boiling point {MATH_X}{SOFT_HYPHEN}") == tokenize("the boiling point x")
    assert tokenize(f"\ufb01nancial {MATH_X}y") == ["financi", "xy"]
