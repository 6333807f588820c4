"""The vocabulary of financial analysis, read from vocabulary.toml: line items with the labels
filings print them under, metrics as formulas over line items, and analysts' concepts with the
line items and metrics they are judged by. One table serves the computed answers (a metric's
formula) and judgement questions (a concept's rows); each entry names the reference it follows.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rag.text import STOPWORDS

TABLE = Path(__file__).with_name("vocabulary.toml")
FUNCTIONS = frozenset({"avg", "prior", "begin"})  # of one line item: see vocabulary.toml's header
_WORDS = re.compile(r"[a-z0-9&%/]+(?:['-][a-z0-9]+)*")


@dataclass(frozen=True)
class LineItem:
    """A statement row: its key, the labels filings print it under, its statement."""

    key: str
    labels: tuple[str, ...]
    statement: str
    element: str
    source: str
    names: tuple[str, ...] = ()  # what analysts call it besides its labels ("capex")
    outflow: bool = False  # printed in parentheses as a payment or deduction (see vocabulary.toml)
    basis: str = ""  # "net" when the line item is defined net of something ("PP&E, net"): see vocabulary.toml


@dataclass(frozen=True)
class Metric:
    """A formula over line items (or over the one line item a question names, as `parameter`)."""

    key: str
    names: tuple[str, ...]
    formula: str
    alternatives: tuple[str, ...]
    unit: str
    source: str
    parameter: str = ""


@dataclass(frozen=True)
class JudgedMetric:
    """A metric a judgement's answer opens with, and the reference that reads the concept by it."""

    metric: str
    source: str


@dataclass(frozen=True)
class Concept:
    """A word of judgement, the line items and metrics an analyst reads for it, and the metrics its
    answer opens with, computed (figures: rag.judgement.figures)."""

    key: str
    names: tuple[str, ...]
    line_items: tuple[str, ...]
    metrics: tuple[str, ...]
    source: str
    figures: tuple[JudgedMetric, ...] = ()


@dataclass(frozen=True)
class Vocabulary:
    """The whole table, checked: every formula parses and names known line items, every concept
    names known line items and metrics, every entry a known source."""

    sources: dict[str, str]
    line_items: dict[str, LineItem]
    metrics: dict[str, Metric]
    concepts: dict[str, Concept]

    def metrics_named(self, text: str) -> tuple[Metric, ...]:
        """The metrics whose names the text writes, longest name first."""
        return tuple(m for _, m in _named(phrase_words(text), self.metrics.values()))

    def line_item_named(self, text: str) -> LineItem | None:
        """The line item the words name, whole: one of its names or labels, as phrase_words reads
        them ("capex", "Cash from operations", "total current liabilities"); None if none or two."""
        words = phrase_words(text)
        found = {
            item.key
            for item in self.line_items.values()
            if any(phrase_words(n) == words for n in (*item.names, *item.labels, item.key.replace("_", " ")))
        }
        return self.line_items[found.pop()] if len(found) == 1 else None

    def outflow_named(self, text: str) -> bool:
        """Whether the words open with an outflow line item's name or label, then a comma ("interest
        expense, net of amounts capitalized"): the row is that outflow, qualified."""
        words = phrase_words(text.split(",")[0]) if "," in text else ()
        return any(
            phrase_words(n) == words
            for item in self.line_items.values()
            if item.outflow
            for n in (*item.names, *item.labels)
        )

    def concepts_named(self, text: str) -> tuple[Concept, ...]:
        """The concepts whose names the text writes outside a metric's name ("operating cash flow
        ratio" is a metric, not the concept of cash flow) and outside any ratio's name, longest
        name first."""
        words = phrase_words(text)
        for metric in self.metrics.values():
            for name in map(phrase_words, metric.names):
                words = blank(words, name)
        words = _without_ratio_names(words)
        return tuple(c for _, c in _named(words, self.concepts.values()))


_RATIO = frozenset(("ratio", "ratios"))


def _without_ratio_names(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words with each ratio's name ("supplementary leverage ratio", "liquidity coverage
    ratio": the words before "ratio" back to a stopword) replaced by a break: a named ratio is a
    figure the filing prints, not a concept to judge."""
    out = list(words)
    for i, word in enumerate(words):
        if word in _RATIO:
            j = i
            while j > 0 and out[j - 1] != "|" and out[j - 1] not in STOPWORDS:
                j -= 1
            out[j : i + 1] = ["|"] * (i + 1 - j)
    return tuple(out)


def phrase_words(text: str) -> tuple[str, ...]:
    """Lower-case words of a text or name, as names are matched."""
    return tuple(_WORDS.findall(text.lower()))


def _named(words: tuple[str, ...], entries: object) -> list[tuple[int, Metric | Concept]]:
    found = []
    for entry in entries:  # type: ignore[attr-defined]
        lengths = [len(n) for n in map(phrase_words, entry.names) if _holds(words, n)]
        if lengths:
            found.append((max(lengths), entry))
    return sorted(found, key=lambda f: -f[0])


def blank(words: tuple[str, ...], phrase: tuple[str, ...]) -> tuple[str, ...]:
    """The words with every run equal to the phrase replaced by a break."""
    n, out, i = len(phrase), [], 0
    while i < len(words):
        if n and words[i : i + n] == phrase:
            out.append("|")
            i += n
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


def _holds(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def formula_items(formula: str, parameter: str = "") -> tuple[str, ...]:
    """The line-item keys a formula uses, in order of first use; ValueError if it is not one."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"formula {formula!r} does not parse") from exc
    items: list[ast.Name] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and len(node.args) == 1):
                raise ValueError(f"formula {formula!r}: only avg, prior and begin of one line item")
        elif isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id != parameter:
            items.append(node)
        elif not isinstance(node, _ALLOWED):
            raise ValueError(f"formula {formula!r}: {type(node).__name__} is not allowed")
    return tuple(dict.fromkeys(n.id for n in sorted(items, key=lambda n: n.col_offset)))


_ALLOWED = (ast.Expression, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Constant, ast.Load, ast.Name)


@cache
def load_vocabulary(path: Path = TABLE) -> Vocabulary:
    """The table, checked (ValueError names the first entry that is wrong)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    sources = {k: v["title"] for k, v in raw["sources"].items()}
    items = {
        k: LineItem(
            k,
            tuple(v["labels"]),
            v["statement"],
            v["element"],
            v["source"],
            tuple(v.get("names", ())),
            bool(v.get("outflow", False)),
            v.get("basis", ""),
        )
        for k, v in raw["line_items"].items()
    }
    metrics = {
        k: Metric(
            k,
            tuple(v["names"]),
            v["formula"],
            tuple(v.get("alternatives", ())),
            v["unit"],
            v["source"],
            v.get("parameter", ""),
        )
        for k, v in raw["metrics"].items()
    }
    concepts = {
        k: Concept(
            k,
            tuple(v["names"]),
            tuple(v["line_items"]),
            tuple(v["metrics"]),
            v["source"],
            tuple(JudgedMetric(f["metric"], f["source"]) for f in v.get("figures", ())),
        )
        for k, v in raw["concepts"].items()
    }
    vocabulary = Vocabulary(sources, items, metrics, concepts)
    _check(vocabulary)
    return vocabulary


def _check(v: Vocabulary) -> None:
    for entry in (*v.line_items.values(), *v.metrics.values(), *v.concepts.values()):
        if entry.source not in v.sources:
            raise ValueError(f"{entry.key}: unknown source {entry.source!r}")
    for metric in v.metrics.values():
        for formula in (metric.formula, *metric.alternatives):
            unknown = [i for i in formula_items(formula, metric.parameter) if i not in v.line_items]
            if unknown:
                raise ValueError(f"metric {metric.key}: unknown line items {unknown}")
    for concept in v.concepts.values():
        unknown = [i for i in concept.line_items if i not in v.line_items]
        unknown += [m for m in concept.metrics if m not in v.metrics]
        unknown += [
            f.metric for f in concept.figures if f.metric not in v.metrics or v.metrics[f.metric].parameter
        ]
        unknown += [f.source for f in concept.figures if f.source not in v.sources]
        if unknown:
            raise ValueError(f"concept {concept.key}: unknown entries {unknown}")
