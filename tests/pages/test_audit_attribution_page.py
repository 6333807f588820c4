"""The audit page names who made each citation (the model or Footnote's matching), shows flags,
and gives matched, unsourced and flagged sentences their own columns (AppTest, real library)."""

from __future__ import annotations

from pathlib import Path

from components.shared.resources import CONVERSATIONS_FILE
from rag.answering.answer import build_answer
from rag.stores.conversations import ConversationStore
from tests.pages.test_audit_page import _run, data_dir  # noqa: F401  (the fixture)
from tests.rag.test_audit_fixtures import seed_app_data


def _seed(folder: Path) -> str:
    """Beside the fixture's two chats, one answer whose model cites the water chunk for an ice
    sentence (flagged) and leaves a sentence copied from the ice chunk uncited (matched)."""
    turns = seed_app_data(folder, CONVERSATIONS_FILE)
    boil, ice = turns[0].answer.evidence
    copied = "Salt lowers the freezing point of water, which is why roads are salted in winter."
    assert copied in " ".join(ice.text.split())
    text = f"Frozen lakes thaw when the ice melts in spring [{boil.short_id}]. {copied}"
    answer = build_answer("Why are roads salted?", text, (boil, ice), provider="test")
    assert [f.kind for f in answer.footnotes] == ["cited", "matched"] and len(answer.flags) == 1
    store = ConversationStore(folder / CONVERSATIONS_FILE)
    conv = store.create()
    store.add_turn(conv, answer)
    return conv


def test_review_says_who_made_each_citation_and_metrics_have_their_columns(data_dir: Path) -> None:  # noqa: F811
    conv = _seed(data_dir)
    at = _run()
    assert not at.exception, at.exception
    at.selectbox(key="audit_conv").set_value(conv).run()
    captions = " ".join(c.value for c in at.caption)
    assert "**Citation 1 of 2**" in [m.value for m in at.markdown]
    assert ":orange[Cited by the model, flagged]" in captions
    at.button(key="audit_next").click().run()
    captions = " ".join(c.value for c in at.caption)
    assert ":green[Matched by Footnote]" in captions
    per_answer = at.dataframe[1].value
    row = per_answer[per_answer["question"] == "Why are roads salted?"].iloc[0]
    assert (row["matched by Footnote"], row["unsourced"], row["flagged"], row["coverage"]) == (1, 0, 1, 0.5)
