"""The offline answerer: a LangChain chat model that quotes the evidence sentences most relevant to
the question, each cited by its source id, and says so plainly when nothing relevant is found.
Relevance is word overlap, blended with the embeddings' similarity when the model is given them."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from rag.lexical import SOFT_HYPHEN, STOPWORDS, stem, tokenize
from rag.prompts import CONTEXT_PREFIX, NOT_IN_DOCUMENTS, QUESTION_HEADER, SOURCES_END

LABEL = "offline extractive mode"
_HEADER = re.compile(r"^Source ID \[([A-Za-z0-9]{7,8})\]:.*$", re.MULTILINE)
_WORD = re.compile(r"[\w']+")
# Words that flip or narrow a question's meaning: SQuAD 2.0's unanswerable questions are mostly
# answerable ones with such a word added, a number changed or a name swapped.
POLARITY = frozenset(
    "not never no cannot none nothing neither nor without least only always fewest fewer less "
    "smallest lowest worst".split()
)
NEIGHBOUR_WEIGHT = 0.3
# A question word whose opposite stands in the sentence instead (a common SQuAD 2.0 trap).
_PAIRS = """most least more less largest smallest biggest smallest highest lowest first last before
after north south east west northern southern eastern western increase decrease high low early late
earliest latest major minor best worst larger smaller older younger oldest youngest maximum minimum
upper lower inside outside win lose won lost rise fall rose fell""".split()
NUMBER_WORDS = frozenset("two three four five six seven eight nine ten eleven twelve twenty hundred thousand "
                         "million billion second third fourth fifth".split())
OPPOSITE = {**dict(zip(_PAIRS[::2], _PAIRS[1::2])), **dict(zip(_PAIRS[1::2], _PAIRS[::2]))}
HEADING_WORDS, HEADING_CHARS = 8, 60
SEMANTIC_WEIGHT = 0.5
NUMBER_BONUS = 0.25
LEXICAL_FLOOR = 0.5
# Questions whose answer is an amount, a count or a duration: sentences with a number
# get number_bonus, since neither word overlap nor MiniLM similarity prefers them by themselves.
_QUANTITY = re.compile(r"\b(how (much|many|long|old|far|often|large|big)|pay|pays|paid|cost|costs|price|"
                       r"percent|percentage)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


@dataclass(frozen=True)
class Source:
    """One `Source ID [...]` block read back from the prompt."""

    short_id: str
    text: str
    context: str = ""  # the CONTEXT_PREFIX line: section/table title and column headers


@dataclass(frozen=True)
class Scored:
    """A candidate sentence: its blended score (higher is better), word overlap and similarity (0..1)."""

    score: float
    source: str
    sentence: str
    lexical: float = 0.0
    semantic: float = 0.0


def parse_task(messages: Sequence[BaseMessage]) -> tuple[list[Source], str]:
    """The sources and the question from the last message laid out by rag.prompts."""
    text = str(messages[-1].content) if messages else ""
    body, _, tail = text.rpartition(SOURCES_END)
    if not _:
        body, tail = "", text
    headers = list(_HEADER.finditer(body))
    ends = [m.start() for m in headers[1:]] + [len(body)]
    sources = [_source(m.group(1), body[m.end() : end].strip()) for m, end in zip(headers, ends)]
    _before, found, question = tail.rpartition(QUESTION_HEADER)
    return sources, (question if found else tail).strip()


def _source(short_id: str, block: str) -> Source:
    first, _, rest = block.partition("\n")
    if first.startswith(CONTEXT_PREFIX):
        return Source(short_id, rest.strip(), first.removeprefix(CONTEXT_PREFIX).strip())
    return Source(short_id, block)


def heading_lines(lines: Sequence[str]) -> list[bool]:
    """Which lines are headings: short, not ending in punctuation or a stopword, after a finished
    sentence, another heading or nothing, and before a capitalised line ("Working pattern" above
    "The standard hybrid pattern is ...")."""
    flags = [False] * len(lines)
    before = ""  # the last non-empty line, or "." after a heading
    for i, line in enumerate(lines):
        if not line:
            continue
        after = next((x for x in lines[i + 1 :] if x), "")
        words = line.split()
        flags[i] = (len(line) <= HEADING_CHARS and len(words) <= HEADING_WORDS and line[-1] not in ".,;:!?-"
                    and words[-1].lower() not in STOPWORDS and after[:1].isupper()
                    and (not before or before[-1] in ".!?:"))
        before = "." if flags[i] else line
    return flags


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage, whitespace (including PDF line breaks) collapsed, headings left out."""
    lines = [" ".join(x.split()) for x in text.replace(SOFT_HYPHEN, "").splitlines()]
    blocks: list[list[str]] = []
    current: list[str] = []
    for line, heading in zip(lines, heading_lines(lines)):
        if heading:
            blocks.append(current)
            current = []
        else:
            current.append(line)
    blocks.append(current)
    flats = (" ".join(" ".join(block).split()) for block in blocks)
    return [s.strip() for flat in flats for s in _SENTENCE_END.split(flat) if s.strip()]


def lexical_scores(question: str, sentences: Sequence[tuple[str, int, str]]) -> list[float]:
    """Each sentence's IDF-weighted share of the question's words it contains (words found only
    in the sentence before count NEIGHBOUR_WEIGHT: "It was built in 1987")."""
    terms = set(tokenize(question))
    if not terms:
        return [0.0] * len(sentences)
    bags = [terms & set(tokenize(s)) for _sid, _i, s in sentences]
    df = Counter(t for bag in bags for t in bag)
    n = len(bags)
    idf = {t: math.log(1.0 + (n + 1) / (df[t] + 0.5)) for t in terms}
    total = sum(idf.values())
    out = []
    for j, ((_sid, i, _s), bag) in enumerate(zip(sentences, bags)):
        before = bags[j - 1] - bag if i > 0 else set()
        out.append((sum(idf[t] for t in bag) + NEIGHBOUR_WEIGHT * sum(idf[t] for t in before)) / total)
    return out


def semantic_scores(question: str, sentences: Sequence[str], embeddings: Any) -> list[float]:
    """Cosine similarity (clamped to 0..1) of the question with each sentence, in one batch."""
    if embeddings is None or not sentences:
        return [0.0] * len(sentences)
    query = np.asarray(embeddings.embed_query(question), dtype=np.float64)
    matrix = np.asarray(embeddings.embed_documents(list(sentences)), dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
    sims = matrix @ query / np.where(norms > 0, norms, 1.0)
    return np.clip(sims, 0.0, 1.0).tolist()


def _has_number(sentence: str) -> bool:
    return any(ch.isdigit() for ch in sentence) or bool(_words(sentence) & NUMBER_WORDS)


def score_sentences(question: str, sources: Sequence[Source], embeddings: Any = None,
                    semantic_weight: float = 0.0, floor: float = 0.0,
                    number_bonus: float = 0.0) -> list[Scored]:
    """Every sentence, best first, by its lexical score blended with its semantic similarity to
    the question (semantic_weight of it). Only sentences with a lexical score of at least floor
    are embedded (the others could not be quoted anyway); lexical alone without embeddings."""
    sentences = [(src.short_id, i, s) for src in sources for i, s in enumerate(split_sentences(src.text))]
    if not sentences or not tokenize(question):
        return []
    lexical = lexical_scores(question, sentences)
    weight = semantic_weight if embeddings is not None else 0.0
    picked = [j for j, lex in enumerate(lexical) if lex >= floor and lex > 0] if weight else []
    semantic = [0.0] * len(sentences)
    for j, sim in zip(picked, semantic_scores(question, [sentences[j][2] for j in picked], embeddings)):
        semantic[j] = sim
    bonus = number_bonus if _QUANTITY.search(question) else 0.0
    out = [Scored((1 - weight) * lex + weight * sem + bonus * _has_number(sentence), sid, sentence, lex, sem)
           for (sid, _i, sentence), lex, sem in zip(sentences, lexical, semantic)]
    return sorted(out, key=lambda s: -s.score)


def _words(text: str) -> set[str]:
    return {w.lower().removesuffix("'s") for w in _WORD.findall(text.replace(SOFT_HYPHEN, ""))}


def conflicts(question: str, sentence: str, passage: str) -> list[str]:
    """Question words the chosen sentence cannot stand for: a negation or limiting word missing
    from the sentence, a word whose opposite the sentence says instead, or a number or name
    missing from the whole passage."""
    in_sentence, in_passage = _words(sentence), _words(passage)
    stems = {stem(w) for w in in_passage}
    out = []
    for i, word in enumerate(_WORD.findall(question.replace(SOFT_HYPHEN, ""))):
        low = word.lower().removesuffix("'s")
        if low in OPPOSITE and OPPOSITE[low] in in_sentence:
            missing = low not in in_sentence
        elif low in POLARITY or low.endswith("n't"):
            missing = low not in in_sentence
        elif any(ch.isdigit() for ch in low):
            missing = low not in in_passage
        elif low in NUMBER_WORDS:
            missing = low not in in_sentence and bool(in_sentence & NUMBER_WORDS)
        elif i > 0 and word[0].isupper():
            missing = low not in in_passage and stem(low) not in stems
        else:
            continue
        if missing:
            out.append(word)
    return out


def compose_answer(question: str, sources: Sequence[Source], min_score: float, max_sentences: int, *,
                   embeddings: Any = None, semantic_weight: float = 0.0, number_bonus: float = 0.0,
                   lexical_floor: float = LEXICAL_FLOOR) -> str:
    """The cited sentences, best first, or the plain statement that the documents do not answer.
    It answers only when some sentence holds min_score of the question's words; the best sentence
    by the blended score is quoted if it holds lexical_floor of min_score, further ones only if
    they hold min_score themselves and come close to the best."""
    floor = lexical_floor * min_score
    ranked = [s for s in score_sentences(question, sources, embeddings, semantic_weight, floor, number_bonus)
              if s.lexical >= floor]
    if not ranked or max(s.lexical for s in ranked) < min_score:
        return NOT_IN_DOCUMENTS
    passages = {src.short_id: src.text for src in sources}
    if conflicts(question, ranked[0].sentence, passages[ranked[0].source]):
        return NOT_IN_DOCUMENTS
    best = ranked[0].score
    chosen = ranked[:1] + [s for s in ranked[1:max_sentences]
                           if s.score >= 0.75 * best and s.lexical >= min_score]
    lines = []
    for item in chosen:
        sentence = item.sentence.replace("[", "(").replace("]", ")")
        lines.append(f"{sentence} [{item.source}]")
    return " ".join(lines)


class ExtractiveChatModel(BaseChatModel):
    """Answers from the prompt's sources alone, deterministic, with no network; model weights
    only through the optional embeddings (the library's own, passed in by make_chat_model)."""

    min_score: float = 0.4
    """Least IDF-weighted share of the question's words a sentence must contain to be quoted."""
    max_sentences: int = 2
    embeddings: Any = None
    """Embeddings for semantic similarity between question and sentences; None: lexical only."""
    semantic_weight: float = SEMANTIC_WEIGHT
    """Share of a sentence's score that is its semantic similarity (when there are embeddings)."""
    number_bonus: float = NUMBER_BONUS
    """Added to sentences holding a number when the question asks for an amount or a count."""
    lexical_floor: float = LEXICAL_FLOOR
    """Share of min_score the quoted best sentence must hold when another one reaches min_score."""

    @property
    def _llm_type(self) -> str:
        return "footnote-extractive"

    def answer_text(self, messages: Sequence[BaseMessage]) -> str:
        """The full answer for these messages."""
        sources, question = parse_task(messages)
        return compose_answer(question, sources, self.min_score, self.max_sentences,
                              embeddings=self.embeddings, semantic_weight=self.semantic_weight,
                              number_bonus=self.number_bonus, lexical_floor=self.lexical_floor)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.answer_text(messages)))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for token in re.split(r"(?<=\s)", self.answer_text(messages)):
            if not token:
                continue
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=token))
            if run_manager is not None:
                run_manager.on_llm_new_token(token, chunk=chunk)
            yield chunk
