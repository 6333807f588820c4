"""rag.questions.vocabulary: the table of line items, metrics and concepts is consistent, and a
broken table is refused with the entry named."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.questions.vocabulary import TABLE, formula_items, load_vocabulary


def test_the_table_is_consistent_and_every_entry_names_its_reference() -> None:
    v = load_vocabulary()
    assert len(v.metrics) >= 20 and len(v.concepts) >= 9
    used = {i for m in v.metrics.values() for i in formula_items(m.formula, m.parameter)}
    assert used <= set(v.line_items)
    assert all(
        v.sources[e.source] for e in (*v.line_items.values(), *v.metrics.values(), *v.concepts.values())
    )


@pytest.mark.parametrize(
    ("text", "metrics", "concepts"),
    [
        ("What is Adobe's FY2017 operating cash flow ratio?", ["operating_cash_flow_ratio"], []),
        ("Compute the quick ratio and ROE for FY2020.", ["quick_ratio", "return_on_equity"], []),
        ("Is Lockheed capital-intensive?", [], ["capital_intensity"]),
        ("Does Coke look liquid at year-end, and how leveraged is it?", [], ["liquidity", "solvency"]),
        ("Who audits the company?", [], []),
    ],
)
def test_names_in_a_question(text: str, metrics: list[str], concepts: list[str]) -> None:
    v = load_vocabulary()
    assert [m.key for m in v.metrics_named(text)] == metrics
    assert [c.key for c in v.concepts_named(text)] == concepts


@pytest.mark.parametrize(
    ("formula", "items"),
    [
        ("current_assets / current_liabilities", ("current_assets", "current_liabilities")),
        ("365 * avg(receivables) / revenue", ("receivables", "revenue")),
        ("(item - prior(item)) / prior(item)", ()),
    ],
)
def test_formula_items(formula: str, items: tuple[str, ...]) -> None:
    assert formula_items(formula, "item") == items


@pytest.mark.parametrize("formula", ["cash ** 2", "max(cash)", "avg(cash, debt)", "cash /", "cash.value"])
def test_a_formula_outside_the_grammar_is_refused(formula: str) -> None:
    with pytest.raises(ValueError, match="formula"):
        formula_items(formula)


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        (
            'formula = "current_assets / current_liabilities"',
            'formula = "current_assets / debts"',
            "current_ratio",
        ),
        (
            'source = "damodaran"\n\n[metrics.ebitda]',
            'source = "nobody"\n\n[metrics.ebitda]',
            "free_cash_flow",
        ),
        ('metrics = ["effective_tax_rate"]', 'metrics = ["tax_magic"]', "taxes"),
    ],
)
def test_a_broken_table_is_refused_naming_the_entry(tmp_path: Path, old: str, new: str, named: str) -> None:
    text = TABLE.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "vocabulary.toml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=named):
        load_vocabulary(broken)
