"""Which `Host` headers the app serves: the address it is bound to, or loopback names when none is given.

A DNS-rebinding page reaches the app under the page's own host name, so refusing any other name keeps it
out; a wildcard bind cannot know its names and relies on its token instead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

ANY_HOST = "*"  # in `hosts`: every Host header (a wildcard bind, guarded by its token)
LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]"})


def bound_hosts(host: str, port: int) -> frozenset[str]:
    """The `Host` headers a browser sends to an app bound to host:port; ANY_HOST for a wildcard bind,
    which needs a token anyway."""
    if host in ("0.0.0.0", "::", ""):
        return frozenset({ANY_HOST})
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= LOOPBACK
    elif ":" in host:
        names = {f"[{host}]"}
    return frozenset({*names, *(f"{n}:{port}" for n in names)})


def host_check(hosts: Collection[str] | None) -> Callable[[str], bool]:
    """Whether a `Host` header may be served: one of `hosts` (ANY_HOST: all), or, when none are given, a
    loopback name on any port (a DNS-rebinding page names its own host, never one of these)."""
    if hosts is None:
        return lambda header: _host_name(header.lower()) in LOOPBACK
    allowed = frozenset(h.lower() for h in hosts)
    if ANY_HOST in allowed:
        return lambda header: True
    return lambda header: header.lower() in allowed


def _host_name(header: str) -> str:
    """The name part of a Host header: `[::1]:8765` → `[::1]`, `localhost:80` → `localhost`."""
    if header.startswith("["):
        name, bracket, rest = header.partition("]")
        return name + bracket if not rest or rest.startswith(":") else ""
    return header.partition(":")[0]
