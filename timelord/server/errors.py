"""The errors the API answers with: an HTTP status and a `{"code", "reason", "rule"}` body."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with a stable code; nothing has changed on any table when one is raised."""

    def __init__(self, status: int, code: str, reason: str, rule: str = "") -> None:
        super().__init__(f"{code}: {reason}")
        self.status = status
        self.code = code
        self.reason = reason
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "rule": self.rule}


def not_found(table_id: str) -> ApiError:
    return ApiError(404, "table/not_found", f"there is no table {table_id!r}")


def malformed(reason: str) -> ApiError:
    return ApiError(400, "request/malformed", reason)


def too_large(limit: int) -> ApiError:
    return ApiError(413, "request/too_large", f"the body is larger than {limit} bytes")


def rate_limited(
    reason: str = "too many requests or messages on this connection; slow down",
) -> ApiError:
    return ApiError(429, "rate/limited", reason)


def forbidden(reason: str) -> ApiError:
    return ApiError(403, "seat/forbidden", reason)
