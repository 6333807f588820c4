"""LangChain's own standard tests (langchain-tests) for the chat model Footnote builds for
FOOTNOTE_LLM_PROVIDER=openai (a streaming ChatOpenAI), over real HTTP and SSE to the loopback
server, which answers every request with the same short streamed reply.

What the scripted server cannot do is switched off, in the way the standard class provides (its
feature properties): tool calling and structured output (the server never emits tool calls,
and Footnote uses neither), image/audio/PDF inputs, and usage metadata (our ChatOpenAI does not
ask an OpenAI-compatible endpoint for stream usage). The rest runs unchanged: invoke, stream,
stream events, batch, async, conversations, names, stop sequences, and a per-call model name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_tests.integration_tests import ChatModelIntegrationTests

from settings import load_settings
from tests.openai_server import ScriptedOpenAIServer, stream
from wiring import make_chat_model


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as server:
        server.fallback = stream("Hello ", "from the ", "scripted server.")
        yield server


# test_stream_time (timing over recorded traffic) asks for pytest-benchmark's and pytest-recording's
# fixtures, then skips before using them: enable_vcr_tests is False, there are no cassettes here.
# These stand in for them, so both plugins can stay off for the whole suite (pyproject addopts).
@pytest.fixture
def benchmark() -> None:
    """Never used: see above."""


@pytest.fixture
def vcr() -> None:
    """Never used: see above."""


def chat_model_at(base_url: str) -> Callable[..., BaseChatModel]:
    """Builds the chat model the app builds for this endpoint; keywords (stop, output_version) are
    set on it the way ChatOpenAI(**keywords) would."""

    def build(**keywords: Any) -> BaseChatModel:
        settings = load_settings(
            llm_provider="openai", llm_base_url=base_url, llm_api_key="sk-test", llm_model="scripted-model"
        )
        model, _ = make_chat_model(settings)
        return model.model_copy(update=keywords) if keywords else model

    return build


class TestOpenAIChatModelStandard(ChatModelIntegrationTests):
    """ChatModelIntegrationTests against rag.answering.models.openai_chat_model on the loopback server."""

    @pytest.fixture(autouse=True)
    def _endpoint(self, endpoint: ScriptedOpenAIServer) -> None:
        self.base_url = endpoint.base_url

    @property
    def chat_model_class(self) -> Any:
        return chat_model_at(self.base_url)

    @property
    def standard_chat_model_params(self) -> dict[str, Any]:
        return {}  # the app's own temperature, token limit, timeout and retries

    @property
    def model_override_value(self) -> str:
        return "another-scripted-model"

    @property
    def has_tool_calling(self) -> bool:
        return False

    @property
    def has_tool_choice(self) -> bool:
        return False

    @property
    def has_structured_output(self) -> bool:
        return False

    @property
    def returns_usage_metadata(self) -> bool:
        return False
