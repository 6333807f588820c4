"""Short ids: 7 hex characters of the chunk id, made distinct by a deterministic rule on collision."""

from __future__ import annotations

import hashlib

from ingest.types import Chunk, Document, PageLocator
from rag.citations.evidence import assign_short_ids, build_evidence
from rag.citations.parser import extract_citations
from rag.types import Evidence


def _cid(prefix: str, salt: str) -> str:
    return (prefix + hashlib.sha256(salt.encode()).hexdigest())[:64]


def test_plain_ids_take_their_first_seven_characters() -> None:
    a, b = _cid("", "a"), _cid("", "b")
    assert assign_short_ids([a, b]) == {a: a[:7], b: b[:7]}


def test_a_forced_collision_gets_distinct_ids_whatever_the_order() -> None:
    first, second, third = _cid("abcdef1", "x"), _cid("abcdef1", "y"), _cid("abcdef12", "z")
    forward = assign_short_ids([first, second, third])
    backward = assign_short_ids([third, second, first])
    assert forward == backward
    assert len(set(forward.values())) == 3
    for chunk_id, short in forward.items():
        assert short in chunk_id and 7 <= len(short) <= 8
        # Every short id must still be a valid citation marker.
        assert extract_citations(f"[{short}]") == [short]
    ordered = sorted([first, second, third])
    assert forward[ordered[0]] == ordered[0][:7]


def test_collision_of_eight_characters_shifts_the_window() -> None:
    one, two = "abcdef12" + "0" * 56, "abcdef12" + "1" * 56
    ids = assign_short_ids([one, two])
    assert ids[one] == "abcdef1"
    assert ids[two] == "abcdef12"
    three = "abcdef12" + "2" * 56
    ids = assign_short_ids([one, two, three])
    assert ids[three] == three[1:8]
    assert len(set(ids.values())) == 3


def test_build_evidence_keeps_order_scores_and_locators() -> None:
    doc = Document("d" * 64, "Title", "t.pdf", pages=3, size_bytes=10)
    locs = (PageLocator(1, "ii", 900, 1000), PageLocator(2, "iii", 0, 50))
    c1 = Chunk(_cid("abcdef1", "1"), doc.doc_id, 0, "one", locs)
    c2 = Chunk(_cid("abcdef1", "2"), doc.doc_id, 1, "two", locs[:1])
    evidence = build_evidence([(c2, doc, 0.9), (c1, doc, 0.5)])
    assert [e.text for e in evidence] == ["two", "one"]
    assert evidence[0].score == 0.9
    assert {e.short_id for e in evidence} == set(assign_short_ids([c1.chunk_id, c2.chunk_id]).values())
    assert (evidence[1].page_index, evidence[1].page_end_index) == (1, 2)
    assert (evidence[1].char_start, evidence[1].char_end) == (900, 50)
    assert evidence[1].page_end_label == "iii"


def test_evidence_knows_the_section_its_chunk_starts_in_and_keeps_it_in_a_saved_answer() -> None:
    doc = Document("d" * 64, "Title", "t.pdf", pages=3, size_bytes=10)
    loc = (PageLocator(1, "2", 0, 50),)
    paths = ("PART I > Item 3. Legal Proceedings", "PART II > Item 5. Market")
    with_paths = Chunk(_cid("abcdef1", "1"), doc.doc_id, 0, "one", loc, sections=paths)
    without = Chunk(_cid("abcdef2", "2"), doc.doc_id, 1, "two", loc)
    first, second = build_evidence([(with_paths, doc, 0.9), (without, doc, 0.5)])
    assert (first.sections, second.sections) == (paths, ())
    assert Evidence.from_dict(first.to_dict()) == first
    saved_before = {k: v for k, v in first.to_dict().items() if k != "sections"}  # an answer saved earlier
    assert Evidence.from_dict(saved_before).sections == ()
