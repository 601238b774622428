"""Who may open the page: the local table's random key, and same-origin requests only.

The local game's page holds a seat's cards, so its address carries a key from
:mod:`secrets`; a request without it (or with another), or from a page of another
origin, is refused. A table server's page is public (its tables' codes guard them), but
a foreign Origin is refused there too, and a local page also checks the Host header, so
a site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

TOKEN_BYTES = 24
"""Random bytes in the local page's key: 32 characters in its address."""


def new_token() -> str:
    """A fresh key for a local page's address."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True, slots=True)
class Gate:
    """The checks every request to the page goes through.

    ``token`` is the local page's key (None: a public page); ``hosts`` the Host values a
    local page answers to (empty: any host, the page's origin being its own host)."""

    token: str | None = None
    hosts: frozenset[str] = frozenset()

    @classmethod
    def local(cls, port: int, token: str) -> Gate:
        """The gate of a page served on 127.0.0.1 at ``port``."""
        return cls(token, frozenset({f"127.0.0.1:{port}", f"localhost:{port}"}))

    def refusal(self, headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
        """Why a request is refused (a catalog id), None when it may go on."""
        host = headers.get("host", "")
        if self.hosts and host not in self.hosts:
            return "web.refused_origin"
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return "web.refused_origin"
        if self.token is not None:
            given = query.get("t", "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return "web.refused_token"
        return None


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host
