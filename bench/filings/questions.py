"""Analysts' questions on one generated report, with gold values and the pages the generator printed
them on. Phrasings rotate across companies, so each kind is asked in plain words and in shorthand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bench.filings.companies import Company
from bench.filings.numbers import Financials
from bench.filings.part1 import DEFENDANT, NO_PROCEEDINGS
from bench.filings.part2 import growth


@dataclass(frozen=True)
class Question:
    """One question: every gold value must appear in a right answer; each is printed on every gold page."""

    id: str
    question: str
    kind: str
    company: str
    doc_file: str
    gold_values: tuple[str, ...]
    gold_page_indexes: tuple[int, ...]

    def to_row(self) -> dict:
        """The questions.jsonl row (squad-dev's fields plus kind, company and gold_values)."""
        return {
            "id": self.id,
            "question": self.question,
            "is_impossible": False,
            "kind": self.kind,
            "company": self.company,
            "doc_file": self.doc_file,
            "gold_values": list(self.gold_values),
            "answers": [{"text": v} for v in self.gold_values],
            "gold_page_indexes": list(self.gold_page_indexes),
        }


Spec = tuple[str, str, tuple[str, ...], tuple[str, ...]]  # kind, question, gold values, fact keys
NET_INCOME_ROWS = ("is:Net income", "cf:Net income", "oci:Net income", "eq:Net income")


def possessive(name: str) -> str:
    """ "Quillon Software's", "Brackwater Foods'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _num(value: int) -> str:
    return f"{abs(value):,}"


def _pick(company: Company, options: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    return options[company.seed % len(options)]


def specs(company: Company, fin: Financials) -> list[Spec]:
    """(kind, question, gold values, fact keys whose pages are gold) for one company."""
    s, y0, y1, y2 = company.short, *company.years
    of_s = possessive(s)
    cf, inc = fin.cash_flow, fin.income
    capex = cf.value("Purchases of property and equipment")
    revenue = inc.value("Revenue")
    q = []
    kind, text = _pick(
        company,
        (
            ("statement_number", f"What was {of_s} capital expenditure in fiscal {y0}?"),
            ("shorthand", f"{s} capex FY{y0}?"),
            (
                "statement_number",
                f"How much did {s} spend on purchases of property and equipment in fiscal {y0}?",
            ),
        ),
    )
    q.append((kind, text, (_num(capex[0]),), ("cf:Purchases of property and equipment", f"capex:{y0}")))
    q.append(
        (
            "shorthand",
            _pick(
                company,
                (
                    ("", f"What was {of_s} D&A in FY{y1}?"),
                    ("", f"{s} depreciation and amortization fiscal {y1}"),
                    ("", f"D&A for {s} in fiscal {y1}?"),
                ),
            )[1],
            (_num(cf.value("Depreciation and amortization")[1]),),
            ("cf:Depreciation and amortization",),
        )
    )
    q.append(
        (
            "year_column",
            f"What was {of_s} net income in fiscal {y2}?",
            (_num(inc.value("Net income")[2]),),
            NET_INCOME_ROWS,
        )
    )
    q.append(
        (
            "year_column",
            f"What was {possessive(company.name)} total revenue for the fiscal year ended "
            f"{company.fy_end}, {y1}?",
            (_num(revenue[1]),),
            ("is:Revenue", f"revenue:{y1}", "seg:Total revenue", "geo:Total revenue"),
        )
    )
    q.append(
        (
            "shorthand",
            f"What was {of_s} revenue growth YoY in FY{y0}?",
            (growth(revenue[0], revenue[1]),),
            (f"yoy:{y0}",),
        )
    )
    q.append(
        (
            "year_column",
            f"What was {of_s} depreciation expense in fiscal {y1}?",
            (_num(fin.depreciation[1]),),
            (f"depreciation:{y1}",),
        )
    )
    ppe = fin.balance.value("Property, plant and equipment, net")
    q.append(
        (
            "shorthand",
            f"What was {of_s} net PP&E at the end of fiscal {y0}?",
            (_num(ppe[0]),),
            ("bs:Property, plant and equipment, net", "ppe:Property, plant and equipment, net"),
        )
    )
    ops = cf.value("Net cash provided by operating activities")
    q.append(
        (
            "statement_number",
            f"How much cash did {s} generate from operating activities in fiscal {y0}?",
            (_num(ops[0]),),
            ("cf:Net cash provided by operating activities", f"cfo:{y0}"),
        )
    )
    q.append(
        (
            "list",
            f"What are the geographies {s} primarily operates in?",
            tuple(g[4:] if g.startswith("the ") else g for g in company.geographies),
            ("geographies",),
        )
    )
    q.append(("list", f"What are {of_s} reportable segments?", company.segments, ("segments",)))
    q.append(
        (
            "narrative_number",
            f"How many full-time employees does {company.name} have?",
            (f"{company.employees:,}",),
            ("employees",),
        )
    )
    phrase = DEFENDANT if company.lawsuit else NO_PROCEEDINGS
    q.append(
        ("yes_no", f"Has {company.name} reported any material legal proceedings?", (phrase,), ("legal",))
    )
    q += _restructuring(company, fin)
    return q


def _restructuring(company: Company, fin: Financials) -> list[Spec]:
    s, of_s = company.short, possessive(company.short)
    if not fin.restructuring:
        return [
            (
                "yes_no",
                f"Did {s} record restructuring charges in fiscal {company.years[1]}?",
                ("did not record any restructuring charges",),
                ("restructuring:none",),
            )
        ]
    year = max(fin.restructuring)
    text = _pick(
        company,
        (
            ("", f"What were {of_s} restructuring costs in FY{year}?"),
            ("", f"How much did {s} record in restructuring charges in fiscal {year}?"),
        ),
    )[1]
    return [
        (
            "restructuring",
            text,
            (_num(fin.restructuring[year]),),
            ("is:Restructuring charges", f"restructuring:{year}"),
        )
    ]


def questions_for(company: Company, fin: Financials, facts: Mapping[str, set[int]]) -> list[Question]:
    """The company's questions, gold pages taken from where the generator printed each fact."""
    out = []
    for n, (kind, text, values, keys) in enumerate(specs(company, fin)):
        missing = [k for k in keys if not facts.get(k)]
        if missing:
            raise ValueError(f"{company.file_name}: facts {missing} were never printed")
        pages = sorted(set().union(*(facts[k] for k in keys)))
        out.append(
            Question(
                f"{company.key}-{n:02d}", text, kind, company.name, company.file_name, values, tuple(pages)
            )
        )
    return out
