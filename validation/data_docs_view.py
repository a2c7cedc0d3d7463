"""The views that render a release's Data Docs: GX's own, with their templates compiled once per process.

GX makes a new jinja `Environment` for every page of a Data Docs site, and jinja compiles each template
again for each new environment: a third of a second or more of every validation, most of its Data Docs. The
environments are all configured alike (same loaders, escaping and extensions; filters are looked up when a
page renders), so the compiled code of a template is the same in each: this view gives every environment
it makes one in-memory bytecode cache, keyed by template and checked against the template's source. The
pages are what GX's default views (`DefaultJinjaPageView`, and `DefaultJinjaIndexPageView` for the index)
render.

Imported by GX, by module name (`suites._context` names it in the site's configuration), once GX is.
"""

from __future__ import annotations

from typing import Any

from great_expectations.render.view import DefaultJinjaIndexPageView, DefaultJinjaPageView
from jinja2.bccache import Bucket, BytecodeCache


class CompiledTemplates(BytecodeCache):
    """Compiled templates in memory, as jinja's bucket bytes (which carry the source's checksum: a
    changed template is compiled again)."""

    def __init__(self) -> None:
        self._buckets: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self._buckets.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._buckets[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._buckets.clear()


TEMPLATES = CompiledTemplates()


class _SharedTemplates:
    """Mixed into a GX view: the jinja environment it makes reads compiled templates from `TEMPLATES`."""

    env: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env.bytecode_cache = TEMPLATES


class PageView(_SharedTemplates, DefaultJinjaPageView):  # type: ignore[misc]  # GX is untyped
    """A section's page (an expectation suite, a validation result)."""


class IndexPageView(_SharedTemplates, DefaultJinjaIndexPageView):  # type: ignore[misc]
    """The site's index page."""
