"""What can go wrong when publishing to the Hub, one error type per cause, each with a message to act on."""

from __future__ import annotations


class PublishError(Exception):
    """A publish that did not happen (or did not finish), with a message a user can act on."""


class ReleaseFolderError(PublishError):
    """The folder given is not a complete release (no manifest, no version, no hf/ card or data)."""


class MissingTokenError(PublishError):
    """Neither HF_TOKEN nor a stored `hf auth login` token is available."""


class HubUnreachableError(PublishError):
    """The Hub did not answer in time, or the connection failed."""


class HubAuthError(PublishError):
    """The Hub rejected the token, or the token cannot write."""


class HubRefusedError(PublishError):
    """The Hub answered an HTTP error other than an authentication one."""


class PublishTimeoutError(PublishError):
    """The upload did not finish within the deadline; its worker thread was left behind."""


class TagExistsError(PublishError):
    """The version is already tagged in the repo; moving a release tag needs force=True."""
