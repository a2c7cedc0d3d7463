"""The review app in a real browser: Playwright driving Debian's chromium against uvicorn on 127.0.0.1.

Decides items with the keyboard, fixes a description, watches progress and κ update as a second annotator
works, is told plainly when a decision could not be saved, and saves screenshots of the main screens under
tests/artifacts/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from review.app import create_app
from review.queue import ReleaseQueue
from review.store import ReviewStore
from tests.support.release_data import injected
from tests.support.review_release import SCRIPT, hostile, write_review_release
from tests.support.review_serving import served

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="chromium is not installed (apt-get install chromium; .ci/run does)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    root = tmp_path_factory.mktemp("browser")
    results = injected(2)
    release = write_review_release(root, results=(hostile(results[0]), results[1]))
    db = root / "reviews.sqlite"
    with served(create_app(release, db, busy_timeout=1.0)) as base:
        yield base, release, db


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=args)
        yield launched
        launched.close()


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def sign_in(browser: object, base: str, name: str) -> object:
    context = browser.new_context(viewport={"width": 1360, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.dialogs = dialogs
    page.goto(f"{base}/queue")
    assert "/login" in page.url
    page.fill("#name", name)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/queue")
    return page


def test_deciding_with_the_keyboard(server: tuple[str, Path, Path], browser: object) -> None:
    base, release, db = server
    ids = [i.instance_id for i in ReleaseQueue(release).items]
    page = sign_in(browser, base, "alice")
    shot(page, "queue-start")
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/item/{ids[0]}")
    shot(page, "item")
    page.keyboard.press("a")  # accept
    page.wait_for_url(f"{base}/item/{ids[1]}")
    page.keyboard.press("2")  # reject: not detectable
    page.wait_for_url(f"{base}/item/{ids[2]}")
    page.keyboard.press("f")  # fix the description
    page.keyboard.type("错误：人工改写的说明；修改建议：恢复原文。")
    page.keyboard.press("Control+Enter")
    page.wait_for_url(f"{base}/item/{ids[3]}")
    page.keyboard.press("k")  # back to the fixed item
    page.wait_for_url(f"{base}/item/{ids[2]}")
    assert "人工改写的说明" in page.inner_text("#history")
    assert page.inner_text("#mine").strip().startswith("your current: fix")
    with ReviewStore(db) as store:
        decided = {d.instance_id: d for d in store.current("v0.1.0") if d.annotator == "alice"}
    assert decided[ids[0]].decision == "accept"
    assert (decided[ids[1]].decision, decided[ids[1]].reason) == ("reject", "not_detectable")
    assert decided[ids[2]].fix_description == "错误：人工改写的说明；修改建议：恢复原文。"

    page.goto(f"{base}/queue")
    first_type = ReleaseQueue(release).by_id[ids[0]].error_type
    assert page.inner_text("#kappa") == "n/a"
    assert "/" in page.inner_text(f'#progress td[data-type="{first_type}"]')
    done = sum(
        int(c.inner_text().split("/")[0]) for c in page.query_selector_all("#progress td.num[data-type]")
    )
    assert done == 3
    shot(page, "queue-progress")

    bob = sign_in(browser, base, "bob")
    bob.goto(f"{base}/item/{ids[0]}")
    bob.keyboard.press("a")
    bob.wait_for_url(f"{base}/item/{ids[1]}")
    bob.keyboard.press("1")  # reject: not an error of this type (same label as alice: reject)
    bob.wait_for_url(f"{base}/item/{ids[2]}")
    bob.keyboard.press("a")
    bob.wait_for_url(f"{base}/item/{ids[3]}")
    bob.goto(f"{base}/queue")
    # alice A R A(fix), bob A R A: full agreement, κ = 1
    assert bob.inner_text("#kappa") == "1.000"
    assert "3 items decided by two or more of 2 annotators" in bob.inner_text("#agreement")
    shot(bob, "queue-agreement")
    plain = next(
        i
        for i in ReleaseQueue(release).items
        if SCRIPT not in (i.corrupted_text or "")
        and i.doc_id != ReleaseQueue(release).items[0].doc_id
        and i.original_text
        and i.corrupted_text
        and i.original_text != i.corrupted_text
    )
    bob.goto(f"{base}/item/{plain.instance_id}")
    assert bob.query_selector("#corrupted ins, #original del") is not None  # the change is highlighted
    shot(bob, "item-plain")
    assert not page.dialogs and not bob.dialogs


def test_hostile_document_strings_stay_text(server: tuple[str, Path, Path], browser: object) -> None:
    base, release, _ = server
    queue = ReleaseQueue(release)
    item = next(i for i in queue.items if i.corrupted_text and SCRIPT in i.corrupted_text)
    page = sign_in(browser, base, "carol")
    page.goto(f"{base}/item/{item.instance_id}")
    assert SCRIPT in page.inner_text("#corrupted")  # shown as text
    assert page.query_selector("#corrupted img") is None and page.query_selector("main script") is None
    page.click("#doclink")
    page.wait_for_load_state()
    assert SCRIPT in page.inner_text("h1")
    assert page.query_selector(".docsection.target") is not None  # anchored at the location
    shot(page, "document")
    assert not page.dialogs  # no script ran, no onerror fired


HOLD_WRITE_LOCK = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(30)
"""


def test_a_decision_that_could_not_be_saved_says_so(server: tuple[str, Path, Path], browser: object) -> None:
    """Another process holds the database's write lock past the busy timeout: the annotator stays on the
    item with a plain message, and the same key saves the decision once the lock is gone."""
    base, release, db = server
    item = ReleaseQueue(release).items[-1]
    page = sign_in(browser, base, "dave")
    page.goto(f"{base}/item/{item.instance_id}")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_WRITE_LOCK, str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        page.keyboard.press("a")
        page.wait_for_selector("#error")
        assert "Your decision was NOT saved" in page.inner_text("#error")
        assert str(db) not in page.inner_text("#error")  # the server's path is not shown
        assert page.url == f"{base}/item/{item.instance_id}"
        shot(page, "item-not-saved")
    finally:
        holder.kill()
        holder.wait()
    with ReviewStore(db) as store:
        assert not [d for d in store.history() if d.annotator == "dave"]
    page.keyboard.press("a")
    page.wait_for_function("() => !document.querySelector('#error')")
    with ReviewStore(db) as store:
        assert [(d.instance_id, d.decision) for d in store.history() if d.annotator == "dave"] == [
            (item.instance_id, "accept")
        ]
    assert not page.dialogs
