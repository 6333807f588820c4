"""The one citation grammar: what a short-id marker in answer text is (the styles below) and its terms.

The parser that applies it, streaming (CitationStream) and one shot (citation_spans,
extract_citations), is rag/citations/parser.py; nothing else defines a marker.

A marker names one or more short ids (7 or 8 ASCII letters or digits). What models write when
they half-follow the prompt, and what each style becomes (tests/rag/test_citations.py holds the
cases, tests/rag/test_marker_styles.py replays each through a real streamed reply):

| style | example | becomes |
| --- | --- | --- |
| the prompt's own | `[abc1234]`, `[abc1234, def5678]`, `【abc1234】` | marker |
| label inside | `[Source ID: abc1234]`, `[Source abc1234]`, `[ID: abc1234]` | marker |
| markdown footnote | `[^abc1234]` | marker |
| link to nowhere | `[abc1234](#)`, `[abc1234](#src)`, `[abc1234]()` | marker (to the `)`) |
| parentheses | `(abc1234)`, `(Source: abc1234, def5678)` | marker only when every id is known |
| bare label | `Source abc1234`, `Source ID: abc1234` (one id) | marker only when the id is known |
| another case | `[ABC1234]`, `(ABC1234)` | as above; resolve() matches case-blind |
| a number | `[2]` meaning the second source block | text; its sentence goes to matching |
| a list at the end | `Sources: [abc1234], [def5678]` | markers citing no sentence (see source_list_start); the sentences go to matching |

"Marker" means: a footnote when its id is in the answer's evidence table (case-blind), otherwise
unresolved, shown as such and counted, never a footnote. The bracket styles are unmistakably
citations, so an unknown id in them is a dangling citation worth showing; parentheses and bare
words also hold ordinary text (`(million)`, `Source material`), so they count only when they
name ids of this answer (`known`), and are plain text otherwise. A number names no id: taking
`[2]` for the second source would be a guess, so it stays text and the sentence it ends is
compared with the evidence like any uncited one (rag.answering.attribution: "matched by Footnote").

Not markers: markdown links to anything but `#...` (`[text](url)`, `[abc1234](https://x)`; an
ASCII bracket is confirmed only once the next character is known not to be `(`), backslash-escaped
brackets, anything inside a backtick code span, and brackets holding anything else (`[1]`,
`[TODO]`, `[abc-1234]`, `[abcdefghi]`). Words that fit the grammar (`[Appendix]`) are markers;
resolve() leaves them unresolved, so they never become footnotes.

Code spans are simplified from CommonMark so that a stream can decide without looking ahead:
a run of n backticks opens code until the next run of exactly n backticks.
"""

from __future__ import annotations

import re

CLOSE_FOR = {"[": "]", "\u3010": "\u3011", "(": ")"}
SEPARATORS = ",;"
LABELS = frozenset({"source", "sources", "id", "ids"})
BARE_LABELS = frozenset({"source", "sources"})
MAX_LABELS = 2
MIN_ID, MAX_ID = 7, 8
MAX_IDS = 32
MAX_MARKER = 400
MAX_FRAGMENT = 64  # characters of a `(#...)` link destination after a marker
SPECIAL = re.compile(r"[\[\u3010`\\]")
SPECIAL_LOOSE = re.compile(r"[\[\u3010`\\(]|(?<!\w)[sS]")  # with known ids: parentheses, bare words

# A marker found: (start, end, id token ranges, its characters, kind: "strict", "paren" or "bare").
Found = tuple[int, int, list[tuple[int, int]], str, str]


def is_id_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"
