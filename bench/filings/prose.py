"""Boilerplate prose shared by every generated report, as real 10-Ks share it: the same headings and
near-identical sentences in every filing, with the company's own words filled in."""

from __future__ import annotations

RISK_FACTORS = (
    (
        "Our results depend on general economic conditions.",
        "Demand for {product} is sensitive to general economic conditions, including inflation, interest rates, "
        "unemployment and consumer and business confidence. A downturn in any of the markets in which we "
        "operate could reduce the volume of {product} our customers purchase, lengthen payment cycles and "
        "increase the risk that customers are unable to pay amounts owed to us. Because a significant portion "
        "of our costs is fixed in the short term, a decline in revenue could have a disproportionate effect on "
        "our operating income.",
    ),
    (
        "We face intense competition.",
        "The {industry} industry is highly competitive. Our competitors include large multinational companies "
        "with greater financial, technical and marketing resources, as well as regional companies with lower "
        "cost structures. Competitors may introduce new offerings, reduce prices or bundle products in ways we "
        "cannot match, which could cause us to lose market share or reduce our margins. We may need to increase "
        "spending on marketing and on the development of new {product} to remain competitive.",
    ),
    (
        "Disruptions in our supply chain could adversely affect our business.",
        "We rely on third-party suppliers for raw materials, components, energy and transportation. Supply "
        "shortages, labor disputes, natural disasters, pandemics, trade restrictions or the financial distress "
        "of a key supplier could delay our deliveries or increase our costs. We may not be able to pass "
        "increased costs on to customers in a timely manner, or at all, and alternative sources of supply may "
        "not be available on acceptable terms.",
    ),
    (
        "Our international operations expose us to additional risks.",
        "We conduct business in {geos}. Our operations outside our home market are subject to risks including "
        "changes in foreign currency exchange rates, tariffs and trade barriers, differing legal and regulatory "
        "requirements, difficulties in staffing and managing foreign operations, political instability and "
        "potentially adverse tax consequences. Fluctuations in exchange rates affect the reported amounts of "
        "our revenue, expenses, assets and liabilities.",
    ),
    (
        "We may not realize the expected benefits of acquisitions.",
        "From time to time we acquire businesses, technologies or assets. Integrating an acquired business "
        "requires significant management attention and may disrupt our existing operations. We may fail to "
        "retain key employees or customers of the acquired business, we may assume unknown liabilities, and the "
        "anticipated synergies may not materialize. Goodwill and intangible assets recorded in connection with "
        "acquisitions may become impaired, which would reduce our reported earnings.",
    ),
    (
        "Cybersecurity incidents could disrupt our operations and harm our reputation.",
        "We depend on information technology systems to process orders, manage inventory, pay employees and "
        "report our financial results. These systems, and those of our vendors, are subject to damage or "
        "interruption from cyberattacks, ransomware, software defects, power outages and human error. A "
        "significant breach could result in the loss of confidential information, regulatory penalties, "
        "litigation and costs to remediate, and could damage our relationships with customers and suppliers.",
    ),
    (
        "We are subject to extensive laws and regulations.",
        "Our operations are subject to laws and regulations concerning product safety, environmental "
        "protection, labor and employment, data privacy, anti-corruption, export controls and taxation. Changes "
        "in these laws, or in their interpretation or enforcement, could increase our costs of compliance, "
        "require changes to our products or practices, or expose us to fines and penalties. Compliance failures "
        "could also lead to the suspension of licenses or permits needed to operate our business.",
    ),
    (
        "Our indebtedness could limit our flexibility.",
        "As of the end of fiscal {year} we had outstanding long-term debt, and we may incur additional debt in "
        "the future. Our debt agreements contain covenants that restrict our ability to incur additional "
        "indebtedness, pay dividends, make investments and sell assets. A breach of these covenants could "
        "result in an event of default, and rising interest rates increase the cost of our variable-rate "
        "borrowings.",
    ),
    (
        "We depend on key personnel.",
        "Our success depends on our ability to attract, retain and motivate senior management and skilled "
        "employees. Competition for qualified personnel in the {industry} industry is intense, and the loss of "
        "key employees, or our inability to hire and train new employees, could impair our ability to execute "
        "our strategy. Labor shortages and wage inflation may also increase our operating costs.",
    ),
    (
        "Changes in tax law could affect our results.",
        "We are subject to income taxes in the United States and in other jurisdictions. Our effective tax rate "
        "could be affected by changes in the mix of earnings among jurisdictions, changes in tax laws or their "
        "interpretation, including rules implementing a global minimum tax, and the outcome of tax audits. "
        "Significant judgment is required in determining our worldwide provision for income taxes.",
    ),
    (
        "Climate change and related regulation may affect our business.",
        "Severe weather events, water scarcity and other effects of climate change could disrupt our facilities "
        "and those of our suppliers. New regulations to limit greenhouse gas emissions, and the expectations of "
        "customers and investors regarding sustainability, may increase our energy, compliance and capital "
        "costs.",
    ),
    (
        "The market price of our common stock may be volatile.",
        "The trading price of our common stock may fluctuate significantly in response to our quarterly "
        "results, announcements by us or our competitors, changes in analysts' estimates, general market "
        "conditions and other factors, many of which are beyond our control. In the past, securities class "
        "action litigation has often been brought against companies following periods of volatility in the "
        "market price of their stock.",
    ),
)

OTHER_ITEMS = (
    ("Item 1B. Unresolved Staff Comments", "None."),
    (
        "Item 1C. Cybersecurity",
        "We maintain a cybersecurity risk management program that is integrated into our enterprise risk "
        "management process. The program is overseen by the Audit Committee of the Board of Directors and led "
        "by our Chief Information Security Officer, who reports regularly on threats, incidents and the results "
        "of third-party assessments. We did not identify any cybersecurity incident during fiscal {year} that "
        "materially affected our business strategy, results of operations or financial condition.",
    ),
    ("Item 4. Mine Safety Disclosures", "Not applicable."),
)

PART_II_ITEMS = (
    (
        "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of "
        "Equity Securities",
        "Our common stock is traded on the New York Stock Exchange. As of the end of fiscal {year} there were "
        "approximately 2,400 holders of record of our common stock. We paid quarterly cash dividends during "
        "each of the last three fiscal years and expect to continue to do so, subject to the discretion of our "
        "Board of Directors.",
    ),
    ("Item 6. [Reserved]", "Not applicable."),
)

MDNA = "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
PART_II_LATE = (
    (
        "Item 7A. Quantitative and Qualitative Disclosures About Market Risk",
        "We are exposed to market risk from changes in interest rates, foreign currency exchange rates and "
        "commodity prices. We manage these exposures through our normal operating and financing activities and, "
        "when appropriate, through derivative financial instruments. We do not use derivative instruments for "
        "trading or speculative purposes. A hypothetical 10% change in foreign currency exchange rates would "
        "not have had a material effect on our results of operations for fiscal {year}.",
    ),
    ("Item 9. Changes in and Disagreements with Accountants on Accounting and Financial Disclosure", "None."),
    (
        "Item 9A. Controls and Procedures",
        "Our management, with the participation of our Chief Executive Officer and Chief Financial Officer, "
        "evaluated the effectiveness of our disclosure controls and procedures as of the end of fiscal {year}. "
        "Based on that evaluation, they concluded that our disclosure controls and procedures were effective. "
        "Management assessed the effectiveness of our internal control over financial reporting using the "
        "criteria of the Internal Control - Integrated Framework (2013) issued by the Committee of Sponsoring "
        "Organizations of the Treadway Commission and concluded that it was effective. There were no changes in "
        "our internal control over financial reporting during the fourth quarter that materially affected, or "
        "are reasonably likely to materially affect, our internal control over financial reporting.",
    ),
    ("Item 9B. Other Information", "None."),
)

PART_III = (
    "Item 10. Directors, Executive Officers and Corporate Governance",
    "Item 11. Executive Compensation",
    "Item 12. Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters",
    "Item 13. Certain Relationships and Related Transactions, and Director Independence",
    "Item 14. Principal Accountant Fees and Services",
)
PART_III_TEXT = (
    "The information required by this Item is incorporated by reference to our definitive Proxy "
    "Statement for the annual meeting of stockholders to be filed within 120 days after the end "
    "of fiscal {year}."
)

AUDITOR = (
    "To the Stockholders and Board of Directors of {name}: We have audited the accompanying consolidated "
    "balance sheets of {name} and subsidiaries as of the end of fiscal {year} and fiscal {prior}, the "
    "related consolidated statements of income, cash flows and stockholders' equity for each of the three "
    "years in the period ended {fy_end}, {year}, and the related notes. In our opinion, the consolidated "
    "financial statements present fairly, in all material respects, the financial position of the Company "
    "and the results of its operations and its cash flows in conformity with accounting principles generally "
    "accepted in the United States of America. These financial statements are the responsibility of the "
    "Company's management. Our responsibility is to express an opinion on these financial statements based "
    "on our audits. We conducted our audits in accordance with the standards of the Public Company "
    "Accounting Oversight Board (United States). Critical audit matters: goodwill impairment assessment and "
    "the valuation of inventories. We have served as the Company's auditor since 2009."
)

ACCOUNTING_POLICIES = (
    (
        "Principles of consolidation",
        "The consolidated financial statements include the accounts of {name} and its wholly owned "
        "subsidiaries. All intercompany transactions and balances have been eliminated.",
    ),
    (
        "Use of estimates",
        "Preparing financial statements requires management to make estimates and assumptions that affect the "
        "reported amounts of assets, liabilities, revenue and expenses. Actual results could differ from those "
        "estimates.",
    ),
    (
        "Revenue recognition",
        "We recognize revenue when control of {product} transfers to the customer, in an amount that reflects "
        "the consideration we expect to be entitled to. Payment terms are generally 30 to 60 days.",
    ),
    (
        "Property, plant and equipment",
        "Property, plant and equipment is stated at cost less accumulated depreciation. Depreciation is "
        "computed on the straight-line method over estimated useful lives of 20 to 40 years for buildings, 3 to "
        "15 years for machinery and equipment, and 3 to 5 years for computer equipment and software.",
    ),
    (
        "Goodwill and intangible assets",
        "Goodwill is tested for impairment annually in the fourth quarter, and more often when events indicate "
        "that the carrying amount of a reporting unit may exceed its fair value. Finite-lived intangible assets "
        "are amortized on a straight-line basis over their estimated useful lives.",
    ),
    (
        "Income taxes",
        "Deferred tax assets and liabilities are recognized for the expected future tax consequences of "
        "temporary differences between the financial statement and tax bases of assets and liabilities.",
    ),
)
