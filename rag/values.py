"""Values read by what they look like, so that a short line can be the answer to a question that
asks for a kind of value (Asked.value): an e-mail, a web address, a phone or fax number, a date or
year, a code (an order, serial, docket or ISBN number), a person's name, a role, an organisation,
a postal address. Nothing here knows the document's type: a cover page, a letterhead, an author
block and a court caption print such values as lines, not sentences.
"""

from __future__ import annotations

import re

from rag.text import STOPWORDS

# A line can be a value's line when it has at most these many words and characters (a name with
# its role, an e-mail line of an author block, a phone line): retrieval (rag.retrieval.values) and
# the offline answer (rag.offline.lines) read the same lines.
LINE_WORDS, LINE_CHARS = 12, 100

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[\w.,\s-]+\}@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(
    r"https?://\S+|\bwww\.[\w-]+(?:\.[\w-]+)+\S*"
    r"|(?<![@\w.])[a-z][\w-]*(?:\.[\w-]+)*\.(?:com|org|edu|gov|net|int|io|eu|info)(?:/\S*)?\b"
)
# Seven or more digits in groups: 202.419.4372, (202) 512-1800, +65 6790 5200, 1-800-222-1222.
PHONE = re.compile(
    r"(?<![\w.-])(?:\+\d{1,3}[\s.-]?|1[\s.-])?(?:\(\d{2,4}\)\s?)?\d{2,4}(?:[\s.\u2013-]\d{2,4}){1,3}(?![\w-])"
)
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
DATE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d\b|\b\d{{1,2}}\s+{_MONTH}\s+(?:19|20)\d\d\b"
    rf"|\b(?:19|20)\d\d-\d\d-\d\d\b|\b\d{{1,2}}/\d{{1,2}}/(?:19|20)?\d\d\b|\b{_MONTH},?\s+(?:19|20)\d\d\b",
    re.IGNORECASE,
)
YEAR = re.compile(r"\b(?:1[5-9]|20)\d\d\b")
# A code: a token of digits with a hyphen, colon or slash, or digits and letters mixed:
# "272318-002", "108-36", "1:17-cv-04660-LMM", "978-1-947172-55-5", "11A-06-001(ESB)".
CODE = re.compile(
    r"(?<![\w.-])(?=[\w:()\u2013-]*\d)(?=[\w:()\u2013-]*[-:\u2013])[\w(][\w:()\u2013-]{3,}[\w)](?![\w-])"
)
CODE_DIGITS = 4  # a code has at least this many digits ("RB-1" names a zone, "108-36" a hearing)
# Words that say a capitalised run names an organisation.
ORGANISATION_WORDS = frozenset(
    """university universities institute institution college school court department inc inc. ltd
    ltd. llc llp plc corporation corp corp. company co. association commission committee center
    centre laboratory laboratories lab labs research foundation agency office bank group hospital
    ministry council society academy press conference board bureau authority federation union
    organization organisation government congress senate house""".split()
)
# Words that say a line names someone's role.
ROLE_WORDS = frozenset(
    """director president vice manager associate officer chair chairman chairwoman chairperson judge
    justice professor researcher editor counsel attorney secretary clerk coordinator assistant chief
    head dean lecturer fellow member representative senator commissioner analyst engineer scientist
    specialist advisor adviser consultant treasurer founder ceo cfo coo cto partner staff
    spokesperson author authors witness plaintiff plaintiffs defendant defendants appellant appellee""".split()
)
# Street words and postal codes: "42 Nanyang Avenue", "Level 5", "#03-01", "Singapore 117592", "DC 20402".
ADDRESS = re.compile(
    r"\b\d+[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){0,3}(?:avenue|ave|street|st|road|rd|boulevard|blvd|drive|dr|lane|ln"
    r"|way|link|place|pl|square|sq|court|ct|crescent|highway|hwy|parkway)\b"
    r"|#\d{1,3}-\d{1,4}|\b(?:level|floor|suite|room|box)\s+\d+"
    r"|\b[A-Z][A-Za-z]+\s+\d{5,6}\b|\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b",
    re.IGNORECASE,
)
# A person's name: two to four capitalised words, initials between ("Janet A. Wright"), or the same
# in capitals ("MARTIN COWEN").
NAME = re.compile(
    r"\b[A-Z][a-z'\u2019-]+(?:\s+[A-Z]\.)*(?:\s+[A-Z][a-z'\u2019-]+){1,2}\b"
    r"|\b[A-Z]{2,}(?:\s+[A-Z]\.)*(?:\s+[A-Z]{2,}){1,2}\b"
)


def _phones(line: str) -> list[str]:
    """Seven digits or more, with a dash, dot, bracket or country code among them: "2006 2007 2008"
    is a row of years, no number to call."""
    return [p for p in PHONE.findall(line) if sum(c.isdigit() for c in p) >= 7 and _DIALLED.search(p)]


_DIALLED = re.compile(r"[-.()+\u2013]")


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][\w.&'-]*", text)


def _organisation(line: str) -> list[str]:
    words = _words(line)
    hits = [w for w in words if w.lower().rstrip(",") in ORGANISATION_WORDS and w[:1].isupper()]
    return [line.strip()] if hits else []


def _role(line: str) -> list[str]:
    hits = [w for w in _words(line) if w.lower().rstrip(",.") in ROLE_WORDS and w[:1].isupper()]
    return [line.strip()] if hits else []


def _name(line: str) -> list[str]:
    found = []
    for match in NAME.finditer(line):
        # An initial ("A.") is no stopword.
        words = {w.lower().strip(".,") for w in match.group().split() if len(w.strip(".,")) > 1}
        if not words & (ORGANISATION_WORDS | ROLE_WORDS | STOPWORDS):
            found.append(match.group())
    return found


_READERS = {
    "email": lambda line: EMAIL.findall(line),
    "url": lambda line: [u for u in URL.findall(line) if "@" not in u],
    "phone": lambda line: _phones(line),
    "fax": lambda line: _phones(line),
    "date": lambda line: DATE.findall(line) or YEAR.findall(line),
    "year": lambda line: YEAR.findall(line),
    "code": lambda line: [c for c in CODE.findall(line) if sum(ch.isdigit() for ch in c) >= CODE_DIGITS],
    "organisation": _organisation,
    "role": _role,
    "name": _name,
    "address": lambda line: ADDRESS.findall(line),
}
KINDS = tuple(_READERS)


def values_in(kind: str, line: str) -> list[str]:
    """The values of this kind a line holds, as printed (empty for an unknown kind)."""
    reader = _READERS.get(kind)
    return list(reader(line)) if reader else []
