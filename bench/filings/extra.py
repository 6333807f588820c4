"""The longer stretches of a generated report that carry no gold facts, as in a real 10-K: business
detail, critical accounting estimates, the equity statements and the remaining notes."""

from __future__ import annotations

import random

from fpdf.enums import XPos, YPos

from bench.filings.numbers import Financials, Statement
from bench.filings.part1 import fill
from bench.filings.pdfdoc import FilingPDF

BUSINESS_DETAIL = (
    (
        "Competition",
        "We compete on the basis of quality, price, service, brand recognition and innovation. "
        "Our principal competitors in the {industry} market include several global companies and "
        "many regional producers. We believe our scale, customer relationships and breadth of "
        "{product} are competitive strengths.",
    ),
    (
        "Customers",
        "No single customer accounted for more than 10% of our consolidated revenue in fiscal "
        "{year}. Our ten largest customers together accounted for approximately a quarter of "
        "revenue.",
    ),
    (
        "Seasonality",
        "Our revenue and operating income are moderately seasonal. Historically, the second half "
        "of our fiscal year has generated a larger share of revenue than the first half, "
        "reflecting customer purchasing patterns and the timing of promotional activity.",
    ),
    (
        "Raw Materials and Suppliers",
        "We purchase raw materials, components, packaging and energy from many "
        "suppliers and generally have multiple sources for our principal inputs. "
        "Prices of several inputs are volatile, and we use supply contracts and, "
        "at times, derivative instruments to reduce price risk.",
    ),
    (
        "Intellectual Property",
        "We own trademarks, patents and trade secrets that are important to our "
        "business, including the {short} name and logo. We also license certain "
        "technologies from third parties.",
    ),
    (
        "Government Regulation",
        "Our operations are subject to regulation by federal, state, local and foreign "
        "authorities, including regulations governing product safety, labeling, "
        "environmental matters, workplace health and safety, and trade. Compliance "
        "with these regulations did not have a material effect on our capital "
        "expenditures, earnings or competitive position in fiscal {year}.",
    ),
)

ESTIMATES = (
    (
        "Revenue recognition",
        "Certain customer contracts include variable consideration such as rebates, "
        "volume discounts and returns. We estimate variable consideration using the "
        "expected-value method based on historical experience and update our estimates "
        "each quarter.",
    ),
    (
        "Goodwill",
        "We test goodwill for impairment at the reporting-unit level. Fair values are estimated "
        "with discounted cash flows, which depend on assumptions about revenue growth, margins and "
        "discount rates. In our most recent test, the fair value of each reporting unit exceeded "
        "its carrying amount.",
    ),
    (
        "Income taxes",
        "We record valuation allowances when it is more likely than not that deferred tax "
        "assets will not be realized, and we recognize uncertain tax positions only when they "
        "are more likely than not to be sustained on examination.",
    ),
    (
        "Pension and postretirement benefits",
        "Our obligations depend on assumptions about discount rates, "
        "expected returns on plan assets and mortality. A 25 basis-point "
        "change in the discount rate would not materially change our "
        "benefit expense.",
    ),
)

NOTES = (
    (
        "Note 7. Goodwill and Intangible Assets",
        "Goodwill is assigned to our reporting units. There were no "
        "impairments of goodwill in any period presented. Intangible "
        "assets consist primarily of customer relationships, "
        "trademarks and developed technology, amortized over 5 to 20 "
        "years.",
    ),
    (
        "Note 8. Debt",
        "Our long-term debt consists of senior unsecured notes with maturities through 2034 and "
        "borrowings under a revolving credit facility. The credit facility requires us to "
        "maintain a maximum leverage ratio, and we were in compliance with all covenants at the "
        "end of fiscal {year}.",
    ),
    (
        "Note 9. Income Taxes",
        "Our effective tax rate differs from the U.S. federal statutory rate of 21% "
        "primarily because of state income taxes, foreign earnings taxed at different "
        "rates and research credits. We file income tax returns in the United States "
        "and in foreign jurisdictions and remain subject to examination for fiscal "
        "years after 2015.",
    ),
    (
        "Note 10. Leases",
        "We lease offices, warehouses, manufacturing facilities and equipment under "
        "operating leases with remaining terms of 1 to 15 years. Operating lease cost is "
        "recognized on a straight-line basis over the lease term. Right-of-use assets are "
        "included in other assets.",
    ),
    (
        "Note 11. Stock-Based Compensation",
        "Our Omnibus Incentive Plan provides for grants of stock options, "
        "restricted stock units and performance share units to employees "
        "and directors. Compensation cost is recognized over the vesting "
        "period, generally three years, based on the grant-date fair "
        "value.",
    ),
    (
        "Note 12. Earnings Per Share",
        "Basic earnings per share is computed by dividing net income by the "
        "weighted-average number of common shares outstanding. Diluted earnings "
        "per share includes the dilutive effect of stock options and restricted "
        "stock units, computed with the treasury stock method.",
    ),
)


FIRST_NAMES = (
    "Alicia",
    "Marcus",
    "Priya",
    "Thomas",
    "Elena",
    "David",
    "Grace",
    "Samuel",
    "Naomi",
    "Victor",
    "Hannah",
    "Rafael",
)
LAST_NAMES = (
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Castellano",
    "Whitfield",
    "Nakamura",
    "Brennan",
    "Haddad",
    "Kowalski",
    "Ferreira",
    "Ashworth",
    "Delgado",
)
OFFICES = (
    "Chairman and Chief Executive Officer",
    "Executive Vice President and Chief Financial Officer",
    "Executive Vice President and Chief Operating Officer",
    "Senior Vice President, General Counsel and Secretary",
    "Senior Vice President and Chief Human Resources Officer",
    "Vice President and Controller",
)


def business_detail(pdf: FilingPDF) -> None:
    """The rest of Item 1."""
    for title, body in BUSINESS_DETAIL:
        pdf.subheading(title)
        pdf.paragraph(fill(pdf, body))


def executive_officers(pdf: FilingPDF) -> None:
    """The end of Part I: invented names, drawn with the company's seed."""
    rng = random.Random(pdf.company.seed)
    pdf.new_section("Information About Our Executive Officers", new_page=False)
    pdf.paragraph("Our executive officers, their ages and their positions as of the date of this report are:")
    pdf.set_font("Helvetica", "", 9)
    firsts, lasts = rng.sample(FIRST_NAMES, len(OFFICES)), rng.sample(LAST_NAMES, len(OFFICES))
    for office, first, last in zip(OFFICES, firsts, lasts, strict=True):
        pdf.cell(50, 5, f"{first} {last}")
        pdf.cell(12, 5, str(rng.randint(44, 63)))
        pdf.multi_cell(0, 5, office, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    pdf.paragraph(
        "Executive officers are elected annually by the Board of Directors and serve until their "
        "successors are elected. There are no family relationships among our executive officers."
    )


def critical_estimates(pdf: FilingPDF) -> None:
    """MD&A's critical accounting estimates."""
    pdf.subheading("Critical Accounting Estimates")
    pdf.paragraph(
        "Preparing our financial statements requires estimates that affect reported amounts. The "
        "estimates below involve the most judgment."
    )
    for title, body in ESTIMATES:
        pdf.paragraph(f"{title}. {body}")


def comprehensive_and_equity(pdf: FilingPDF, fin: Financials) -> None:
    """The statements of comprehensive income and of stockholders' equity, one page each."""
    net = fin.income.value("Net income")
    fx = tuple(int(n * 0.03) - 2 for n in net)
    pension = tuple(int(n * -0.01) + 1 for n in net)
    total = tuple(n + f + p for n, f, p in zip(net, fx, pension, strict=True))
    pdf.add_page()
    pdf.statement_table(
        Statement(
            "Consolidated Statements of Comprehensive Income",
            pdf.company.years,
            (
                ("Net income", net, "total"),
                ("Foreign currency translation adjustments", fx, ""),
                ("Pension and postretirement adjustments, net of tax", pension, ""),
                ("Comprehensive income", total, "total"),
            ),
        ),
        "oci",
    )
    dividends = fin.cash_flow.value("Dividends paid")
    buybacks = fin.cash_flow.value("Repurchases of common stock")
    other = tuple(t - n for t, n in zip(total, net, strict=True))
    title = "Consolidated Statements of Stockholders' Equity (summary)"
    pdf.statement_table(
        Statement(
            title,
            pdf.company.years,
            (
                ("Net income", net, ""),
                ("Other comprehensive income (loss)", other, ""),
                ("Cash dividends declared", dividends, ""),
                ("Repurchases of common stock", buybacks, ""),
            ),
        ),
        "eq",
    )


def more_notes(pdf: FilingPDF) -> None:
    """Notes 7 to 12."""
    for title, body in NOTES:
        pdf.subheading(title)
        pdf.paragraph(fill(pdf, body))
