"""The front of a generated report: cover, contents, forward-looking statements and Part I."""

from __future__ import annotations

from fpdf.enums import XPos, YPos

from bench.filings import prose
from bench.filings.pdfdoc import FilingPDF

NO_PROCEEDINGS = "not currently a party to any material pending legal proceedings"
DEFENDANT = "named as a defendant in"


def listing(items: tuple[str, ...]) -> str:
    """'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def fill(pdf: FilingPDF, text: str) -> str:
    """A prose template with the company's words."""
    c = pdf.company
    return text.format(
        name=c.name,
        short=c.short,
        industry=c.industry,
        product=c.product,
        year=c.last_year,
        prior=c.last_year - 1,
        fy_end=c.fy_end,
        geos=listing(c.geographies),
        hq=c.hq,
    )


def cover(pdf: FilingPDF) -> None:
    """The cover page (label i)."""
    c = pdf.company
    pdf.add_page()
    pdf.set_page_label("r", label_start=1)
    lines = [
        ("B", 11, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"),
        ("", 10, "Washington, D.C. 20549"),
        ("B", 20, "FORM 10-K"),
        ("B", 16, "Annual Report"),
        ("", 10, "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"),
        ("B", 11, f"For the fiscal year ended {c.fy_end}, {c.last_year}"),
        ("", 10, f"Commission File Number 001-{30000 + c.seed * 7}"),
        ("B", 18, c.name),
        ("", 10, "(Exact name of registrant as specified in its charter)"),
        ("", 10, f"Incorporated in {c.state}  |  Headquarters: {c.hq}"),
    ]
    pdf.ln(20)
    for style, size, text in lines:
        pdf.set_font("Helvetica", style, size)
        pdf.multi_cell(0, size * 0.6, text, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(6)


def contents(pdf: FilingPDF, labels: dict[str, str]) -> None:
    """The table of contents on the current page, from the sections' printed page labels."""
    pdf.set_font("Helvetica", "B", 13)
    pdf.cell(0, 8, "TABLE OF CONTENTS", align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(4)
    pdf.set_font("Helvetica", "", 9)
    for title in TOC_TITLES:
        short = title if len(title) < 80 else title[:77] + "..."
        pdf.cell(150, 5.6, short)
        pdf.cell(0, 5.6, labels.get(title, ""), align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def forward_looking(pdf: FilingPDF) -> None:
    """The cautionary statement (label iii)."""
    pdf.new_section("Cautionary Note Regarding Forward-Looking Statements")
    pdf.paragraph(
        fill(
            pdf,
            "This Annual Report on Form 10-K contains forward-looking statements within the "
            "meaning of the Private Securities Litigation Reform Act of 1995, including "
            "statements about the expected performance of {short}, our strategy, future "
            "capital expenditures, restructuring activities and the outcome of legal "
            'matters. Words such as "anticipate", "believe", "expect", "intend", '
            '"plan" and "will" identify forward-looking statements. They are subject to '
            "risks and uncertainties, including those described under Item 1A, Risk Factors, "
            "that could cause actual results to differ materially. We undertake no "
            "obligation to update any forward-looking statement.",
        )
    )


def business(pdf: FilingPDF) -> None:
    """Item 1: overview, segments, geographies, employees (the body starts at printed page 1)."""
    c = pdf.company
    pdf.add_page()
    pdf.set_page_label("D", label_start=1)
    pdf.new_section("PART I", new_page=False)
    pdf.new_section("Item 1. Business", new_page=False)
    pdf.subheading("Overview")
    pdf.paragraph(
        fill(
            pdf,
            '{name} ("{short}", the "Company", "we" or "us") is a {industry} company '
            "headquartered in {hq}. We design, produce and sell {product} to customers "
            "through direct sales teams, distributors and digital channels.",
        )
    )
    pdf.paragraph(
        f"We operate primarily in {listing(c.geographies)}. Operations outside these markets were "
        "not significant in any period presented.",
        ("geographies",),
    )
    pdf.subheading("Segments")
    pdf.paragraph(
        f"We manage our business in {len(c.segments)} reportable segments: {listing(c.segments)}. "
        "Segment results are reviewed by our Chief Executive Officer, who is our chief operating "
        "decision maker. Financial information about our segments is presented in the notes to "
        "the consolidated financial statements.",
        ("segments",),
    )
    for segment in c.segments:
        pdf.paragraph(
            f"{segment}. Our {segment} segment serves customers with {c.product} under the "
            f"{c.short} brand and under private labels. Growth in {segment} depends on new product "
            "introductions, pricing and the strength of our distribution relationships."
        )
    pdf.subheading("Human Capital")
    pdf.paragraph(
        f"As of {c.fy_end}, {c.last_year}, we had approximately {c.employees:,} full-time "
        "employees, of whom about a fifth were covered by collective bargaining agreements. We "
        "consider our relations with our employees to be good.",
        ("employees",),
    )
    pdf.subheading("Available Information")
    pdf.paragraph(
        fill(
            pdf,
            "Our annual reports on Form 10-K, quarterly reports on Form 10-Q and current "
            "reports on Form 8-K are available free of charge on our investor relations "
            "website as soon as reasonably practicable after we file them with the "
            "Securities and Exchange Commission.",
        )
    )


def risk_factors(pdf: FilingPDF) -> None:
    """Item 1A and the short items after it."""
    pdf.new_section("Item 1A. Risk Factors")
    pdf.paragraph(
        "Investing in our securities involves risks. You should carefully consider the risks "
        "described below, together with the other information in this report."
    )
    for title, body in prose.RISK_FACTORS:
        pdf.subheading(title)
        pdf.paragraph(fill(pdf, body), ("geographies",) if "{geos}" in body else ())
    for title, body in prose.OTHER_ITEMS[:2]:
        pdf.new_section(title, new_page=False)
        pdf.paragraph(fill(pdf, body))


def properties_and_legal(pdf: FilingPDF) -> None:
    """Items 2, 3 and 4; Item 3 states a material proceeding or that there is none."""
    c = pdf.company
    pdf.new_section("Item 2. Properties")
    pdf.paragraph(
        f"Our corporate headquarters is located in {c.hq}, in a facility we own. We operate "
        f"manufacturing, distribution and office facilities in {listing(c.geographies)}, most of "
        "which are leased. We believe our facilities are in good condition and adequate for our "
        "present needs."
    )
    pdf.new_section("Item 3. Legal Proceedings", new_page=False)
    pdf.paragraph(legal_text(pdf), ("legal",))
    title, body = prose.OTHER_ITEMS[2]
    pdf.new_section(title, new_page=False)
    pdf.paragraph(body)


def legal_text(pdf: FilingPDF) -> str:
    """What the report says about legal proceedings (Item 3 and the contingencies note)."""
    c = pdf.company
    if not c.lawsuit:
        return (
            f"We are {NO_PROCEEDINGS}. From time to time we are involved in claims arising in the "
            "ordinary course of business, none of which we expect to have a material adverse effect on "
            "our financial position, results of operations or cash flows."
        )
    return (
        f"In fiscal {c.last_year - 1}, the Company was {DEFENDANT} {c.lawsuit}. The plaintiffs seek "
        "unspecified damages. We believe the claims are without merit and intend to defend ourselves "
        "vigorously; however, litigation is inherently uncertain and an unfavorable outcome could have "
        "a material adverse effect on our results of operations in the period in which it is resolved."
    )


TOC_TITLES = (
    "Cautionary Note Regarding Forward-Looking Statements",
    "Item 1. Business",
    "Item 1A. Risk Factors",
    "Item 1B. Unresolved Staff Comments",
    "Item 1C. Cybersecurity",
    "Item 2. Properties",
    "Item 3. Legal Proceedings",
    "Item 4. Mine Safety Disclosures",
    prose.PART_II_ITEMS[0][0],
    "Item 6. [Reserved]",
    prose.MDNA,
    prose.PART_II_LATE[0][0],
    "Item 8. Financial Statements and Supplementary Data",
    "Notes to Consolidated Financial Statements",
    *(title for title, _ in prose.PART_II_LATE[1:]),
    *prose.PART_III,
    "Item 15. Exhibits and Financial Statement Schedules",
    "Signatures",
)
