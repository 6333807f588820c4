"""A question read apart from how it asks to be answered: what to search for, which financial
statements it says to look in, and the line items of a formula it writes.

Analysts' questions carry more than the question. "Assume that you are an investment analyst.
What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo? Respond by using
the details shown within the statement of cash flows." asks for one row of one statement; its
other sentences say where to look and how to answer. Searching for all of their words finds pages
about analysts, units and responses. So:

- an *instruction* is a sentence addressed to the one answering (it says "you"/"your", opens with
  "please" or with a verb of answering: ANSWER_VERBS, or says only the answer's unit and rounding:
  FORMAT_WORDS) when another sentence asks the question; a
  leading clause of the asking sentence that names a statement or says "you" ("Basing your
  judgments off of the balance sheet, what is ...") is one too. Instructions are not searched for;
- a *statement* is one of the primary financial statements (STATEMENTS: balance sheet, income
  statement, cash flow statement, statements of equity and of comprehensive income), by any of
  the names US GAAP and IFRS filings and analysts give it. Named anywhere in the question, it
  says where to look (rag.retrieval.pages finds those pages by their headings); its name is not searched for;
- an *input* is a line item of a formula the question writes ("Operating cash flow ratio is
  defined as: cash from operations / total current liabilities", "(CFO minus capex)", "capex as a %
  of revenue"): the operands rag.compute.formula.read_written reads, without "average", "change
  in" or the periods. A sentence that defines a metric is set apart from the asking sentences; the
  formulas of instructions name no inputs.

These are rules of how questions are written, not of one data set: the verbs and the statement
names are the general vocabulary of English instructions and of financial reporting (ASC 205,
IAS 1). Measured on filings-dev (FinanceBench's 26 questions and ours) and checked on squad-dev,
whose questions have no instructions (reading them changes nothing there: tests/rag/test_request.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.compute.formula import Written, read_written

# Verbs that open a sentence telling the answerer how to answer, not what is asked.
ANSWER_VERBS = frozenset(
    "answer round respond give provide express compute calculate use utilize utilise assume base "
    "rely show state report present write format consider treat keep include exclude".split()
)
# Words of a sentence that only says how to write the answer: its unit, scale and rounding.
FORMAT_WORDS = frozenset(
    "in as to a the usd eur gbp jpy chf cny cad aud inr dollars percent percentage percentages "
    "thousand thousands million millions billion billions zero one two three four decimal decimals "
    "place places whole number numbers".split()
)
# The primary financial statements, each by the names filings print and analysts write.
# Matched on lowercase text with spaces, hyphens and apostrophes removed ("ConsolidatedBalance
# Sheets" as some PDFs extract it, "statement of stockholders' equity").
STATEMENTS: dict[str, str] = {
    "cash_flows": r"statements?of(?:consolidated)?cashflows?|cashflows?statements?",
    "comprehensive": r"statements?of(?:consolidated)?comprehensive(?:income|loss|earnings)",
    "income": r"statements?of(?:consolidated)?(?:income|operations|earnings)|incomestatements?|"
    r"profitandloss|statements?ofprofitorloss|p&l",
    "balance": r"balancesheets?|statements?offinancial(?:position|condition)",
    "equity": r"statements?of(?:changesin)?(?:stockholders|shareholders)?equity|equitystatements?",
}
_STATEMENT = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in STATEMENTS.items()))
# The same names as written in a question, with their words apart, to take them out of the search.
_STATEMENT_WORDS = re.compile(
    r"\b(?:(?:the|its|their)\s+)?(?:consolidated\s+)?(?:"
    r"statements?\s+of\s+(?:consolidated\s+)?(?:cash\s*flows?|comprehensive\s+(?:income|loss)|income|"
    r"operations|earnings|financial\s+(?:position|condition)|(?:changes\s+in\s+)?"
    r"(?:stockholders'?|shareholders'?)?\s*equity|profit\s+or\s+loss)|"
    r"cash\s*flows?\s+statements?|income\s+statements?|balance\s+sheets?|p&l(?:\s+statements?)?|"
    r"profit\s+and\s+loss(?:\s+statements?)?)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[\"'(A-Z])")
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
_EMPTY_BRACKETS = re.compile(r"\(\s*[^\w()]*\)")
# What is left of "..., based on the income statement?" once the statement's name is out.
_DANGLING = re.compile(
    r",?\s*\b(?:based\s+on|using|from|per|according\s+to|as\s+shown\s+in|shown\s+in|in|within|on|by)"
    r"\s*\x00",
    re.IGNORECASE,
)
# "Here's the question: what is ..." - a lead-in before the asking words.
_LEAD_IN = re.compile(
    r"^[^?]{0,60}?:\s+(?=(?:what|which|how|who|when|where|why|is|are|was|were|did|does|do|has|have|can)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Request:
    """A question's asking part apart from its instructions, where to look, what a metric needs:
    one part of the question read once (rag.questions.read)."""

    text: str  # the question as asked
    core: str  # the asking sentences, without instructions and statement names
    statements: tuple[str, ...] = ()  # STATEMENTS kinds the question names, in order
    inputs: tuple[str, ...] = ()  # line items of the formulas it defines or asks with, in order
    instructions: tuple[str, ...] = ()  # the sentences and clauses set aside
    written: tuple[Written, ...] = ()  # every formula its sentences write (rag.compute.formula), in order


def statements_in(text: str) -> tuple[str, ...]:
    """The STATEMENTS kinds text names, in order of first appearance, without repeats."""
    flat = re.sub(r"[\s'’\-]+", "", text.lower())  # noqa: RUF001 (a curly apostrophe)
    return tuple(dict.fromkeys(m.lastgroup for m in _STATEMENT.finditer(flat) if m.lastgroup))


def sentences(text: str) -> list[str]:
    """The question's sentences (split after . ? ! before a capital)."""
    return [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def _is_instruction(sentence: str) -> bool:
    found = re.findall(r"[A-Za-z]+", sentence)
    first = found[:1]
    if re.search(r"\bplease\b", sentence, re.IGNORECASE) or _SECOND_PERSON.search(sentence):
        return True
    if found and all(w.lower() in FORMAT_WORDS for w in found):
        return True  # "USD millions.", "Percent, one decimal.": how to answer, nothing asked
    return bool(first) and first[0].lower() in ANSWER_VERBS and not sentence.rstrip().endswith("?")


def _where_clause(sentence: str) -> tuple[str, str]:
    """(leading clause, rest) when the sentence opens with a clause naming a statement or saying
    "you" before a comma; else ("", sentence)."""
    lead = _LEAD_IN.match(sentence)
    if lead:
        return lead.group(0).strip(), sentence[lead.end() :]
    head, comma, rest = sentence.partition(", ")
    if comma and rest and (statements_in(head) or _SECOND_PERSON.search(head)):
        return head, rest
    return "", sentence


def read_request(text: str) -> Request:
    """The question's asking sentences, the statements it names, the formulas it writes and the
    inputs of a metric it defines or writes out."""
    parts = sentences(text)
    asking = {s for s in parts if s.endswith("?")} or {s for s in parts if not _is_instruction(s)}
    kept, set_aside, inputs, written = [], [], [], []
    for sentence in parts:
        found = read_written(sentence)
        written.extend(found)
        if any(w.kind == "defines" for w in found):
            inputs.extend(t.words for w in found for t in w.terms)
        elif sentence not in asking and (_is_instruction(sentence) or not asking):
            set_aside.append(sentence)
        else:
            clause, rest = _where_clause(sentence)
            if clause:
                set_aside.append(clause)
            kept.append(rest)
            inputs.extend(t.words for w in found for t in w.terms)
    asked = " ".join(kept)
    marked = _STATEMENT_WORDS.sub("\x00", asked)  # where a statement's name was
    core = " ".join(_EMPTY_BRACKETS.sub(" ", _DANGLING.sub("", marked).replace("\x00", " ")).split())
    core = core or asked or " ".join(text.split())
    return Request(
        text=text,
        core=core,
        statements=statements_in(text),
        inputs=tuple(dict.fromkeys(inputs)),
        instructions=tuple(set_aside),
        written=tuple(written),
    )
