"""rag.answering.models.list_models against the loopback OpenAI-compatible server: listed, refused, empty, gone."""

from __future__ import annotations

from rag.answering.models import list_models
from tests.openai_server import Error, ScriptedOpenAIServer
from tests.ports import refused_port


def test_lists_the_endpoint_models_sorted_and_sends_the_key() -> None:
    with ScriptedOpenAIServer() as server:
        server.models = ["qwen2.5:7b", "llama3:8b", "qwen2.5:7b"]
        listing = list_models(server.base_url, "sk-test", timeout_s=30)
    assert listing.models == ("llama3:8b", "qwen2.5:7b") and listing.problem == ""
    assert server.requests[-1]["path"] == "/v1/models"
    assert server.requests[-1]["headers"]["authorization"] == "Bearer sk-test"


def test_an_error_or_an_empty_list_says_why() -> None:
    with ScriptedOpenAIServer() as server:
        server.models = Error(404, "no such route")
        missing = list_models(server.base_url + "/", None, timeout_s=30)
        server.models = []
        empty = list_models(server.base_url, None, timeout_s=30)
    assert missing.models == () and "404" in missing.problem
    assert empty.models == () and empty.problem == "it listed no models"


def test_an_endpoint_nobody_serves_is_not_an_exception() -> None:
    with refused_port() as port:
        listing = list_models(f"http://127.0.0.1:{port}/v1", None, timeout_s=30)
    assert listing.models == () and "could not be reached" in listing.problem
