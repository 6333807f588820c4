"""A scripted OpenAI-compatible chat server on 127.0.0.1: real HTTP and server-sent events.

Queue replies, point ChatOpenAI at `server.base_url`, and each POST to /v1/chat/completions
takes the next reply (or `server.fallback` when none is queued, an error unless one is set): a token stream (a number among the deltas pauses that many seconds,
which is how a stall is scripted; `drop=` cuts the connection after the deltas), an endless
stream, an HTTP error with an OpenAI-style JSON body (and headers such as Retry-After), or a raw
body (`raw(...)`, `sse(...)`) for replies in the wrong shape. `client_left` is set when a client
closes a stream that was still being sent.

GET /v1/models lists `server.models` (or answers the Error put there).
POST /v1/embeddings answers with deterministic vectors (HashEmbeddings, 384 dimensions, as
floats or base64 as the client asks) unless an error was queued with push_embedding_error().
"""

from __future__ import annotations

import base64
import json
import socket
import struct
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Stream:
    """A 200 reply streamed as SSE chunks, one per delta (numbers are pauses in seconds)."""

    deltas: tuple[Any, ...]
    drop: str = ""  # "close" or "reset": end the connection after the deltas, before [DONE]


@dataclass(frozen=True)
class Endless:
    """A 200 reply that streams the same delta forever, pausing between them, until the client leaves."""

    delta: str = "more "
    pause_s: float = 0.005


@dataclass(frozen=True)
class Raw:
    """A reply with exactly this status, content type and body."""

    body: bytes
    content_type: str = "application/json"
    status: int = 200


@dataclass(frozen=True)
class Error:
    """An HTTP error reply."""

    status: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)


def stream(*deltas: Any, drop: str = "") -> Stream:
    """A Stream of these deltas; drop="close" or "reset" cuts the connection after them."""
    return Stream(tuple(deltas), drop)


def sse(*events: Any) -> Raw:
    """A 200 event stream of these JSON values, then [DONE]: chunks in whatever shape is given."""
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return Raw(body + b"data: [DONE]\n\n", "text/event-stream")


Reply = Stream | Endless | Raw | Error


class ScriptedOpenAIServer:
    """Start with `with ScriptedOpenAIServer() as server:`; queue with push(); read requests."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.embedding_errors: deque[Error] = deque()
        self.requests: list[dict[str, Any]] = []
        self.models: list[str] | Error = []  # what GET /v1/models lists (or the error it answers)
        self.fallback: Reply = Error(500, "no scripted reply left")  # when no reply is queued
        self.closing = threading.Event()
        self.client_left = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def push(self, *replies: Reply) -> None:
        """Queue replies for the next requests, in order."""
        self.replies.extend(replies)

    def push_embedding_error(self, *errors: Error) -> None:
        """The next embeddings requests fail with these errors, in order."""
        self.embedding_errors.extend(errors)

    def __enter__(self) -> ScriptedOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n".encode()


def _handler_for(server: ScriptedOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            server.requests.append({"path": self.path, "headers": headers, "body": None})
            if self.path.rstrip("/") != "/v1/models":
                return self._error(Error(404, f"no route {self.path}"))
            if isinstance(server.models, Error):
                return self._error(server.models)
            rows = [{"id": m, "object": "model", "created": 0, "owned_by": "scripted"} for m in server.models]
            self._send(200, "application/json", json.dumps({"object": "list", "data": rows}).encode())

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            headers = {k.lower(): v for k, v in self.headers.items()}
            server.requests.append({"path": self.path, "headers": headers, "body": body})
            if self.path.rstrip("/") == "/v1/embeddings":
                return self._embeddings(body)
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self._error(Error(404, f"no route {self.path}"))
            reply = server.replies.popleft() if server.replies else server.fallback
            if isinstance(reply, Error):
                return self._error(reply)
            if isinstance(reply, Raw):
                return self._send(reply.status, reply.content_type, reply.body)
            try:
                if isinstance(reply, Endless):
                    self._endless(reply, body.get("model", "scripted"))
                else:
                    self._stream(reply, body.get("model", "scripted"))
            except (BrokenPipeError, ConnectionResetError):
                server.client_left.set()  # the client gave up (a stall test, a Stop)

        def _embeddings(self, body: dict[str, Any]) -> None:
            from ingest.embeddings import HashEmbeddings

            if server.embedding_errors:
                return self._error(server.embedding_errors.popleft())
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            vectors = HashEmbeddings().embed_documents([str(t) for t in texts])
            if body.get("encoding_format") == "base64":
                vectors = [base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode() for v in vectors]
            data = json.dumps(
                {
                    "object": "list",
                    "model": body.get("model", "scripted"),
                    "data": [
                        {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)
                    ],
                    "usage": {"prompt_tokens": 0, "total_tokens": 0},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, error: Error) -> None:
            data = json.dumps({"error": {"message": error.message, "type": "scripted", "code": error.status}})
            self._send(error.status, "application/json", data.encode(), error.headers)

        def _send(self, status: int, content_type: str, data: bytes, headers: dict | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _start_stream(self, model: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(_chunk(model, {"role": "assistant", "content": ""}))

        def _endless(self, reply: Endless, model: str) -> None:
            self._start_stream(model)
            while not server.closing.wait(reply.pause_s):
                self.wfile.write(_chunk(model, {"content": reply.delta}))
                self.wfile.flush()

        def _stream(self, reply: Stream, model: str) -> None:
            self._start_stream(model)
            for delta in reply.deltas:
                if isinstance(delta, (int, float)):
                    self.wfile.flush()
                    if server.closing.wait(delta):
                        return
                    continue
                self.wfile.write(_chunk(model, {"content": delta}))
                self.wfile.flush()
            if reply.drop == "reset":  # closing with a zero linger sends RST instead of FIN
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            if reply.drop:
                return  # HTTP/1.0: the connection closes here, before any finish_reason or [DONE]
            self.wfile.write(_chunk(model, {}, "stop"))
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler
