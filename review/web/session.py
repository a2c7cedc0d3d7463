"""Who is deciding: the annotator's name in a cookie signed with a key kept beside the database.

A page on another port of the same host can set cookies here but cannot sign them; every server process
on one database reads the same key, so they accept each other's sessions and a restart keeps them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import RedirectResponse

ANNOTATOR_COOKIE = "gbtbench_annotator"
NAME = re.compile(r"^[\w .@-]{1,40}$")


def session_key(db_path: Path) -> bytes:
    """The key that signs annotator names: kept beside the database (owner-only), so every server process
    on that database accepts the same sessions and a restart keeps them."""
    path = Path(f"{db_path}.session-key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def sign(key: bytes, name: str) -> str:
    mac = hmac.new(key, name.encode(), hashlib.sha256).digest()
    return f"{name}|{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def signed_name(key: bytes, value: str) -> str | None:
    """The name in a signed cookie value, or None when it is unsigned or signed with another key."""
    name, _, _ = value.rpartition("|")
    if not name or not hmac.compare_digest(sign(key, name).encode(), value.encode()):
        return None
    return name


def annotator(request: Request, key: bytes) -> str | None:
    """The signed-in annotator, or None (no cookie, a forged one, or a name the form would refuse)."""
    name = signed_name(key, request.cookies.get(ANNOTATOR_COOKIE, ""))
    return name if name is not None and NAME.match(name) else None


def to_login(request: Request) -> RedirectResponse:
    """To the sign-in page, coming back here afterwards."""
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse("/login?" + urlencode({"next": target}), 303)
