"""Which text layers are read by OCR instead: empty pages and mojibake, never ordinary text (the
thresholds were measured by bench/text_layer.py; these cases pin the rule's shape)."""

from __future__ import annotations

import pytest

from ingest.pdf.text_layer import usable

PROSE = "The treaty offered Rollo and his men the French lands between the river Epte and the sea. "
LEADERS = "Item 1. Business ........................................................ 3\n" * 12
TABLE = "Total current assets $ 3,046,829 $ 2,829,417\nProperty and equipment, net 787,421 785,123\n" * 6


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (PROSE * 3, True),
        ("Einführung in die Geometrie und Topologie, Wintersemester 2013/2014. " * 3, True),
        ("Wimm-Bill-Dann Brands Co. Ltd. Russia; iPhone sales at McDonald's. " * 4, True),  # inner capitals
        (LEADERS, True),  # a table of contents is dots, not mojibake
        (TABLE, True),
        ("habibi \u064a\u0628\u064a\u0628", True),  # too short to judge
        ("", False),
        (" \n\t " * 200, False),
        (" " * 400 + "/ \u00ad ." * 4, False),  # glyph numbers read as control codes (made blanks)
        ("\ue001\ue002\ue003 \ue020\ue004\ue005" * 20, False),  # private use
        ("\ufffd" * 50 + "ab", False),
        ('=!"#$%&\' =( # =)\x1f =* "*+ =(\x1f" =,& =)' * 6, False),  # glyph numbers as ASCII punctuation
        ("ÁÂÃ àÄÅÆÇÈÉÊ àËÃÆÃ àÌÂÃ àÍÃÅÍÎÃ àËÂÅ àÏÉ " * 5, False),  # ... as accented capitals
    ],
)
def test_usable(text: str, expected: bool) -> None:
    assert usable(text) is expected
