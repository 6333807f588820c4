"""The fpdf2 page machinery of a generated filing: running header and footer, printed page labels,
paragraphs kept on one page, statement tables, and a record of the page each fact landed on."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from bench.filings.companies import Company
from bench.filings.numbers import Statement, money

LINE_MM = 5.0
WRAP_SLACK = 0.85  # a wrapped line holds at least this share of the text width
FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)
LABEL_MM = 104.0
COLUMN_MM = 26.0


class FilingPDF(FPDF):
    """An annual report being written; `facts` maps a fact key to the page indexes it was printed on."""

    def __init__(self, company: Company) -> None:
        super().__init__(format="letter", unit="mm")
        self.company = company
        self.facts: dict[str, set[int]] = defaultdict(set)
        self.sections: dict[str, str] = {}  # section title -> printed page label
        self.set_margins(22, 22, 22)
        self.set_auto_page_break(True, margin=22)
        self.set_title(f"{company.name} Annual Report on Form 10-K")
        self.set_author(company.name)
        self.set_creation_date(FIXED_DATE)  # the same bytes on every run

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font("Helvetica", "", 8)
        name = f"{self.company.name} | " if self.company.name_on_pages else ""
        self.cell(
            0,
            4,
            f"{name}Annual Report on Form 10-K | Fiscal {self.company.last_year}",
            align="R",
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )
        self.ln(4)

    def footer(self) -> None:
        if self.page_no() == 1:
            return
        self.set_y(-15)
        self.set_font("Helvetica", "", 8)
        name = f"{self.company.name}  -  " if self.company.name_on_pages else ""
        self.cell(0, 4, f"{name}Form 10-K", align="L")
        self.set_x(self.l_margin)
        self.cell(0, 4, self.get_page_label(), align="R")

    @property
    def current_index(self) -> int:
        """0-based index of the page being written."""
        return self.page_no() - 1

    def place(self, key: str) -> None:
        """Record that fact `key` is printed on the current page."""
        self.facts[key].add(self.current_index)

    def new_section(self, title: str, *, new_page: bool = True) -> None:
        """An Item heading, on a new page unless asked otherwise; remembered for the contents."""
        if new_page or self.will_page_break(30):
            self.add_page()
        self.sections[title] = self.get_page_label()
        self.set_font("Helvetica", "B", 12)
        self.multi_cell(0, 6, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(2)

    def subheading(self, text: str) -> None:
        """A bold line that never ends a page."""
        if self.will_page_break(LINE_MM * 4):
            self.add_page()
        self.set_font("Helvetica", "B", 10)
        self.multi_cell(0, LINE_MM, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(1)

    def paragraph(self, text: str, facts: tuple[str, ...] = ()) -> None:
        """A paragraph kept whole on one page, so the facts it states have one page."""
        self.set_font("Helvetica", "", 10)
        # An upper bound on the lines: fpdf2's own dry run costs as much as writing the paragraph.
        lines = int(self.get_string_width(text) / (self.epw * WRAP_SLACK)) + 2
        if self.will_page_break(lines * LINE_MM):
            self.add_page()
        start = self.page
        self.multi_cell(0, LINE_MM, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if facts and self.page != start:
            raise RuntimeError(f"{self.company.file_name}: a paragraph with {facts} crossed a page break")
        self.ln(2)
        for key in facts:
            self.place(key)

    def statement_table(
        self,
        statement: Statement,
        fact_prefix: str,
        *,
        split_at: str | None = None,
        caption: str | None = None,
    ) -> None:
        """A statement with its year header once at the top; at row `split_at` it continues on a
        new page, repeating the header only when the company's layout does."""
        self.subheading(caption or statement.title)
        self._table_header(statement)
        for label, values, style in statement.rows:
            if label == split_at or self.will_page_break(LINE_MM):
                self.add_page()
                if self.company.repeat_header:
                    self.subheading(f"{caption or statement.title} (continued)")
                    self._table_header(statement)
            self._row(label, values, style)
            if values is not None:
                self.place(f"{fact_prefix}:{label}")
        self.ln(4)

    def _table_header(self, statement: Statement) -> None:
        company = self.company
        self.set_font("Helvetica", "I", 8)
        self.cell(LABEL_MM, LINE_MM, f"(in {company.unit}, except per-share data)")
        span = f"{'Fiscal year ended' if len(statement.years) == 3 else 'As of'} {company.fy_end},"
        self.cell(
            COLUMN_MM * len(statement.years), LINE_MM, span, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
        self.set_font("Helvetica", "B", 9)
        self.cell(LABEL_MM, LINE_MM, "")
        for year in statement.years:
            self.cell(COLUMN_MM, LINE_MM, str(year), align="R")
        self.ln(LINE_MM)

    def _row(self, label: str, values: tuple[int, ...] | None, style: str) -> None:
        self.set_font("Helvetica", "B" if style in ("total", "caption") else "", 9)
        indent = "" if style else "   "
        self.cell(LABEL_MM, LINE_MM, indent + label)
        for value in values or ():
            self.cell(COLUMN_MM, LINE_MM, money(value), align="R")
        self.ln(LINE_MM)
