"""Parts II to IV of a generated report: MD&A, the statements, the notes, and the closing items."""

from __future__ import annotations

from fpdf.enums import XPos, YPos

from bench.filings import prose
from bench.filings.numbers import Financials, Statement
from bench.filings.part1 import fill, legal_text, listing
from bench.filings.pdfdoc import FilingPDF


def amount(pdf: FilingPDF, value: int) -> str:
    """'$1,234 million' as the narrative writes it."""
    return f"${abs(value):,} {pdf.company.unit[:-1]}"


def growth(new: int, old: int) -> str:
    """Year-over-year change as the narrative prints it: '7.4%'."""
    return f"{abs(new - old) / old * 100:.1f}%"


def part_two_opening(pdf: FilingPDF) -> None:
    """Items 5 and 6."""
    pdf.new_section("PART II")
    for title, body in prose.PART_II_ITEMS:
        pdf.new_section(title, new_page=False)
        pdf.paragraph(fill(pdf, body))


def mdna(pdf: FilingPDF, fin: Financials) -> None:
    """Item 7: revenue and its drivers year over year, restructuring, liquidity and capital spending."""
    c = pdf.company
    years = c.years
    revenue = fin.income.value("Revenue")
    pdf.new_section(prose.MDNA)
    pdf.subheading("Overview")
    pdf.paragraph(
        fill(
            pdf,
            "The following discussion should be read together with our consolidated "
            "financial statements and the related notes. {short} reports its results in "
            "three fiscal years; unless stated otherwise, references to fiscal {year} are to "
            "the fiscal year ended {fy_end}, {year}.",
        )
    )
    pdf.subheading("Results of Operations")
    for i in (0, 1):
        direction = "an increase" if revenue[i] >= revenue[i + 1] else "a decrease"
        lead, other = c.segments[i % len(c.segments)], c.segments[(i + 1) % len(c.segments)]
        pdf.paragraph(
            f"Revenue for fiscal {years[i]} was {amount(pdf, revenue[i])}, {direction} of "
            f"{growth(revenue[i], revenue[i + 1])} compared with {amount(pdf, revenue[i + 1])} in fiscal "
            f"{years[i + 1]}. The change was driven mainly by volume in our {lead} segment, pricing actions "
            f"in {other}, and the effect of foreign currency in {listing(c.geographies[1:])}.",
            (f"revenue:{years[i]}", f"revenue:{years[i + 1]}", f"yoy:{years[i]}"),
        )
    operating = fin.income.value("Operating income")
    pdf.paragraph(
        f"Operating income was {amount(pdf, operating[0])} in fiscal {years[0]} and "
        f"{amount(pdf, operating[1])} in fiscal {years[1]}. Gross margin reflected input cost "
        "inflation partly offset by productivity "
        "programs.",
        (f"operating:{years[0]}", f"operating:{years[1]}"),
    )
    segment_results(pdf, fin)
    pdf.subheading("Restructuring")
    pdf.paragraph(
        restructuring_text(pdf, fin),
        tuple(f"restructuring:{y}" for y in fin.restructuring) or ("restructuring:none",),
    )
    liquidity(pdf, fin)


def segment_results(pdf: FilingPDF, fin: Financials) -> None:
    """MD&A's paragraph per segment: its revenue this year against last year."""
    years = pdf.company.years
    pdf.subheading("Segment Results")
    for name, values, _ in fin.segments.rows[:-1]:
        if values is None:
            continue
        verb = "increased" if values[0] >= values[1] else "decreased"
        pdf.paragraph(
            f"{name}. Revenue in our {name} segment {verb} {growth(values[0], values[1])} to "
            f"{amount(pdf, values[0])} in fiscal {years[0]} from {amount(pdf, values[1])} in "
            f"fiscal {years[1]}, reflecting changes in volume, price and mix, and in foreign "
            "currency rates. Segment operating margin was affected by input costs and by "
            "investments in capacity."
        )


def restructuring_text(pdf: FilingPDF, fin: Financials) -> str:
    """The restructuring paragraph: charges by year, or that there were none."""
    years = pdf.company.years
    if not fin.restructuring:
        return f"We did not record any restructuring charges in fiscal {years[0]}, {years[1]} or {years[2]}."
    parts = [
        f"restructuring charges of {amount(pdf, v)} in fiscal {y}"
        for y, v in sorted(fin.restructuring.items())
    ]
    return (
        f"We recorded {listing(tuple(parts))}, primarily for employee severance and the consolidation of "
        "facilities under our cost reduction program. Restructuring charges are presented as a separate "
        "line in the consolidated statements of income and are not allocated to our segments."
    )


def liquidity(pdf: FilingPDF, fin: Financials) -> None:
    """Liquidity: operating cash flow and capital expenditures for the two latest years."""
    years = pdf.company.years
    ops = fin.cash_flow.value("Net cash provided by operating activities")
    capex = fin.cash_flow.value("Purchases of property and equipment")
    pdf.subheading("Liquidity and Capital Resources")
    pdf.paragraph(
        f"Net cash provided by operating activities was {amount(pdf, ops[0])} in fiscal "
        f"{years[0]}, compared with {amount(pdf, ops[1])} in fiscal {years[1]}. Our principal "
        "sources of liquidity are cash generated from operations and our revolving credit "
        "facility.",
        (f"cfo:{years[0]}", f"cfo:{years[1]}"),
    )
    pdf.paragraph(
        f"Capital expenditures were {amount(pdf, capex[0])} in fiscal {years[0]} and "
        f"{amount(pdf, capex[1])} in fiscal {years[1]}, mainly for capacity expansion, maintenance "
        "and information technology. We expect capital spending next year to be similar.",
        (f"capex:{years[0]}", f"capex:{years[1]}"),
    )


def statements(pdf: FilingPDF, fin: Financials) -> None:
    """Items 7A and 8: the auditor's report and the three statements (cash flows continue on a new page)."""
    title, body = prose.PART_II_LATE[0]
    pdf.new_section(title, new_page=False)
    pdf.paragraph(fill(pdf, body))
    pdf.new_section("Item 8. Financial Statements and Supplementary Data")
    pdf.subheading("Report of Independent Registered Public Accounting Firm")
    pdf.paragraph(fill(pdf, prose.AUDITOR))
    pdf.add_page()
    pdf.statement_table(fin.income, "is")
    eps = ", ".join(f"${e} in fiscal {y}" for e, y in zip(fin.eps, pdf.company.years, strict=True))
    pdf.paragraph(f"Diluted earnings per share: {eps}.")
    pdf.add_page()
    pdf.statement_table(fin.balance, "bs")
    pdf.add_page()
    pdf.statement_table(fin.cash_flow, "cf", split_at="Cash flows from investing activities:")


def notes(pdf: FilingPDF, fin: Financials) -> None:
    """The notes: policies, revenue by geography, PP&E, restructuring, contingencies, segments."""
    c = pdf.company
    pdf.new_section("Notes to Consolidated Financial Statements")
    pdf.subheading("Note 1. Summary of Significant Accounting Policies")
    for title, body in prose.ACCOUNTING_POLICIES:
        pdf.paragraph(f"{title}. " + fill(pdf, body))
    pdf.subheading("Note 2. Revenue")
    pdf.paragraph(
        f"We operate primarily in {listing(c.geographies)}. Revenue by geography, based on the "
        "location of the customer, was as follows:",
        ("geographies",),
    )
    pdf.statement_table(fin.geographies, "geo", caption="Revenue by geography")
    pdf.subheading("Note 3. Property, Plant and Equipment")
    pdf.statement_table(fin.ppe, "ppe", caption="Property, plant and equipment consisted of the following:")
    dep, years = fin.depreciation, c.years
    pdf.paragraph(
        f"Depreciation expense was {amount(pdf, dep[0])}, {amount(pdf, dep[1])} and "
        f"{amount(pdf, dep[2])} in fiscal {years[0]}, {years[1]} and {years[2]}, respectively.",
        tuple(f"depreciation:{y}" for y in years),
    )
    pdf.subheading("Note 4. Restructuring")
    pdf.paragraph(
        restructuring_text(pdf, fin),
        tuple(f"restructuring:{y}" for y in fin.restructuring) or ("restructuring:none",),
    )
    pdf.subheading("Note 5. Commitments and Contingencies")
    pdf.paragraph("Legal proceedings. " + legal_text(pdf), ("legal",))
    pdf.subheading("Note 6. Segment Information")
    pdf.paragraph(
        f"Our reportable segments are {listing(c.segments)}. Segment revenue was as follows:", ("segments",)
    )
    _keep_together(pdf, fin.segments)
    pdf.statement_table(fin.segments, "seg", caption="Revenue by segment")


def _keep_together(pdf: FilingPDF, table: Statement) -> None:
    if pdf.will_page_break((len(table.rows) + 4) * 5.0):
        pdf.add_page()


def closing(pdf: FilingPDF) -> None:
    """Items 9 to 15 and the signatures."""
    c = pdf.company
    pdf.new_section(prose.PART_II_LATE[1][0])
    pdf.paragraph(prose.PART_II_LATE[1][1])
    for title, body in prose.PART_II_LATE[2:]:
        pdf.new_section(title, new_page=False)
        pdf.paragraph(fill(pdf, body))
    pdf.new_section("PART III")
    for title in prose.PART_III:
        pdf.new_section(title, new_page=False)
        pdf.paragraph(fill(pdf, prose.PART_III_TEXT))
    pdf.new_section("PART IV")
    pdf.new_section("Item 15. Exhibits and Financial Statement Schedules", new_page=False)
    pdf.set_font("Helvetica", "", 9)
    for number, text in EXHIBITS:
        pdf.cell(20, 5, number)
        pdf.multi_cell(0, 5, fill(pdf, text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.new_section("Signatures")
    pdf.paragraph(
        "Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of "
        "1934, the registrant has duly caused this report to be signed on its behalf by the "
        f"undersigned, thereunto duly authorized. {c.name}, by its Chief Executive Officer and its "
        "Chief Financial Officer."
    )


EXHIBITS = (
    ("3.1", "Amended and Restated Certificate of Incorporation of {name}"),
    ("3.2", "Amended and Restated Bylaws"),
    ("4.1", "Description of Securities"),
    ("4.2", "Indenture for the senior notes"),
    ("10.1", "Credit Agreement among {name}, the lenders party thereto and the administrative agent"),
    ("10.2", "Omnibus Incentive Plan"),
    ("10.3", "Form of Restricted Stock Unit Award Agreement"),
    ("10.4", "Executive Severance Plan"),
    ("21.1", "Subsidiaries of the Registrant"),
    ("23.1", "Consent of Independent Registered Public Accounting Firm"),
    ("31.1", "Certification of the Chief Executive Officer pursuant to Rule 13a-14(a)"),
    ("31.2", "Certification of the Chief Financial Officer pursuant to Rule 13a-14(a)"),
    ("32.1", "Certifications pursuant to 18 U.S.C. Section 1350"),
    ("101", "Inline XBRL documents"),
    ("104", "Cover Page Interactive Data File"),
)
