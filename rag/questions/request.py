"""A question read apart from how it asks to be answered: what to search for, which financial
statements it says to look in, and the line items of a metric it defines.

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
- an *input* is a line item of a metric the question defines ("Operating cash flow ratio is
  defined as: cash from operations / total current liabilities"): the definition is split at its
  operators into the items to look up, without "average", "change in" or the periods.

These are rules of how questions are written, not of one data set: the verbs and the statement
names are the general vocabulary of English instructions and of financial reporting (ASC 205,
IAS 1). Measured on filings-dev (FinanceBench's 26 questions and ours) and checked on squad-dev,
whose questions have no instructions (reading them changes nothing there: tests/rag/test_request.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_DEFINITION = re.compile(
    r"\b(?:is|are)\s+(?:here\s+)?(?:defined|calculated|computed|measured)\s+as\b:?|"
    r"^\s*define\s+.+?\s+as\b:?",
    re.IGNORECASE,
)
_OPERATOR = re.compile(r"[/*+=÷×()]|\s[-−–]\s|\b(?:minus|plus|less|divided\s+by|times|over)\b", re.IGNORECASE)  # noqa: RUF001
# What a definition's terms carry besides the line item: the periods, averaging and changes.
_NOT_AN_ITEM = re.compile(
    r"\bbetween\s+\S+\s+and\s+\S+|\b(?:average|avg|changes?\s+in|year[- ]end)\b|"
    r"\b(?:fy|fiscal\s*(?:year)?\s*)?'?(?:19|20)\d\d\b|\bfy\s*'?\d\d\b|\b\d+(?:\.\d+)?%?",
    re.IGNORECASE,
)
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
    inputs: tuple[str, ...] = ()  # line items of the metric it defines, in order
    instructions: tuple[str, ...] = ()  # the sentences and clauses set aside


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


def definition_inputs(sentence: str) -> tuple[str, ...]:
    """The line items a definition sentence names after "defined as", split at its operators."""
    found = _DEFINITION.search(sentence)
    if not found:
        return ()
    formula = sentence[found.end() :].rstrip(" .?!")
    items = []
    for part in _OPERATOR.split(formula):
        words = " ".join(_NOT_AN_ITEM.sub(" ", _STATEMENT_WORDS.sub(" ", part)).split()).strip(" ,;:")
        if re.search(r"[A-Za-z]{2}", words):
            items.append(words)
    return tuple(dict.fromkeys(items))


# "capex as a % of revenue", "operating income + depreciation and amortization": a metric the
# question writes out. Operands run to the nearest word that cannot be part of a line item's name.
_WRITTEN_OUT = re.compile(r"\s\+\s|\bas\s+a\s+(?:%|percent(?:age)?)\s+of\b", re.IGNORECASE)
_OPERAND_STOP = re.compile(
    r"^(?:what|which|is|are|was|were|the|of|for|from|in|to|or|a|an|its|their|how|much|did|does|"
    r"fy\S*|\d\S*|\S+'s|\S+’s)$",  # noqa: RUF001 (a curly apostrophe)
    re.IGNORECASE,
)


def written_out_inputs(text: str) -> tuple[str, ...]:
    """The operands of a metric written out in the question ("A + B", "A as a % of B")."""
    parts = _WRITTEN_OUT.split(text)
    if len(parts) < 2:
        return ()
    items = []
    for n, part in enumerate(parts):
        words = re.findall(r"[\w&'’-]+|[(),?]", part)  # noqa: RUF001
        # the operand after an operator runs from its start, the one before the first from its end
        run = _run(words) if n > 0 else _run(words[::-1])[::-1]
        if run:
            items.append(" ".join(run))
    return _formula(items)


def _formula(items: list[str]) -> tuple[str, ...]:
    """The operands that name something (a word of three letters or more), when two or more do:
    "T(n) = 7n2 + 15n" in a question about notation is no line-item formula."""
    named = tuple(dict.fromkeys(i for i in items if re.search(r"[A-Za-z]{3}", i)))
    return named if len(named) >= 2 else ()


_PARENTHETICAL = re.compile(r"\(([^()]{3,120})\)")


def parenthetical_inputs(text: str) -> tuple[str, ...]:
    """The line items of a formula written in parentheses: "(dividends paid / net earnings)",
    "(cash from operations minus capital expenditures)"."""
    items: list[str] = []
    for inside in _PARENTHETICAL.findall(text):
        parts = _OPERATOR.split(inside)
        if len(parts) < 2:
            continue
        for part in parts:
            words = re.findall(r"[\w&'’-]+", _NOT_AN_ITEM.sub(" ", part))  # noqa: RUF001
            while words and _OPERAND_STOP.match(words[0]):
                words.pop(0)
            while words and _OPERAND_STOP.match(words[-1]):
                words.pop()
            if words:
                items.append(" ".join(words[:6]))
    return _formula(items)


def _run(words: list[str]) -> list[str]:
    out = []
    for word in words:
        if word in "(),?" or _OPERAND_STOP.match(word):
            if out:
                break
            continue
        out.append(word)
    while out and out[-1].lower() == "and":  # "and" joins the words of a name, never ends one
        out.pop()
    while out and out[0].lower() == "and":
        out.pop(0)
    return out[:5]


def read_request(text: str) -> Request:
    """The question's asking sentences, the statements it names, the inputs of a metric it defines."""
    parts = sentences(text)
    asking = {s for s in parts if s.endswith("?")} or {s for s in parts if not _is_instruction(s)}
    kept, set_aside, inputs = [], [], []
    for sentence in parts:
        items = definition_inputs(sentence)
        if items:
            inputs.extend(items)
        elif sentence not in asking and (_is_instruction(sentence) or not asking):
            set_aside.append(sentence)
        else:
            clause, rest = _where_clause(sentence)
            if clause:
                set_aside.append(clause)
            kept.append(rest)
    asked = " ".join(kept)
    inputs.extend(written_out_inputs(_STATEMENT_WORDS.sub(" ", asked)))
    inputs.extend(parenthetical_inputs(asked))
    marked = _STATEMENT_WORDS.sub("\x00", asked)  # where a statement's name was
    core = " ".join(_EMPTY_BRACKETS.sub(" ", _DANGLING.sub("", marked).replace("\x00", " ")).split())
    core = core or asked or " ".join(text.split())
    return Request(
        text=text,
        core=core,
        statements=statements_in(text),
        inputs=tuple(dict.fromkeys(inputs)),
        instructions=tuple(set_aside),
    )
