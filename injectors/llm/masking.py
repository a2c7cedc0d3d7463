"""One way to keep secrets (the LLM API key, the Hub token) out of anything shown or written.

Servers echo credentials back in their error bodies, often shortened ("Incorrect API key sk-ab…xyz",
"hf_sent…999"), so replacing the exact secret is not enough: any piece of 6 or more of its characters
is masked too. The LLM client and the Hub publisher both call this function.
"""

from __future__ import annotations

MASK = "***"
MIN_PIECE = 6  # shorter pieces ("hf_", "sk-", a year) would mask ordinary text
MAX_PIECE = 24  # longer pieces contain a shorter one, which is masked anyway


def mask_secret(text: str, secret: str) -> str:
    """`text` with the secret, and any piece of it of at least 6 characters, replaced by ***."""
    if not secret or not text:
        return text
    out = text.replace(secret, MASK)
    if len(secret) > MIN_PIECE:
        for size in range(min(len(secret) - 1, MAX_PIECE), MIN_PIECE - 1, -1):
            for start in range(len(secret) - size + 1):
                piece = secret[start : start + size]
                if piece in out:
                    out = out.replace(piece, MASK)
    return out


def mask_all(text: str, secrets: list[str] | tuple[str, ...]) -> str:
    """`mask_secret` for several secrets at once (longest first, so no piece survives a shorter mask)."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = mask_secret(text, secret)
    return text


__all__ = ["MASK", "mask_all", "mask_secret"]
