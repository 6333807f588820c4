"""The name a document is shown under: its PDF title when the title names something, else its
file name. Only what the page shows: the answerer's prompt keeps the title as stored (replacing it
there made the offline answerer answer unanswerable questions: bench/README.md, "How the rules were
found").

Real filings' metadata titles are often no name at all (an accession number, "Document", "CORP Q1
2021"); their file names ("MGMRESORTS_2020_10K.pdf") say which report it is.
"""

from __future__ import annotations

import re

# Words of two letters or more (split at spaces, underscores and dots) a title needs to name a
# document: the one value tried. "PepsiCo, Inc. 2021 Annual Report" and "Nike 2023 Proxy" do;
# "0001564590-21-009205", "Document" and "LMT Q4 2022 10K" do not.
TITLE_WORDS = 2
_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2,}(?![A-Za-z0-9])")


def document_name(title: str, file_name: str) -> str:
    """The title when it has TITLE_WORDS words of letters, else the file name (else the title),
    on one line (runs of white space as one space)."""
    title, file_name = (" ".join((x or "").split()) for x in (title, file_name))
    if len(_WORD.findall(title.replace("_", " "))) >= TITLE_WORDS or not file_name:
        return title or file_name
    return file_name
