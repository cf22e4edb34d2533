"""Reading what a request sends: bodies as JSON within a size limit, refused at the door
with 400 `request/malformed` or 413 `request/too_large`, and their documentation."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from pydantic import BaseModel

from timelord.server.errors import malformed, too_large

#: largest request body (create or action) and WebSocket message, in bytes
MAX_BODY = 16 * 1024
#: the largest `since` either route takes (a version never comes near it)
MAX_SINCE = 2**31 - 1

#: the body of a request that takes none: nothing, or an empty object
NO_BODY = {
    "requestBody": {
        "required": False,
        "content": {
            "application/json": {
                "schema": {"type": "object", "properties": {}, "additionalProperties": False}
            }
        },
    }
}


def body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """A route's request body for /openapi.json (the route reads the body itself)."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


async def read_json(request: Request) -> Any:
    """The request body as JSON: 413 past MAX_BODY (read no further), 400 if not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise too_large(MAX_BODY)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large(MAX_BODY)
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


async def no_body(request: Request) -> None:
    """400 `request/malformed` unless the request has no body or an empty object."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise too_large(MAX_BODY)
    raw = await request.body()
    if raw.strip() and parse_json(raw) != {}:
        raise malformed("this request takes no body (or {})")


def parse_json(raw: bytes | str) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise malformed(f"the body is not JSON: {exc}") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def only(body: Any, keys: set[str], shape: str) -> dict[str, Any]:
    """The body if it is an object with exactly `keys`; 400 `request/malformed` otherwise."""
    if not isinstance(body, dict) or set(body) != keys:
        raise malformed(f"the body must be {shape}")
    return body


def version_of(value: Any) -> int:
    """A version as a body names it; 400 unless an integer."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed("version must be an integer")
    return value


def action_request(body: Any) -> tuple[int, Any]:
    """(version, action) from `{"version", "action"}`; 400 if the body has another shape."""
    if not isinstance(body, dict) or set(body) != {"version", "action"}:
        raise malformed('the body must be {"version": int, "action": {...}}')
    return version_of(body["version"]), body["action"]


def since_text(value: str | None) -> int:
    """`since` as the WebSocket's query gives it, held to the HTTP route's rule (an integer
    in 0..MAX_SINCE, else 400 request/malformed), read without converting a long text."""
    if value is None:
        return 0
    digits = value.lstrip("0") or "0"
    if not (value.isascii() and value.isdigit()) or len(digits) > len(str(MAX_SINCE)):
        raise malformed(f"since must be a version, 0 to {MAX_SINCE}")
    number = int(digits)
    if number > MAX_SINCE:
        raise malformed(f"since must be a version, 0 to {MAX_SINCE}")
    return number
