"""Seeded, internally consistent financial statements for one company: every total adds up."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.filings.companies import Company

Row = tuple[str, tuple[int, ...] | None, str]  # label, values newest first (None: a caption row), style


@dataclass(frozen=True)
class Statement:
    """One table: a title, its column years (newest first) and rows; style "total" rows are bold."""

    title: str
    years: tuple[int, ...]
    rows: tuple[Row, ...]

    def value(self, label: str) -> tuple[int, ...]:
        """The values of the row with this label."""
        for row_label, values, _ in self.rows:
            if row_label == label and values is not None:
                return values
        raise KeyError(f"no row {label!r} in {self.title}")


@dataclass(frozen=True)
class Financials:
    """The statements and the notes' tables of one report."""

    income: Statement
    balance: Statement
    cash_flow: Statement
    ppe: Statement
    segments: Statement
    geographies: Statement
    depreciation: tuple[int, ...]  # newest first
    restructuring: dict[int, int]  # fiscal year -> charge
    eps: tuple[str, ...]


def money(value: int) -> str:
    """As the statements print it: 1,234 and (1,234) for negatives, "-" for zero."""
    if value == 0:
        return "-"
    return f"({-value:,})" if value < 0 else f"{value:,}"


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    weights = [rng.uniform(0.6, 1.4) for _ in range(parts)]
    shares = [int(total * w / sum(weights)) for w in weights]
    shares[-1] = total - sum(shares[:-1])
    return shares


def build(company: Company) -> Financials:
    """The company's statements for its three fiscal years (and the opening balances they need)."""
    rng = random.Random(company.seed)
    old_first = [company.scale]
    for _ in range(2):
        old_first.append(int(old_first[-1] * rng.uniform(0.94, 1.16)))
    revenue = old_first[::-1]
    years = company.years
    restructuring = {
        y: int(r * rng.uniform(0.008, 0.025))
        for y, r in zip(years, revenue, strict=True)
        if y in company.restructuring
    }
    income, facts = _income(company, revenue, restructuring, rng)
    depreciation = [int(r * rng.uniform(0.025, 0.045)) for r in revenue]
    amortization = [int(r * rng.uniform(0.004, 0.012)) for r in revenue]
    capex = [int(d * rng.uniform(1.05, 1.6)) for d in depreciation]
    cash_flow, cash_end = _cash_flow(years, facts["net_income"], depreciation, amortization, capex, rng)
    ppe, ppe_net = _ppe(years, capex, depreciation, revenue, rng)
    balance = _balance(company, years, revenue, cash_end, ppe_net, rng)
    segments = _breakdown("Revenue by segment", years, company.segments, revenue, rng)
    geographies = _breakdown(
        "Revenue by geography",
        years,
        tuple(name[4:] if name.startswith("the ") else name for name in company.geographies),
        revenue,
        rng,
    )
    return Financials(
        income,
        balance,
        cash_flow,
        ppe,
        segments,
        geographies,
        tuple(depreciation),
        restructuring,
        facts["eps"],
    )


def _breakdown(
    title: str, years: tuple[int, ...], names: tuple[str, ...], totals: list[int], rng: random.Random
) -> Statement:
    """Revenue split by segment or geography, year by year, with its total row."""
    per_year = [_split(t, len(names), rng) for t in totals]
    rows = tuple((name, tuple(split[p] for split in per_year), "") for p, name in enumerate(names))
    return Statement(title, years, (*rows, ("Total revenue", tuple(totals), "total")))


def _income(
    company: Company, revenue: list[int], restructuring: dict[int, int], rng: random.Random
) -> tuple[Statement, dict]:
    cogs = [int(r * rng.uniform(0.42, 0.68)) for r in revenue]
    gross = [r - c for r, c in zip(revenue, cogs, strict=True)]
    sga = [int(r * rng.uniform(0.14, 0.22)) for r in revenue]
    rnd = [int(r * company.rnd_share) for r in revenue]
    restr = [restructuring.get(y, 0) for y in company.years]
    operating = [g - s - d - x for g, s, d, x in zip(gross, sga, rnd, restr, strict=True)]
    interest = [-int(r * rng.uniform(0.004, 0.012)) for r in revenue]
    other = [int(r * rng.uniform(-0.003, 0.004)) for r in revenue]
    pretax = [o + i + x for o, i, x in zip(operating, interest, other, strict=True)]
    tax = [int(p * rng.uniform(0.19, 0.26)) if p > 0 else 0 for p in pretax]
    net = [p - t for p, t in zip(pretax, tax, strict=True)]
    shares = rng.uniform(0.02, 0.08) * revenue[-1]
    eps = tuple(f"{n / shares:.2f}" for n in net)
    rows: list[Row] = [
        ("Revenue", tuple(revenue), "total"),
        ("Cost of revenue", tuple(cogs), ""),
        ("Gross profit", tuple(gross), "total"),
        ("Selling, general and administrative", tuple(sga), ""),
    ]
    if company.rnd_share:
        rows.append(("Research and development", tuple(rnd), ""))
    if restructuring:
        rows.append(("Restructuring charges", tuple(restr), ""))
    rows += [
        ("Operating income", tuple(operating), "total"),
        ("Interest expense, net", tuple(interest), ""),
        ("Other income (expense), net", tuple(other), ""),
        ("Income before income taxes", tuple(pretax), "total"),
        ("Provision for income taxes", tuple(tax), ""),
        ("Net income", tuple(net), "total"),
    ]
    title = "Consolidated Statements of Income"
    return Statement(title, company.years, tuple(rows)), {"net_income": net, "eps": eps}


def _cash_flow(
    years: tuple[int, ...],
    net: list[int],
    dep: list[int],
    amort: list[int],
    capex: list[int],
    rng: random.Random,
) -> tuple[Statement, list[int]]:
    n = len(years)
    da = [d + a for d, a in zip(dep, amort, strict=True)]
    sbc = [int(x * rng.uniform(0.2, 0.5)) for x in dep]
    deferred = [int(x * rng.uniform(-0.2, 0.2)) for x in dep]
    receivables = [int(x * rng.uniform(-0.4, 0.2)) for x in dep]
    inventories = [int(x * rng.uniform(-0.3, 0.2)) for x in dep]
    payables = [int(x * rng.uniform(-0.2, 0.4)) for x in dep]
    operating = [
        sum(col) for col in zip(net, da, sbc, deferred, receivables, inventories, payables, strict=True)
    ]
    acquisitions = [-int(x * rng.uniform(0, 2)) if rng.random() < 0.3 else 0 for x in dep]
    other_inv = [int(x * rng.uniform(-0.1, 0.15)) for x in dep]
    investing = [-c + a + o for c, a, o in zip(capex, acquisitions, other_inv, strict=True)]
    borrow = [int(x * rng.uniform(0, 1.2)) for x in dep]
    repay = [-int(x * rng.uniform(0.2, 1.0)) for x in dep]
    dividends = [-int(max(x, 0) * rng.uniform(0.15, 0.35)) for x in net]
    buybacks = [-int(max(x, 0) * rng.uniform(0.0, 0.4)) for x in net]
    financing = [sum(col) for col in zip(borrow, repay, dividends, buybacks, strict=True)]
    fx = [int(x * rng.uniform(-0.03, 0.03)) for x in dep]
    change = [sum(col) for col in zip(operating, investing, financing, fx, strict=True)]
    begin = [0] * n
    end = [0] * n
    cash = int(sum(net) / n * rng.uniform(0.8, 1.6)) + 50
    for i in reversed(range(n)):  # oldest year first
        begin[i], end[i] = cash, cash + change[i]
        cash = end[i]
    rows: list[Row] = [
        ("Cash flows from operating activities:", None, "caption"),
        ("Net income", tuple(net), ""),
        ("Depreciation and amortization", tuple(da), ""),
        ("Stock-based compensation", tuple(sbc), ""),
        ("Deferred income taxes", tuple(deferred), ""),
        ("Accounts receivable", tuple(receivables), ""),
        ("Inventories", tuple(inventories), ""),
        ("Accounts payable and accrued liabilities", tuple(payables), ""),
        ("Net cash provided by operating activities", tuple(operating), "total"),
        ("Cash flows from investing activities:", None, "caption"),
        ("Purchases of property and equipment", tuple(-c for c in capex), ""),
        ("Acquisitions, net of cash acquired", tuple(acquisitions), ""),
        ("Other investing activities", tuple(other_inv), ""),
        ("Net cash used in investing activities", tuple(investing), "total"),
        ("Cash flows from financing activities:", None, "caption"),
        ("Proceeds from borrowings", tuple(borrow), ""),
        ("Repayments of long-term debt", tuple(repay), ""),
        ("Dividends paid", tuple(dividends), ""),
        ("Repurchases of common stock", tuple(buybacks), ""),
        ("Net cash provided by (used in) financing activities", tuple(financing), "total"),
        ("Effect of exchange rate changes on cash", tuple(fx), ""),
        ("Net increase (decrease) in cash and cash equivalents", tuple(change), "total"),
        ("Cash and cash equivalents at beginning of year", tuple(begin), ""),
        ("Cash and cash equivalents at end of year", tuple(end), "total"),
    ]
    return Statement("Consolidated Statements of Cash Flows", years, tuple(rows)), end


def _ppe(
    years: tuple[int, ...], capex: list[int], dep: list[int], revenue: list[int], rng: random.Random
) -> tuple[Statement, list[int]]:
    """Gross PP&E by class at the two balance-sheet dates; net = gross - accumulated depreciation."""
    gross_old = int(revenue[-1] * rng.uniform(0.5, 0.9))
    acc_old = int(gross_old * rng.uniform(0.35, 0.5))
    gross = [gross_old + capex[1], gross_old + capex[1] + capex[0]]  # prior year end, then latest
    acc = [acc_old + dep[1], acc_old + dep[1] + dep[0]]
    classes = (
        "Land",
        "Buildings and improvements",
        "Machinery and equipment",
        "Computer equipment and software",
        "Construction in progress",
    )
    latest, prior = _split(gross[1], 5, rng), _split(gross[0], 5, rng)
    net = [gross[1] - acc[1], gross[0] - acc[0]]
    rows: list[Row] = [(c, (a, b), "") for c, a, b in zip(classes, latest, prior, strict=True)]
    rows += [
        ("Property, plant and equipment, gross", (gross[1], gross[0]), "total"),
        ("Less: accumulated depreciation", (-acc[1], -acc[0]), ""),
        ("Property, plant and equipment, net", tuple(net), "total"),
    ]
    return Statement("Property, plant and equipment", years[:2], tuple(rows)), net


def _balance(
    company: Company,
    years: tuple[int, ...],
    revenue: list[int],
    cash: list[int],
    ppe_net: list[int],
    rng: random.Random,
) -> Statement:
    cols = range(2)
    recv = [int(revenue[i] * rng.uniform(0.09, 0.15)) for i in cols]
    inv = [
        int(revenue[i] * rng.uniform(0.05, 0.12)) if company.product != "software subscriptions" else 0
        for i in cols
    ]
    prepaid = [int(revenue[i] * rng.uniform(0.01, 0.03)) for i in cols]
    current = [cash[i] + recv[i] + inv[i] + prepaid[i] for i in cols]
    goodwill = int(revenue[0] * rng.uniform(0.1, 0.4))
    intang = [int(goodwill * rng.uniform(0.2, 0.4)) for _ in cols]
    other = [int(revenue[i] * rng.uniform(0.02, 0.05)) for i in cols]
    assets = [current[i] + ppe_net[i] + goodwill + intang[i] + other[i] for i in cols]
    payable = [int(revenue[i] * rng.uniform(0.05, 0.09)) for i in cols]
    accrued = [int(revenue[i] * rng.uniform(0.03, 0.06)) for i in cols]
    short_debt = [int(revenue[i] * rng.uniform(0.0, 0.03)) for i in cols]
    cur_liab = [payable[i] + accrued[i] + short_debt[i] for i in cols]
    lt_debt = [int(assets[i] * rng.uniform(0.15, 0.3)) for i in cols]
    other_liab = [int(revenue[i] * rng.uniform(0.02, 0.05)) for i in cols]
    liabilities = [cur_liab[i] + lt_debt[i] + other_liab[i] for i in cols]
    equity = [assets[i] - liabilities[i] for i in cols]
    apic = [int(equity[1] * rng.uniform(0.3, 0.5))] * 2
    aoci = [-int(equity[i] * rng.uniform(0.0, 0.05)) for i in cols]
    retained = [equity[i] - apic[i] - aoci[i] for i in cols]
    t = tuple
    rows: list[Row] = [
        ("ASSETS", None, "caption"),
        ("Cash and cash equivalents", t(cash[:2]), ""),
        ("Accounts receivable, net", t(recv), ""),
        ("Inventories", t(inv), ""),
        ("Prepaid expenses and other current assets", t(prepaid), ""),
        ("Total current assets", t(current), "total"),
        ("Property, plant and equipment, net", t(ppe_net), ""),
        ("Goodwill", (goodwill, goodwill), ""),
        ("Intangible assets, net", t(intang), ""),
        ("Other assets", t(other), ""),
        ("Total assets", t(assets), "total"),
        ("LIABILITIES AND STOCKHOLDERS' EQUITY", None, "caption"),
        ("Accounts payable", t(payable), ""),
        ("Accrued liabilities", t(accrued), ""),
        ("Current portion of long-term debt", t(short_debt), ""),
        ("Total current liabilities", t(cur_liab), "total"),
        ("Long-term debt", t(lt_debt), ""),
        ("Other long-term liabilities", t(other_liab), ""),
        ("Total liabilities", t(liabilities), "total"),
        ("Common stock and additional paid-in capital", t(apic), ""),
        ("Retained earnings", t(retained), ""),
        ("Accumulated other comprehensive loss", t(aoci), ""),
        ("Total stockholders' equity", t(equity), "total"),
        ("Total liabilities and stockholders' equity", t(assets), "total"),
    ]
    return Statement("Consolidated Balance Sheets", years[:2], tuple(rows))
