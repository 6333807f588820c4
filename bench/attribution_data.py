"""Labelled claims for the attribution threshold (bench/attribution.py): answer-like sentences,
each with the evidence a model would have been given and which pieces support it.

- squad-dev: for a fixed sample of questions (seed 0), the k=6 evidence our retrieval gives in a
  library of the three PDFs. Answerable questions give two claims: the gold sentence as an
  extractive or copying model writes it ("copied"), and the question turned into a statement with
  the gold answer ("restated"). A piece supports them when it is on a gold page, holds the gold
  answer and most of the gold sentence's words. Unanswerable questions give the question with
  SQuAD 2.0's plausible (wrong) answer ("plausible"): supported by no piece.
- filings-dev: for every question, the k=6 chunks of its own filing that BM25 ranks first (the
  hardest negatives for a word-overlap score). Claims: the question with FinanceBench's answer
  ("restated", often a computed figure that no page prints, so often supported by no piece), and
  up to three number-bearing lines of each gold evidence page, as a model quoting the table writes
  them ("line quoted") and as a statement with the numbers after the words ("line restated":
  "Total current liabilities: 2,213,556, 1,606,117."), each with the k chunks of the filing that BM25
  ranks first for that line (look-alike tables of other years and statements), supported by a
  piece on that page holding all the line's numbers.
Built from ../shared/corpus at run time; never saved in the repository.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import CORPUS
from rag.text import split_sentences, tokenize

SQUAD_DIR = CORPUS / "squad-dev"
FILINGS_DIR = CORPUS / "filings-dev"
_WH = re.compile(
    r"^(?:in|on|at|by|for|from|of|to|during)?\s*(?:what|which|who|whom|whose|when|where|why|how(?:\s+(?:many|much|long|old|far))?)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d(?:[\d,]*\d)?(?:\.\d+)?")
_LINE_MAX = 160


def _norm(text: str) -> str:
    return " ".join(text.replace("\u00ad", "").lower().split())


def numbers(text: str) -> set[str]:
    """The numbers written in text, commas dropped ("1,469,502" -> "1469502")."""
    return {m.group(0).replace(",", "").rstrip(".") for m in _NUMBER.finditer(text)}


def restate(question: str, answer: str) -> str:
    """A question and its answer as one statement, the way a terse model answers."""
    body = _WH.sub("", question.strip()).strip(" ?")
    return f"{body[:1].upper()}{body[1:]}: {answer.strip().rstrip('.')}."


def gold_sentence(context: str, answer_start: int) -> str:
    """The sentence of a SQuAD context holding the answer's first character."""
    at = 0
    for sentence in split_sentences(context):
        found = context.find(sentence[:20], at)
        if found < 0:
            continue
        if found <= answer_start < found + len(sentence) + 1:
            return sentence
        at = found
    return ""


def _on_pages(item: dict[str, Any], pages: set[int]) -> bool:
    return bool(set(item["pages"]) & pages)


def _piece(evidence: Any) -> dict[str, Any]:
    return {"text": evidence.text, "pages": [loc.page_index for loc in evidence.locators]}


def squad_claims(limit: int, seed: int = 0, k: int = 6) -> list[dict[str, Any]]:
    """The squad-dev claims with their evidence (see the module docstring)."""
    from bench.eval import load_questions, open_corpus_library
    from rag.questions.read import read_question
    from rag.retrieval.retrieve import search_evidence

    questions = load_questions(SQUAD_DIR / "questions.jsonl", limit, seed)
    pdfs = sorted({SQUAD_DIR / q["doc_file"] for q in questions})
    claims = []
    with tempfile.TemporaryDirectory(prefix="footnote-attr-") as tmp:
        library = open_corpus_library(pdfs, Path(tmp))
        for q in questions:
            pieces = [_piece(e) for e in search_evidence(library, read_question(q["question"]), k=k).evidence]
            claims.extend(_squad_question_claims(q, pieces))
    return claims


def _squad_question_claims(q: dict[str, Any], pieces: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if q["is_impossible"]:
        for plausible in q["plausible_answers"][:1]:
            yield _claim("squad", "plausible", restate(q["question"], plausible["text"]), pieces, [])
        return
    answer = q["answers"][0]
    sentence = gold_sentence(q["context"], answer["answer_start"])
    wanted, gold = set(tokenize(sentence)), set(q["gold_page_indexes"])

    def supports(item: dict[str, Any]) -> bool:
        have = set(tokenize(item["text"]))
        return (
            _on_pages(item, gold)
            and _norm(answer["text"]) in _norm(item["text"])
            and len(wanted & have) >= 0.6 * len(wanted)
        )

    labels = [supports(p) for p in pieces]
    if sentence:
        yield _claim("squad", "copied", sentence, pieces, labels)
    yield _claim("squad", "restated", restate(q["question"], answer["text"]), pieces, labels)


def _claim(
    source: str, kind: str, text: str, pieces: list[dict[str, Any]], labels: list[bool]
) -> dict[str, Any]:
    return {
        "source": source,
        "kind": kind,
        "claim": text,
        "evidence": [p["text"] for p in pieces],
        "supports": list(labels) or [False] * len(pieces),
    }


def _filing_chunks(pdf: Path) -> list[Any]:
    from ingest.pdf.chunking import chunk_pages
    from ingest.pdf.reader import read_pdf

    document = read_pdf(pdf.read_bytes(), pdf.name)
    return chunk_pages(pdf.stem, document.pages, 1000, 150)


def _is_amount(number: str) -> bool:
    digits = number.replace(".", "")
    return len(digits) >= 3 and not (len(digits) == 4 and 1990 <= int(digits) <= 2030)  # not a year


def _evidence_lines(page_text: str) -> list[str]:
    """Up to three lines of a page with a label of three or more words and an amount (three or
    more digits, not a year): what an answer would quote. Column headers ("Year Ended December
    31") and page numbers are not claims."""
    out = []
    for line in page_text.splitlines():
        flat = " ".join(line.replace(".", " ").split()) if "..." in line else " ".join(line.split())
        label = re.sub(r"[\d,.$%()]", " ", flat)
        if len(flat) > _LINE_MAX or not any(map(_is_amount, numbers(flat))) or len(set(tokenize(label))) < 3:
            continue
        out.append(flat)
    return out[:3]


def filings_claims(k: int = 6) -> list[dict[str, Any]]:
    """The filings-dev claims with their evidence (see the module docstring)."""
    from rag.retrieval.lexical import LexicalIndex

    rows = [json.loads(line) for line in (FILINGS_DIR / "questions.jsonl").read_text().splitlines() if line]
    claims: list[dict[str, Any]] = []
    for doc_file in sorted({r["doc_file"] for r in rows}):
        chunks = _filing_chunks(FILINGS_DIR / doc_file)
        index = LexicalIndex(chunks)
        for row in (r for r in rows if r["doc_file"] == doc_file):
            claims.extend(_filing_question_claims(row, functools.partial(_pieces, index, k=k)))
    return claims


def _pieces(index: Any, query: str, *, k: int) -> list[dict[str, Any]]:
    return [
        {"text": c.text, "pages": [loc.page_index for loc in c.locators]} for c, _s in index.search(query, k)
    ]


def _filing_question_claims(row: dict[str, Any], search: Any) -> Iterator[dict[str, Any]]:
    pages = {ev["page_index_0based"] for ev in row["evidence"]}
    pieces = search(row["question"])
    answer = row["answer"].split("\n")[0][:300]
    wanted = numbers(answer)

    def holds(item: dict[str, Any], values: set[str]) -> bool:
        return _on_pages(item, pages) and bool(values) and values <= numbers(item["text"])

    def has_row(item: dict[str, Any], line: str) -> bool:
        """On the page with the line's numbers, or anywhere with two or more of them in order, one
        after the other (the same table row, as a 10-K repeats it in its selected data)."""
        row = [m.group(0) for m in _NUMBER.finditer(line)]
        pattern = r"[\s$()%]*".join(re.escape(n) for n in row)
        return holds(item, numbers(line)) or (len(row) >= 2 and re.search(pattern, item["text"]) is not None)

    yield _claim(
        "filings",
        "restated",
        restate(row["question"].split("Here's the question:")[-1], answer),
        pieces,
        [holds(p, wanted) for p in pieces],
    )
    for ev in row["evidence"]:
        for line in _evidence_lines(ev.get("evidence_text_full_page") or ev["evidence_text"]):
            found = search(line)
            labels = [has_row(p, line) for p in found]
            label = " ".join(re.sub(r"[\d,.$%()]+", " ", line).split())
            restated = f"{label}: {', '.join(m.group(0) for m in _NUMBER.finditer(line))}."
            yield _claim("filings", "line quoted", line, found, labels)
            yield _claim("filings", "line restated", restated, found, labels)


def build(limit: int, cache: Path | None = None) -> list[dict[str, Any]]:
    """Both sets of claims, each read from its cache file when there is one (bench/out is git-ignored)."""
    return _cached(lambda: squad_claims(limit), cache, f"squad{limit}") + _cached(
        filings_claims, cache, "filings"
    )


def _cached(make: Any, cache: Path | None, name: str) -> list[dict[str, Any]]:
    path = None if cache is None else cache / f"attribution-{name}.json"
    if path is not None and path.exists():
        return json.loads(path.read_text())
    claims = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(claims))
    return claims
