"""What the offline answerer can quote from a source: its sentences and its table rows (with the
column years above them), in reading order; headings and column header lines are left out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.passages.lists import item, join_inline, list_runs
from rag.passages.rows import context_years
from rag.tables.lines import Row, header_years, read_row, table_line
from rag.text import SOFT_HYPHEN, STOPWORDS
from rag.text import split_sentences as text_sentences

# A line is a heading (left out of sentences) when it has at most these many words and characters.
HEADING_WORDS, HEADING_CHARS = 8, 60
# A "sentence" of at most this many words ending in a full stop is a run-in heading.
RUN_IN_WORDS = 3
# A contents page's entry: a title, then the page it starts on ("Risk Factors 53", "Properties
# ........ 65", "Preface xi"); CONTENTS_RUN of them in a row, their pages never going back, are
# a contents page's lines, not a sentence.
_ENTRY = re.compile(r"^(?=.*[A-Za-z]{2}).*?[A-Za-z)](?:\s*\.{2,}\s*|\s+)(\d{1,4}|[ivxlc]{1,6})$")
CONTENTS_RUN = 3


@dataclass(frozen=True)
class Unit:
    """What can be quoted: a sentence, or a table row with the column years above it."""

    source: str
    index: int
    text: str
    row: Row | None = None
    columns: tuple[int, ...] = ()
    title: str = ""  # a row's table title (the unfinished line or heading above it), a sentence's heading
    tabular: bool = False  # a sentence that runs over a table's lines no row parses (table_line)


def contents_entries(lines: Sequence[str]) -> list[int]:
    """The indexes of the lines that are a contents page's entries: runs of at least CONTENTS_RUN
    lines each ending in a page number after its title, the arabic numbers never going back."""
    found: list[int] = []
    run: list[int] = []
    last = -1
    for i, line in enumerate([*lines, ""]):
        entry = _ENTRY.match(line)
        page = int(entry.group(1)) if entry and entry.group(1).isdigit() else None
        if entry and (page is None or page >= last):
            run.append(i)
            last = page if page is not None else last
            continue
        if len(run) >= CONTENTS_RUN:
            found += run
        run, last = ([i], page if page is not None else -1) if entry else ([], -1)
    return found


def heading_lines(lines: Sequence[str], items: frozenset[int] = frozenset()) -> list[bool]:
    """Which lines are headings: short, not ending in punctuation or a stopword, after a finished
    sentence, another heading or nothing, and before a capitalised line ("Working pattern" above
    "The standard hybrid pattern is ..."); never a list's item or a contents entry (items)."""
    flags = [False] * len(lines)
    before = ""  # the last non-empty line, or "." after a heading
    for i, line in enumerate(lines):
        if not line:
            continue
        if i in items:
            before = line
            continue
        after = next((x for x in lines[i + 1 :] if x), "")
        parts = line.split()
        flags[i] = (
            len(line) <= HEADING_CHARS
            and len(parts) <= HEADING_WORDS
            and line[-1] not in ".,;:!?-"
            and parts[-1].lower() not in STOPWORDS
            and after[:1].isupper()
            and (not before or before[-1] in ".!?:")
        )
        before = "." if flags[i] else line
    return flags


def _lines(text: str) -> list[str]:
    return [" ".join(x.split()) for x in text.replace(SOFT_HYPHEN, "").splitlines()]


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage, whitespace (including PDF line breaks) collapsed, headings left out."""
    return [u.text for u in passage_units("", text) if u.row is None]


def _run_in(sentences: list[str]) -> list[str]:
    """Sentences with a run-in heading ("Legal proceedings." of at most RUN_IN_WORDS words)
    joined to the sentence after it."""
    out: list[str] = []
    for sentence in sentences:
        if out and len(out[-1].split()) <= RUN_IN_WORDS and out[-1][-1] == ".":
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out


def line_key(line: str) -> str:
    """A line with digits and case ignored: how a running header or footer recurs across pages."""
    return re.sub(r"[\d\s]+", " ", line).strip().lower()


def recurring_lines(texts: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The line_key of running headers and footers: lines that end no sentence, are no table row
    (the same row recurs in several statements) and recur in texts from pages that share none (texts: (text, page span such as "5" or "5-6")); chunks that
    overlap share a page, so the text they share is never taken for a header."""
    where: dict[str, list[set[str]]] = {}
    for text, pages in texts:
        span = set(pages.split("-", 1)) if pages.count("-") == 1 else {pages}
        unfinished = [x for x in _lines(text) if x and x[-1] not in ".!?" and read_row(x) is None]
        for key in {line_key(x) for x in unfinished}:
            where.setdefault(key, []).append(span)
    return frozenset(
        key
        for key, spans in where.items()
        if any(ch.isalpha() for ch in key)
        and any(a.isdisjoint(b) for i, a in enumerate(spans) for b in spans[i + 1 :])
    )


def passage_units(
    short_id: str, text: str, context: str = "", skip: frozenset[str] = frozenset()
) -> list[Unit]:
    """A source's sentences, lists and table rows in reading order; headings, header lines and the
    lines in skip (see recurring_lines) left out. A list (rag.passages.lists) is one unit: the
    sentence introducing it with its items. A row's columns come from the nearest header line
    above it, else from the context line; its title from the heading or the unfinished line
    (one not ending a sentence, "Consolidated Statements of Income (in millions)") above it."""
    lines = ["" if line_key(x) in skip else x for x in _lines(text)]
    rows = [read_row(line) if line else None for line in lines]
    headers = [header_years(line) if line else () for line in lines]
    prose = ["" if r is not None or h else line for line, r, h in zip(lines, rows, headers)]
    # Short lines after a colon right above a table's header or row name its columns: no list.
    runs = [
        (a, b)
        for a, b in list_runs(prose)
        if item(prose[a + 1]) or b == len(lines) or prose[b] or not lines[b]
    ]
    intros = {a for a, _ in runs}
    items = frozenset(x for a, b in runs for x in range(a + 1, b))
    columns = context_years(context)
    units: list[Unit] = []
    block: list[tuple[str, str]] = []  # (line, "" | "intro" | "item")
    title = ""

    section = ""  # the last heading: sentences after it carry it as their title
    entry_lines = frozenset(contents_entries(prose))
    contents: set[int] = set()  # indexes into a flush's texts of contents runs

    def flush(table: bool) -> str:
        texts: list[tuple[str, bool]] = []  # (text, a list's)
        prose_lines: list[str] = []
        listed: list[str] | None = None
        entries: list[str] = []  # a contents page's entries in a row: one unit, never quoted
        for line, role in [*block, ("", "end")]:
            if role == "entry":
                if prose_lines:
                    texts += [
                        (s, False) for s in _run_in(join_inline(text_sentences("\n".join(prose_lines))))
                    ]
                    prose_lines.clear()
                entries.append(line)
                continue
            if entries:
                contents.add(len(texts))
                texts.append((" ".join(entries), False))
                entries = []
            if role == "item" and listed is not None:
                listed.append(line)
                continue
            if listed is not None:
                texts.append((" ".join(" ".join(listed).split()), True))
                listed = None
            if role == "item":  # its introducing line is a heading: the items alone
                listed = [line]
                continue
            if role == "end":
                break
            prose_lines.append(line)
            if role == "intro":
                sentences = join_inline(text_sentences("\n".join(prose_lines)))
                prose_lines.clear()
                texts += [(s, False) for s in _run_in(sentences[:-1])]
                listed = sentences[-1:]
        cells = [line for line, _ in block if table_line(line)]
        block.clear()
        sentences = join_inline(text_sentences("\n".join(prose_lines)))
        last = sentences.pop() if table and sentences and sentences[-1][-1] not in ".!?" else ""
        texts += [(s, False) for s in _run_in(sentences)]
        first = len(units)
        units.extend(
            Unit(
                short_id,
                first + k,
                sentence,
                title=section,
                tabular=k in contents or (not listed_text and any(c in sentence for c in cells)),
            )
            for k, (sentence, listed_text) in enumerate(texts)
        )
        contents.clear()
        return last

    for i, (line, row, header, heading) in enumerate(
        zip(prose, rows, headers, heading_lines(prose, items | entry_lines))
    ):
        if header:
            title = flush(True) or title
            columns = header
        elif row is not None:
            title = flush(True) or title
            label = f"{row.label} {' '.join(row.printed)}"
            units.append(Unit(short_id, len(units), label, row, columns, title))
        elif heading:
            flush(False)
            title = section = line
        elif line:
            role = "entry" if i in entry_lines else "intro" if i in intros else "item" if i in items else ""
            block.append((line, role))
    flush(False)
    return units
