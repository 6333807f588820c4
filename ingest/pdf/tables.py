"""What tables print, as both a chunk's context (ingest.pdf.context) and the table reader
(rag.tables) read it: a year or a quarter as a column header names it."""

from __future__ import annotations

import re

# Not part of a longer number, an amount or a percentage ("2023", not the "2023" of "$2023",
# "2,023" or "2023%").
_ALONE = r"(?<![\d,.$]){}(?![\d,.%])"
YEAR = re.compile(_ALONE.format(r"(?:19|20)\d\d"))
PERIOD = re.compile(_ALONE.format(r"(?:(?:19|20)\d\d|Q[1-4])"))  # a year, or a quarter ("Q3")
