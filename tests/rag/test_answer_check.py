"""The answer check of the offline answerer (rag.offline.check), rule by rule, from tables of cases."""

from __future__ import annotations

import pytest

from rag.offline.check import DEFAULT, OFF, Quote, check, support, unnamed_label
from rag.questions.periods import quarters_in
from rag.questions.read import read_question
from rag.questions.terms import question_proper, read_asked


@pytest.mark.parametrize(
    ("question", "wants"),
    [
        ("How many teams did Los Angeles used to have?", "number"),
        ("What percentage of sales came from Aeronautics?", "number"),
        ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", "number"),
        ("When did the Normans conquer England?", "date"),
        ("In what year was the greenhouse built?", "date"),
        ("What year was the greenhouse built?", "date"),
        ("Who ruled Cyprus in the 11th century?", "name"),
        ("Where does Tony Hawk live?", "place"),
        ("Has MGM Resorts paid dividends to common shareholders in FY2022?", "yesno"),
        ("What culture did the Normans combine with?", ""),
    ],
)
def test_what_the_question_asks_for(question: str, wants: str) -> None:
    assert read_asked(question).wants == wants


@pytest.mark.parametrize(
    ("question", "names", "numbers", "qualifiers"),
    [
        ("Who ruined Roussel de Bailleul's plans?", ("roussel", "bailleul"), (), ()),
        ("What did the California Times define twice?", ("california times",), (), ()),
        ("Warner Center is located in which area?", ("warner center",), (), ()),  # first word, then a capital
        ("What was Quillon Software's D&A in FY2022?", ("quillon software",), (), ()),  # shorthand: no name
        ("Which of JPM's segments had the lowest revenue in 2021 Q1?", ("jpm",), ("2021",), ("lowest",)),
        ("What counties does the eight county definition include?", (), ("8",), ()),
        ("Revenue for the fiscal year ended December 31, 2021?", (), (), ()),  # a date is the period
        ("What was Walmart's net income, as shown in the FY2018 10-K?", ("walmart",), (), ()),
        ("What is one of the most important open questions?", (), (), ("most",)),  # "one" is no number
        ("Which machine is most commonly used?", (), (), ()),  # "most" before an adverb singles nothing out
        ("What was the first Norman castle?", ("norman",), (), ("first",)),
    ],
)
def test_specific_terms_are_read(
    question: str, names: tuple[str, ...], numbers: tuple[str, ...], qualifiers: tuple[str, ...]
) -> None:
    asked = read_asked(question)
    assert (asked.names, asked.numbers, asked.qualifiers) == (names, numbers, qualifiers)


def test_instructions_around_the_question_are_not_read() -> None:
    question = (
        "You are an analyst. What is the FY2021 capital expenditure for PepsiCo? "
        "Answer in USD billions. Respond from the Statement of Cash Flows."
    )
    assert question_proper(question) == "What is the FY2021 capital expenditure for PepsiCo?"
    assert read_asked(question).names == ("pepsico",)
    # "Inc." does not end the question: the sentences are split as everywhere else (rag.text).
    assert read_asked("How many employees does Acme Foods, Inc. have?").wants == "number"


def test_quarters_are_read_in_every_spelling() -> None:
    assert quarters_in("the second quarter of 2021, Q3 and 4Q23") == {2, 3, 4}
    assert read_asked("How much did JPMorgan earn in the second fiscal quarter of 2021?").quarters == {2}


CASES = [
    # (question, quote, passes, rule that fails)
    ("How many teams did Los Angeles have?", Quote("Los Angeles had two teams."), True, ""),
    ("How many teams did Los Angeles have?", Quote("Los Angeles had teams of its own."), False, "asked_for"),
    ("How much was capex?", Quote("Capital expenditures 1,577 1,602", row=True), True, ""),
    # a date and a year are no amount: the auditor's sentence does not answer "how much"
    (
        "How much net cash did CVS Health provide?",
        Quote("We have audited the balance sheets of CVS Health as of December 31, 2018 and 2017."),
        False,
        "asked_for",
    ),
    ("When did the Normans reach Italy?", Quote("The Normans reached Italy in 999."), True, ""),
    ("When did the Normans reach Italy?", Quote("The Normans reached Italy in the 10th century."), True, ""),
    ("When did the Normans reach Italy?", Quote("The Normans reached Italy by sea."), False, "asked_for"),
    ("When did Herve serve?", Quote("Hervé served in the 1050s."), True, ""),  # accents ignored
    ("Who led the troops?", Quote("The troops were led by Guy de Lusignan."), True, ""),
    ("Who led the troops?", Quote("The troops were led by a general."), False, "asked_for"),
    (
        "Has Acme reported any material legal proceedings?",
        Quote("We believe the claims are without merit.", context="Item 3. Legal Proceedings Acme 10-K"),
        True,
        "",
    ),
    (
        "Has Acme reported any material legal proceedings?",
        Quote("We consent to the incorporation by reference.", context="Acme Annual Report"),
        False,
        "asked_for",
    ),
    # specific terms: a name of the question the quote and its context lack
    (
        "What did the Normans bring to Asia?",
        Quote("The Normans brought castles to Africa."),
        False,
        "specific",
    ),
    ("What did the Normans bring?", Quote("They brought castles.", before="The Normans came."), True, ""),
    ("What did the Normans bring?", Quote("They brought castles.", passage="The Normans came. x"), True, ""),
    (
        "What is the Cobham-Edward thesis?",
        Quote("This is the Cobham\u2013Edmonds thesis."),
        False,
        "specific",
    ),
    (
        "What did the California Times define?",
        Quote("The Los Angeles Times defined California."),
        False,
        "specific",
    ),
    ("What did JPM earn?", Quote("JPMorgan Chase earned much.", context="JPM 10-Q"), True, ""),  # a prefix
    (
        "What did Lockheed Martin sell?",
        Quote("It sold jets.", context="LOCKHEEDMARTIN_2021_10K.pdf"),
        True,
        "",
    ),
    ("What is the largest city?", Quote("Los Angeles is a big city."), False, "specific"),
    ("What is the largest city?", Quote("Los Angeles is the largest city."), True, ""),
    (
        "Which counties does the eight county definition include?",
        Quote("The 8-county one has A and B."),
        True,
        "",
    ),
    (
        "Which counties does the eight county definition include?",
        Quote("The 10-county one has A."),
        False,
        "specific",
    ),
    # a number found only around the quote while the quote names another one: replaced
    (
        "What happened to the greenhouse in 1990?",
        Quote("The greenhouse was rebuilt in 1987.", before="Plans were made in 1990."),
        False,
        "specific",
    ),
    (
        "What was net income in Q3 2023?",
        Quote("In the second quarter of 2023 net income was 14.5."),
        False,
        "specific",
    ),
    (
        "What was net income in Q2 2023?",
        Quote("In the second quarter of 2023 net income was 14.5."),
        True,
        "",
    ),
    # negation
    (
        "What does not hide constant factors?",
        Quote("Big O notation hides constant factors."),
        False,
        "negation",
    ),
    ("What is not known about P?", Quote("It is not known whether P equals NP."), True, ""),
    # moved: the question's qualifier is on another thing in the quote
    (
        "What is the second-largest inland harbour?",
        Quote("Acme Bay is the largest inland harbour; Beta Bay is the second largest sea harbour."),
        False,
        "moved",
    ),
    (
        "What is the second-largest inland harbour?",
        Quote("Beta Bay is the second largest inland harbour."),
        True,
        "",
    ),
    # inserted: the question asks about something narrower than the quote names
    (
        "What is the busiest single runway airport?",
        Quote("Acme Field is the busiest airport in the region."),
        False,
        "inserted",
    ),
    (
        "What is the busiest single runway airport?",
        Quote("Acme Field is the busiest airport in the region.", context="Single runway fields"),
        True,
        "",
    ),
    # outranked: the quote holds the question's words only below the first place
    (
        "What is the busiest inland harbour?",
        Quote("Acme Bay is the busiest sea harbour; Beta Bay is the second busiest inland harbour."),
        False,
        "outranked",
    ),
    (
        "What is the busiest inland harbour?",
        Quote("Beta Bay, the second busiest sea harbour, is the busiest inland harbour."),
        True,
        "",
    ),
    (
        "Who has the largest fleet in Acmeland?",
        Quote("Acme's fleet is one of the largest in Acmeland."),
        False,
        "outranked",
    ),
    # "one of the hardest problems" is one of what "the hardest problems" asks for
    (
        "The hardest problems in NP are called what?",
        Quote("A complete problem is one of the hardest problems in NP."),
        True,
        "",
    ),
    # "one of the largest food companies" is not "the largest food company"
    (
        "What is the largest frozen food company in Acmeland?",
        Quote("We bought Beta Foods, one of the largest frozen food companies in Acmeland."),
        False,
        "outranked",
    ),
    (
        "Which of the largest frozen food companies in Acmeland did we buy?",
        Quote("We bought Beta Foods, one of the largest frozen food companies in Acmeland."),
        True,
        "",
    ),
    # opposite: the quote says the other relation of the same thing
    (
        "What did the monks build before the war?",
        Quote("Subsequent to the war, the monks built a mill."),
        False,
        "opposite",
    ),
    ("What did the monks build before the war?", Quote("Before the war, the monks built a mill."), True, ""),
    (
        "By how much did Acme's net revenue decrease in 2021?",
        Quote("Acme's net revenue increased 12% in 2021."),
        False,
        "opposite",
    ),
    (
        "By how much did Acme's net revenue increase in 2021?",
        Quote("Acme's net revenue increased 12% in 2021."),
        True,
        "",
    ),
    (
        "Which problem asks whether a number has a factor more than k?",
        Quote("The factoring problem asks whether a number has a factor less than k."),
        False,
        "opposite",
    ),
    # recounted: the quote gives the thing the question counts only another number
    (
        "What is one of the 10 megaregions of Acme?",
        Quote("The 8- and 10-county definitions cover Acme, one of the 11 megaregions."),
        False,
        "recounted",
    ),
    ("What is one of the 11 megaregions?", Quote("Acme is one of the 11 megaregions."), True, ""),
    (
        "How many stores does Acme run under 28 banners?",
        Quote("Acme runs 900 stores under 65 banners in 28 countries."),
        False,
        "recounted",
    ),
    (
        "How many stores does Acme run under 65 banners?",
        Quote("Acme runs 900 stores under 65 banners in 28 countries."),
        True,
        "",
    ),
    (  # six of the seven lines run out of it, not seven
        "Where do seven lines of the Acme railway run out of?",
        Quote("Six of the seven lines of the Acme railway run out of Central Station."),
        False,
        "recounted",
    ),
    (
        "How many of the seven lines of the Acme railway run out of Central Station?",
        Quote("Six of the seven lines of the Acme railway run out of Central Station."),
        True,
        "",
    ),
    (
        "Where do 22 million people live?",
        Quote("Over 22 million people live in Acme, 3 million in its city."),
        True,
        "",
    ),
    # elsewhere: the quote lacks the direction the question gives
    (
        "What desert is to the south of Acme?",
        Quote("Acme has the Mojo Desert to its east."),
        False,
        "elsewhere",
    ),
    ("What desert is to the south of Acme?", Quote("The Mojo Desert lies south of Acme."), True, ""),
    ("What desert is in southern Acme?", Quote("The Mojo Desert is in Southern Acme."), True, ""),
    (  # a row is read by its label, not its words
        "What was Acme's D&A in fiscal 2022?",
        Quote(
            "Depreciation and amortization 198 176",
            context="Acme statements of cash flows",
            row=True,
            label="Depreciation and amortization",
        ),
        True,
        "",
    ),
    # a quote comparing the asked year with another passes (the compared rule, which declined "2017
    # increased 14% compared to 2016" for 2016, went on 2026-12-04: it changed no answer on any set)
    (
        "By how much did Acme's revenue grow in fiscal 2020?",
        Quote("Acme's revenue increased 6 percent in fiscal 2020 compared to fiscal 2019."),
        True,
        "",
    ),
    (
        "What was Acme's revenue in 2016?",
        Quote("Acme's revenue was $5.2 billion in 2017, compared to $4.8 billion in 2016."),
        True,
        "",
    ),
    # renamed: the quote says the question's words of another name
    (
        "Who identified themselves as Frisian during the war?",
        Quote("During the war, the Acme nobles identified themselves as Saxon.", passage="Frisian lands. x"),
        False,
        "renamed",
    ),
    (
        "Who identified themselves as Frisian during the war?",
        Quote("During the war, the Acme nobles identified themselves as Frisian."),
        True,
        "",
    ),
    # a rank the question gives itself is no other place
    ("What is one of the largest ports?", Quote("Acme Bay is one of the largest ports."), True, ""),
    # reversed: the quote holds the question's name on the other side of the same verb
    ("Who did Edgar marry?", Quote("King Malcolm married Edgar's sister Margaret."), False, "reversed"),
    ("Who did Edgar marry?", Quote("Edgar married Margaret of Wessex."), True, ""),
    (
        "Who replaced the Normans as the ruling class?",
        Quote("The Normans replaced the Saxons as the ruling class."),
        False,
        "reversed",
    ),
    (
        "Who replaced the Normans as the ruling class?",
        Quote("The Angevins replaced the Normans as the ruling class."),
        True,
        "",
    ),
    # a form of "be" before the quote's verb makes it passive: the sides swap
    (
        "Who did the Normans encourage to come south?",
        Quote("Norman mercenaries were encouraged to come south by the Lombards."),
        False,
        "reversed",
    ),
    (
        "Who encouraged the Normans to come south?",
        Quote("The Normans were encouraged to come south by the Lombards."),
        True,
        "",
    ),
    # "What NOUN was X ..." has no verb to read: the noun after "What" is no verb
    ("What river was Petrela located by?", Quote("They occupied Petrela at the river Deabolis."), True, ""),
    # a row passes the check by its label's line too: the label's own words are not asked for
    (
        "What were Acme Resorts' total current liabilities as of December 31, 2019?",
        Quote(
            "Total current liabilities 2,112,904",
            context="Acme Resorts balance sheets | December 31, 2019",
            row=True,
            label="Total current liabilities",
        ),
        True,
        "",
    ),
    # support
    (
        "What are the geographies Acme operates in?",
        Quote("Net cash used was $2.4 billion.", context="Acme 10-K", support=0.2),
        False,
        "support",
    ),
]


@pytest.mark.parametrize(("question", "quote", "passes", "rule"), CASES)
def test_each_rule_from_a_table_of_cases(question: str, quote: Quote, passes: bool, rule: str) -> None:
    verdict = check(read_question(question), quote)
    assert (verdict.passed, verdict.rule) == (passes, rule), verdict.detail


@pytest.mark.parametrize(("question", "quote", "passes", "rule"), [c for c in CASES if not c[2]])
def test_each_failure_is_that_rules_alone(question: str, quote: Quote, passes: bool, rule: str) -> None:
    """Turning the failing rule off lets the quote through: no other rule decided it."""
    assert not check(read_question(question), quote, DEFAULT.only(rule)).passed
    assert check(read_question(question), quote, OFF).passed


def test_support_reads_the_question_as_the_answerer_does() -> None:
    asked = read_question("What was Acme's net PP&E at the end of fiscal 2022?")
    row = "Property, plant and equipment, net 818 795"
    # PP&E is held by its spelled-out words, Acme by the document title in the context.
    assert support(asked, row, "Acme Corp annual report", None) > support(asked, row, "", None)
    assert support(asked, row, "Acme Corp annual report", None) >= 0.75
    assert support(asked, row, "", 0.6) == pytest.approx(0.5 * support(asked, row, "", None) + 0.3)


@pytest.mark.parametrize(
    ("question", "label", "title", "unnamed"),
    [
        (  # whose line it is (the question's names) says nothing of which
            "What were Acme Resorts' total current liabilities as of December 31, 2019?",
            "Total Acme Resorts International stockholders' equity",
            "",
            "equiti internat stockhold",
        ),
        ("What were Acme Resorts' total current liabilities in 2019?", "Total current liabilities", "", ""),
        ("What was Acme's net PP&E in 2022?", "Property, plant and equipment, net", "", ""),  # shorthand
        (  # the title's words are no label words either
            "What were Acme Foods' net sales in 2020?",
            "Net earnings attributable to Acme Foods",
            "Acme Foods annual report",
            "attribut earn",
        ),
    ],
)
def test_the_words_of_a_label_a_question_does_not_name(
    question: str, label: str, title: str, unnamed: str
) -> None:
    """What rows beside the answer are left out by (rag.offline.extractive): a label over half unnamed."""
    assert unnamed_label(read_question(question), label, title) == unnamed
