"""One long annual report, as real 10-Ks run (the issue's was 503 pages): the same parts as the
short reports, plus what makes real ones long and alike from page to page: risk factors by market
and topic, results by product line, more notes with tables, a list of facilities, subsidiaries and
an exhibit index. Generic mentions of legal matters, restructuring and the markets recur
throughout, as they do in real filings; the facts themselves are printed where a filer prints
them (Item 1, Item 3, Item 7, the notes).

`render_long()` gives the PDF bytes and `long_questions()` the three questions of issue 12, asked
of one filing without naming the company, with their gold values and pages.
"""

from __future__ import annotations

import random

from fpdf.enums import XPos, YPos

from bench.filings import extra, part1, part2
from bench.filings.companies import Company
from bench.filings.numbers import Financials, Statement, build
from bench.filings.part1 import DEFENDANT, NO_PROCEEDINGS, fill
from bench.filings.pdfdoc import FilingPDF
from bench.filings.questions import Question

MIN_PAGES = 130  # product-line discussion continues until the report reaches this many pages
LONG_COMPANY = Company(
    "halvorsen",
    "Halvorsen Industrial Holdings, Inc.",
    "Halvorsen Industrial",
    industry="industrial flow control",
    product="pumps, valves and flow-control systems",
    segments=("Flow Control", "Industrial Automation", "Aftermarket Services"),
    geographies=("North America", "the United Kingdom", "Brazil"),
    hq="Milwaukee, Wisconsin",
    state="Delaware",
    fy_end="December 31",
    last_year=2023,
    scale=5480,
    unit="millions",
    employees=21400,
    rnd_share=0.03,
    restructuring=(2022, 2023),
    lawsuit="an antitrust class action brought by distributors over our aftermarket parts pricing",
    repeat_header=False,
    seed=1111,
)
ISSUE_QUESTIONS = (
    "What are the geographies the company primarily operates in?",
    "What were the restructuring costs in FY2022?",
    "Has the company reported any material legal proceedings?",
)
RISK_TOPICS = (
    (
        "Economic conditions in {market}",
        "A slowdown in industrial production or construction in {market} could reduce demand for our "
        "{product}. Customers there may defer projects, and competitors may cut prices to keep volume.",
    ),
    (
        "Currency exposure in {market}",
        "A portion of our revenue and costs in {market} is denominated in local currency. Changes in "
        "exchange rates affect our reported results and the competitiveness of products we export there.",
    ),
    (
        "Regulation and compliance in {market}",
        "Our operations in {market} are subject to laws on product safety, emissions, trade and "
        "anti-corruption. Violations could lead to fines, legal proceedings or restrictions on our business.",
    ),
    (
        "Labor relations in {market}",
        "Some of our employees in {market} are represented by works councils or unions. Work stoppages or "
        "restructuring actions that require consultation could delay production and raise costs.",
    ),
    (
        "Supply chain disruption in {market}",
        "We depend on suppliers in {market} for castings, motors and electronic components. A disruption at "
        "a supplier could delay shipments and require costly expedited freight.",
    ),
)
TOPIC_RISKS = (
    (
        "We may not realize the benefits of our restructuring actions",
        "From time to time we undertake restructuring actions to reduce costs. These actions may not "
        "yield the savings we expect, may disrupt operations and may result in further charges.",
    ),
    (
        "Litigation and claims could be costly",
        "We are involved in claims and lawsuits arising in the ordinary course of business, including "
        "product liability, intellectual property and commercial disputes. Their outcome is uncertain, "
        "and defending them diverts management attention.",
    ),
    (
        "Cybersecurity incidents could disrupt our operations",
        "Our systems and connected products could be the target of attacks. An incident could disrupt "
        "manufacturing, expose confidential information and lead to regulatory investigations.",
    ),
    (
        "Acquisitions involve risks",
        "We have acquired businesses and may acquire more. Integrating them could take longer or cost "
        "more than planned, and we could incur impairment charges if they underperform.",
    ),
)
PRODUCT_KINDS = (
    "centrifugal pumps",
    "positive displacement pumps",
    "ball valves",
    "butterfly valves",
    "control valves",
    "actuators",
    "flow meters",
    "pressure sensors",
    "drive controllers",
    "field service contracts",
    "replacement parts",
    "retrofit kits",
)
COUNTRIES = (
    "United States",
    "Canada",
    "Mexico",
    "United Kingdom",
    "Brazil",
    "Germany",
    "Netherlands",
    "Poland",
    "India",
    "Singapore",
    "Australia",
    "Chile",
)
SUFFIXES = ("LLC", "Inc.", "Ltd.", "Ltda.", "GmbH", "B.V.", "Sp. z o.o.", "Pvt. Ltd.", "Pte. Ltd.")


def risk_factors_by_market(pdf: FilingPDF) -> None:
    """Item 1A continued: each topic in each market, then company-wide topics."""
    c = pdf.company
    pdf.subheading("Risks Related to Our International Operations")
    for market in c.geographies:
        for title, body in RISK_TOPICS:
            pdf.subheading(title.format(market=market))
            pdf.paragraph(body.format(market=market, product=c.product))
    pdf.subheading("Risks Related to Our Business Generally")
    for title, body in TOPIC_RISKS:
        pdf.subheading(title)
        pdf.paragraph(body)


def facilities(pdf: FilingPDF, rng: random.Random) -> None:
    """Item 2 continued: a table of principal facilities."""
    c = pdf.company
    pdf.subheading("Principal Facilities")
    pdf.set_font("Helvetica", "", 8)
    for n in range(120):
        segment = c.segments[n % len(c.segments)]
        country = COUNTRIES[rng.randrange(len(COUNTRIES))]
        use = ("Manufacturing", "Distribution", "Service center", "Offices")[rng.randrange(4)]
        pdf.cell(60, 4.5, f"{use}, site {n + 1:03d}")
        pdf.cell(40, 4.5, country)
        pdf.cell(40, 4.5, segment)
        pdf.cell(20, 4.5, f"{rng.randint(20, 900):,}", align="R")
        pdf.cell(0, 4.5, ("Owned", "Leased")[rng.randrange(2)], new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    pdf.paragraph("Square footage is in thousands. Facilities are shared by segments where noted.")


def product_lines(pdf: FilingPDF, fin: Financials, rng: random.Random) -> None:
    """MD&A continued: results by product line, until the report has MIN_PAGES pages."""
    c = pdf.company
    pdf.subheading("Results by Product Line")
    n = 0
    while pdf.page < MIN_PAGES - 22:  # what follows (statements, notes, exhibits) is about 22 pages
        kind = PRODUCT_KINDS[n % len(PRODUCT_KINDS)]
        segment = c.segments[n % len(c.segments)]
        market = c.geographies[n % len(c.geographies)]
        series = f"Series {100 + n * 7}"
        base = rng.randint(40, 400)
        values = tuple(int(base * (1 + 0.05 * i) + rng.randint(-9, 9)) for i in range(3))
        pdf.subheading(f"{series} {kind} ({segment})")
        pdf.paragraph(
            f"Revenue from {series} {kind} was ${values[0]} million in fiscal {c.years[0]}, compared "
            f"with ${values[1]} million in fiscal {c.years[1]}. Demand was strongest in {market}, where "
            f"distributors added inventory ahead of price increases, while shipments elsewhere were "
            "steady. Backlog at year end was in line with the prior year."
        )
        pdf.statement_table(
            Statement(
                f"{series} {kind}",
                c.years,
                (
                    ("Revenue", values, ""),
                    ("Units shipped (thousands)", tuple(v * 3 for v in values), ""),
                    ("Orders", tuple(v + rng.randint(-5, 15) for v in values), ""),
                ),
            ),
            f"line{n}",
        )
        n += 1


def more_long_notes(pdf: FilingPDF, fin: Financials, rng: random.Random) -> None:
    """Notes 13 onwards: income taxes, debt, leases, pension, fair value, each with a table."""
    c = pdf.company
    tables = (
        (
            "Note 13. Income Tax Rate Reconciliation",
            ("Statutory rate", "State taxes", "Foreign rate differential"),
        ),
        ("Note 14. Debt Maturities", ("Senior notes", "Term loan", "Revolving credit facility")),
        ("Note 15. Lease Costs", ("Operating lease cost", "Finance lease cost", "Variable lease cost")),
        ("Note 16. Pension Obligations", ("Service cost", "Interest cost", "Expected return on plan assets")),
        ("Note 17. Fair Value Measurements", ("Level 1 assets", "Level 2 assets", "Level 3 assets")),
    )
    for title, rows in tables:
        pdf.subheading(title)
        pdf.paragraph(
            fill(
                pdf, "The amounts below are for fiscal {year} and the two preceding years, where applicable."
            )
        )
        pdf.statement_table(
            Statement(
                title, c.years, tuple((r, tuple(rng.randint(5, 300) for _ in c.years), "") for r in rows)
            ),
            title.split(".")[0].lower().replace(" ", ""),
        )


def subsidiaries(pdf: FilingPDF, rng: random.Random) -> None:
    """Exhibit 21: the subsidiaries of the registrant, by country."""
    c = pdf.company
    pdf.new_section("Exhibit 21.1 Subsidiaries of the Registrant")
    pdf.set_font("Helvetica", "", 8)
    for n in range(200):
        country = COUNTRIES[n % len(COUNTRIES)]
        word = ("Holdings", "Manufacturing", "Sales", "Services", "Finance", "Technologies")[rng.randrange(6)]
        name = f"{c.short} {word} {n + 1} {SUFFIXES[rng.randrange(len(SUFFIXES))]}"
        pdf.cell(110, 4.5, name)
        pdf.cell(0, 4.5, country, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def restructuring_reserve(pdf: FilingPDF, fin: Financials) -> None:
    """The restructuring note's reserve roll-forward, for the two newest years."""
    years = pdf.company.years[:2]
    charges = tuple(fin.restructuring.get(y, 0) for y in years)
    paid = tuple(int(v * 0.7) for v in charges)
    start = (charges[1] - paid[1], 0)
    end = tuple(s + ch - p for s, ch, p in zip(start, charges, paid, strict=True))
    pdf.statement_table(
        Statement(
            "Restructuring reserve",
            years,
            (
                ("Balance at beginning of year", start, ""),
                ("Restructuring charges", charges, ""),
                ("Cash payments", tuple(-p for p in paid), ""),
                ("Balance at end of year", end, "total"),
            ),
        ),
        "reserve",
        caption="Changes in the restructuring reserve were as follows:",
    )


def _write_long(company: Company, fin: Financials) -> FilingPDF:
    from bench.filings import write_contents

    rng = random.Random(company.seed)
    pdf = FilingPDF(company)
    part1.cover(pdf)
    pdf.add_page()
    part1.forward_looking(pdf)
    part1.business(pdf)
    extra.business_detail(pdf)
    part1.risk_factors(pdf)
    risk_factors_by_market(pdf)
    part1.properties_and_legal(pdf)
    facilities(pdf, rng)
    extra.executive_officers(pdf)
    part2.part_two_opening(pdf)
    part2.mdna(pdf, fin)
    product_lines(pdf, fin, rng)
    extra.critical_estimates(pdf)
    part2.statements(pdf, fin)
    extra.comprehensive_and_equity(pdf, fin)
    part2.notes(pdf, fin)
    restructuring_reserve(pdf, fin)
    extra.more_notes(pdf)
    more_long_notes(pdf, fin, rng)
    part2.closing(pdf)
    subsidiaries(pdf, rng)
    write_contents(pdf)
    return pdf


def render_long(company: Company = LONG_COMPANY) -> tuple[bytes, list[Question]]:
    """The long report's PDF bytes and the issue's three questions about it."""
    fin = build(company)
    pdf = _write_long(company, fin)
    return bytes(pdf.output()), long_questions(company, fin, pdf.facts)


def long_questions(company: Company, fin: Financials, facts: dict[str, set[int]]) -> list[Question]:
    """Geographies, FY2022 restructuring costs, legal proceedings: gold values and the pages printed on."""
    year = 2022
    if year not in fin.restructuring:
        raise ValueError(f"{company.file_name}: no restructuring charges in fiscal {year}")
    geos = tuple(g[4:] if g.startswith("the ") else g for g in company.geographies)
    specs = (
        ("list", ISSUE_QUESTIONS[0], geos, ("geographies",)),
        ("restructuring", ISSUE_QUESTIONS[1], (f"{fin.restructuring[year]:,}",), (f"restructuring:{year}",)),
        ("yes_no", ISSUE_QUESTIONS[2], (DEFENDANT if company.lawsuit else NO_PROCEEDINGS,), ("legal",)),
    )
    out = []
    for n, (kind, text, values, keys) in enumerate(specs):
        pages = sorted(set().union(*(facts[k] for k in keys)))
        out.append(
            Question(
                f"{company.key}-long-{n:02d}",
                text,
                kind,
                company.name,
                company.file_name,
                values,
                tuple(pages),
            )
        )
    return out


__all__ = ["ISSUE_QUESTIONS", "LONG_COMPANY", "long_questions", "render_long"]
