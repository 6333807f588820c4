"""The fictional companies whose annual reports the filings evaluation generates (all invented)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Company:
    """What one report is about; the numbers come from a RNG seeded with `seed`."""

    key: str
    name: str
    short: str  # how an analyst names it in a question
    industry: str  # "packaged foods", used inside sentences
    product: str  # what it sells, plural noun
    segments: tuple[str, ...]
    geographies: tuple[str, ...]
    hq: str
    state: str
    fy_end: str  # "December 31"
    last_year: int  # the newest fiscal year in the report; three years are shown
    scale: int  # revenue of the oldest year, in the report's unit
    unit: str  # "millions" or "thousands"
    employees: int
    rnd_share: float  # research and development as a share of revenue
    restructuring: tuple[int, ...]  # fiscal years with restructuring charges
    lawsuit: str  # "" when no material proceedings; else the matter, one clause
    repeat_header: bool  # whether a statement continued on the next page repeats its year header
    seed: int
    name_on_pages: bool = True  # the company's name in the running header and footer (some 10-Ks omit it)

    @property
    def years(self) -> tuple[int, int, int]:
        """Newest first, as the statements print them."""
        return (self.last_year, self.last_year - 1, self.last_year - 2)

    @property
    def file_name(self) -> str:
        return f"{self.key}-10k-fy{self.last_year}.pdf"


COMPANIES = (
    Company(
        "brackwater",
        "Brackwater Foods, Inc.",
        "Brackwater Foods",
        industry="packaged foods",
        product="snacks and beverages",
        segments=("Snacks", "Beverages", "Frozen Meals"),
        geographies=("the United States", "Canada", "Mexico"),
        hq="Columbus, Ohio",
        state="Delaware",
        fy_end="December 31",
        last_year=2023,
        scale=4210,
        unit="millions",
        employees=11800,
        rnd_share=0.01,
        restructuring=(2022,),
        lawsuit="",
        repeat_header=False,
        seed=101,
    ),
    Company(
        "calloway",
        "Calloway Precision Instruments Corp.",
        "Calloway Precision",
        industry="industrial measurement",
        product="measurement instruments",
        segments=("Test and Measurement", "Process Sensors"),
        geographies=("North America", "Germany", "Japan"),
        hq="Rochester, New York",
        state="New York",
        fy_end="September 30",
        last_year=2020,
        scale=1875,
        unit="millions",
        employees=6400,
        rnd_share=0.08,
        restructuring=(2019, 2020),
        lawsuit="a patent infringement suit brought by a competitor over our laser displacement sensors",
        repeat_header=True,
        seed=202,
    ),
    Company(
        "veridane",
        "Veridane Health Systems, Inc.",
        "Veridane Health",
        industry="medical devices",
        product="surgical and monitoring devices",
        segments=("Surgical Devices", "Patient Monitoring", "Diagnostics"),
        geographies=("the United States", "Western Europe", "China"),
        hq="Minneapolis, Minnesota",
        state="Minnesota",
        fy_end="June 30",
        last_year=2022,
        scale=3120,
        unit="millions",
        employees=9200,
        rnd_share=0.11,
        restructuring=(),
        lawsuit="a product liability class action concerning our infusion pumps",
        repeat_header=False,
        seed=303,
        name_on_pages=False,
    ),
    Company(
        "tessaro",
        "Tessaro Logistics Group, Inc.",
        "Tessaro Logistics",
        industry="freight logistics",
        product="freight and warehousing services",
        segments=("Truckload", "Intermodal", "Contract Warehousing"),
        geographies=("the United States", "Canada", "Poland"),
        hq="Memphis, Tennessee",
        state="Delaware",
        fy_end="December 31",
        last_year=2021,
        scale=2640,
        unit="millions",
        employees=15300,
        rnd_share=0.0,
        restructuring=(2020,),
        lawsuit="",
        repeat_header=True,
        seed=404,
    ),
    Company(
        "marrowfield",
        "Marrowfield Retail Holdings, Inc.",
        "Marrowfield Retail",
        industry="specialty retail",
        product="home goods and apparel",
        segments=("Stores", "Digital"),
        geographies=("the United States", "Puerto Rico", "Canada"),
        hq="Charlotte, North Carolina",
        state="Delaware",
        fy_end="January 31",
        last_year=2023,
        scale=5980,
        unit="millions",
        employees=27500,
        rnd_share=0.0,
        restructuring=(2021, 2023),
        lawsuit="",
        repeat_header=False,
        seed=505,
    ),
    Company(
        "quillon",
        "Quillon Software Corporation",
        "Quillon Software",
        industry="enterprise software",
        product="software subscriptions",
        segments=("Cloud Subscriptions", "Licenses", "Professional Services"),
        geographies=("North America", "the United Kingdom", "India"),
        hq="Austin, Texas",
        state="Delaware",
        fy_end="March 31",
        last_year=2023,
        scale=812400,
        unit="thousands",
        employees=3100,
        rnd_share=0.19,
        restructuring=(2022,),
        lawsuit="a securities class action alleging misstatements about our subscription backlog",
        repeat_header=True,
        seed=606,
    ),
    Company(
        "aldermoor",
        "Aldermoor Energy Services, Inc.",
        "Aldermoor Energy",
        industry="oilfield services",
        product="drilling and completion services",
        segments=("Drilling Services", "Completion Services"),
        geographies=("the Permian Basin", "the North Sea", "the Middle East"),
        hq="Houston, Texas",
        state="Delaware",
        fy_end="December 31",
        last_year=2018,
        scale=2230,
        unit="millions",
        employees=7900,
        rnd_share=0.02,
        restructuring=(2016, 2017),
        lawsuit="an environmental enforcement action by a state regulator over a produced-water spill",
        repeat_header=False,
        seed=707,
        name_on_pages=False,
    ),
    Company(
        "kestrelbay",
        "Kestrel Bay Materials Company",
        "Kestrel Bay Materials",
        industry="building materials",
        product="cement, aggregates and ready-mix concrete",
        segments=("Cement", "Aggregates", "Ready-Mix Concrete"),
        geographies=("the United States", "Mexico", "the Caribbean"),
        hq="Tampa, Florida",
        state="Florida",
        fy_end="December 31",
        last_year=2022,
        scale=1540,
        unit="millions",
        employees=5200,
        rnd_share=0.0,
        restructuring=(),
        lawsuit="",
        repeat_header=True,
        seed=808,
    ),
    Company(
        "kestrelridge",
        "Kestrel Ridge Therapeutics, Inc.",
        "Kestrel Ridge Therapeutics",
        industry="biopharmaceuticals",
        product="specialty medicines",
        segments=("Neurology", "Immunology"),
        geographies=("the United States", "the European Union", "Japan"),
        hq="Cambridge, Massachusetts",
        state="Delaware",
        fy_end="December 31",
        last_year=2023,
        scale=486300,
        unit="thousands",
        employees=1450,
        rnd_share=0.24,
        restructuring=(2023,),
        lawsuit="a suit by a former licensing partner claiming milestones under a terminated agreement",
        repeat_header=False,
        seed=909,
        name_on_pages=False,
    ),
)
