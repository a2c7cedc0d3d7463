"""The review app against a locked database, a stale token cookie, an identity set from another port and a
rebinding `Host`: a clear answer each time, no decision lost silently, the event loop never held up."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from review.app import bound_hosts, create_app
from review.queue import ReleaseQueue
from review.store import ReviewStore
from tests.review.test_review_app import LOCAL, csrf_of, signed_in
from tests.support.release_data import injected
from tests.support.review_release import write_review_release
from tests.support.review_serving import served

HOLD_WRITE_LOCK = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_review_release(tmp_path_factory.mktemp("rel"), results=injected(1))


def first_item(release: Path) -> str:
    return ReleaseQueue(release).items[0].instance_id


def sign_in_over_http(client: httpx.Client, name: str) -> str:
    token = csrf_of(client.get("/login").text)
    response = client.post(
        "/login", data={"csrf": token, "name": name, "next": "/queue"}, follow_redirects=True
    )
    assert response.status_code == 200 and f'id="annotator">{name}<' in response.text
    return token


def test_a_locked_database_says_the_decision_was_not_saved_and_blocks_nobody(
    release: Path, tmp_path: Path
) -> None:
    """While one annotator's decision waits for another process's write lock, the others' pages load at once
    (from the same server, so the event loop and the store are shared), and the decision is answered with a
    clear "not saved" rather than an error page."""
    db = tmp_path / "reviews.sqlite"
    app = create_app(release, db, busy_timeout=4.0)
    queue = ReleaseQueue(release)
    item = queue.items[0]
    pages = ("/queue", f"/item/{item.instance_id}", f"/doc/{item.doc_id}", "/api/stats", "/queue?status=todo")
    with (
        served(app) as base,
        httpx.Client(base_url=base, timeout=30) as alice,
        httpx.Client(base_url=base, timeout=30) as bob,
    ):
        csrf = sign_in_over_http(alice, "alice")
        sign_in_over_http(bob, "bob")
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD_WRITE_LOCK, str(db), "30"], stdout=subprocess.PIPE, text=True
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            answers: list[httpx.Response] = []
            decision = {"csrf": csrf, "decision": "accept"}
            post = threading.Thread(
                target=lambda: answers.append(alice.post(f"/item/{item.instance_id}", data=decision))
            )
            assignment = {"csrf": csrf, "annotators": "alice, bob", "overlap": "0.5"}
            assign = threading.Thread(target=lambda: answers.append(alice.post("/assign", data=assignment)))
            post.start()
            assign.start()
            time.sleep(0.5)  # the decision and the assignment are waiting for the lock now
            waited = {}
            for path in pages:
                started = time.monotonic()
                assert bob.get(path).status_code == 200, path
                waited[path] = time.monotonic() - started
            assert max(waited.values()) < 1.5, waited
            assert post.is_alive()  # the pages were served while the decision was still waiting
            post.join(20)
            assign.join(20)
            (response,) = (a for a in answers if a.url.path.startswith("/item/"))
            assert response.status_code == 503
            assert "Your decision was NOT saved" in response.text
            assert "the review database is locked by another process" in response.text
            (assigned,) = (a for a in answers if a.url.path == "/assign")
            assert assigned.status_code == 503 and "nothing was changed" in assigned.text
            for answer in answers:  # the server's file system is none of the browser's business
                assert str(tmp_path) not in answer.text
        finally:
            holder.kill()
            holder.wait()
        with ReviewStore(db) as store:
            assert store.count() == 0  # not taken, and said so
            assert store.assigned(queue.version, "alice") == set()
        again = alice.post(f"/item/{item.instance_id}", data=decision)
        assert again.status_code == 303
    with ReviewStore(db) as store:
        assert store.count() == 1


def test_no_route_uses_the_database_on_the_event_loop(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every statement the store runs while the app serves is traced: none may run on the event loop's
    thread (a lock wait there would stop every annotator's page), including a refused form shown again
    and the next item chosen after a decision within a filter that reads the assignments."""
    on_loop: list[str] = []
    connect = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)

        def trace(statement: str) -> None:
            if asyncio._get_running_loop() is not None:  # this thread runs the event loop
                on_loop.append(statement)

        conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    queue = ReleaseQueue(release)
    first, second = queue.items[0], queue.items[1]
    app = create_app(release, tmp_path / "reviews.sqlite")
    with served(app) as base, httpx.Client(base_url=base, timeout=30) as alice:
        csrf = sign_in_over_http(alice, "alice")
        assign = alice.post("/assign", data={"csrf": csrf, "annotators": "alice", "overlap": "0"})
        assert assign.status_code == 303
        for path in ("/queue", "/queue?status=todo&mine=1", f"/item/{first.instance_id}?mine=1"):
            assert alice.get(path).status_code == 200, path
        assert alice.get(f"/doc/{first.doc_id}").status_code == 200
        assert alice.get("/api/stats").status_code == 200
        refused = alice.post(f"/item/{first.instance_id}?mine=1", data={"csrf": csrf, "decision": "reject"})
        assert refused.status_code == 422
        for filters in ("?mine=1", "?status=todo", "?annotator=alice"):
            decided = alice.post(
                f"/item/{second.instance_id}{filters}", data={"csrf": csrf, "decision": "accept"}
            )
            assert decided.status_code == 303, filters
    assert on_loop == [], on_loop


def test_a_stale_token_cookie_does_not_lock_anyone_out(release: Path, tmp_path: Path) -> None:
    app = create_app(release, tmp_path / "reviews.sqlite", token="fresh-token-1234")
    client = TestClient(app, base_url=LOCAL)
    client.cookies.set("gbtbench_token", "stale-token-from-yesterday")
    assert client.get("/login").status_code == 401
    assert client.get("/login?token=fresh-token-1234").status_code == 200
    stale = TestClient(app, base_url=LOCAL)
    stale.cookies.set("gbtbench_token", "stale-token-from-yesterday")
    bearer = stale.get("/login", headers={"Authorization": "Bearer fresh-token-1234"})
    assert bearer.status_code == 200


def test_an_identity_cookie_set_elsewhere_is_not_an_identity(release: Path, tmp_path: Path) -> None:
    """A page on another port of 127.0.0.1 can set `gbtbench_annotator=mallory`; it cannot sign it."""
    db = tmp_path / "reviews.sqlite"
    app = create_app(release, db)
    victim, csrf = signed_in(app, "victim")
    item = first_item(release)
    jar = dict(victim.cookies)
    victim.cookies.clear()  # the other page's cookie replaces the victim's (same host and name)
    victim.cookies.update({**jar, "gbtbench_annotator": "mallory"})
    response = victim.post(f"/item/{item}", data={"csrf": csrf, "decision": "accept"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    with ReviewStore(db) as store:
        assert [d.annotator for d in store.history()] == []
    # signed by another server's key: refused as well
    elsewhere, _ = signed_in(create_app(release, tmp_path / "other.sqlite"), "mallory")
    victim.cookies.clear()
    victim.cookies.update({**jar, "gbtbench_annotator": elsewhere.cookies["gbtbench_annotator"]})
    assert victim.get("/queue", follow_redirects=False).status_code == 303
    # a second server process on the same database accepts the same session
    again, csrf = signed_in(app, "victim")
    second = TestClient(create_app(release, db), base_url=LOCAL)
    second.cookies.update(again.cookies)
    assert second.get("/queue").status_code == 200


def test_a_foreign_host_header_is_refused(release: Path, tmp_path: Path) -> None:
    hosts = bound_hosts("127.0.0.1", 8765)
    app = create_app(release, tmp_path / "reviews.sqlite", hosts=hosts)
    client = TestClient(app, base_url="http://127.0.0.1:8765")
    assert client.get("/login").status_code == 200
    assert client.get("/login", headers={"Host": "localhost:8765"}).status_code == 200
    refused = client.get("/login", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and "Host" in refused.text
    assert client.get("/login", headers={"Host": "evil.example:8765"}).status_code == 400
    assert client.get("/login", headers={"Host": "localhost:9999"}).status_code == 400  # another port
    page = client.get("/login").text
    assert csrf_of(page)


def test_an_app_made_with_the_defaults_serves_loopback_names_only(release: Path, tmp_path: Path) -> None:
    """`create_app` without `hosts` (as a test, a bench or an embedding program calls it) is as safe as
    `gbtbench review` on loopback: a rebinding page's own name is refused, on any port."""
    client = TestClient(create_app(release, tmp_path / "reviews.sqlite"), base_url="http://127.0.0.1:8765")
    for host in ("127.0.0.1", "127.0.0.1:8765", "localhost:1234", "LOCALHOST", "[::1]", "[::1]:8765"):
        assert client.get("/login", headers={"Host": host}).status_code == 200, host
    for host in (
        "evil.example",
        "evil.example:8765",
        "127.0.0.1.evil.example",
        "localhost.evil.example:8765",
        "testserver",
        "[::1].evil.example",
        "",
    ):
        refused = client.get("/login", headers={"Host": host})
        assert refused.status_code == 400 and "Host" in refused.text, host


def test_a_wildcard_bind_accepts_any_host_behind_its_token(release: Path, tmp_path: Path) -> None:
    app = create_app(
        release, tmp_path / "reviews.sqlite", token="a-token-1234", hosts=bound_hosts("0.0.0.0", 8765)
    )
    client = TestClient(app, base_url="http://192.0.2.10:8765")
    assert client.get("/login", headers={"Host": "review.lab.example:8765"}).status_code == 401
    page = client.get("/login?token=a-token-1234", headers={"Host": "review.lab.example:8765"})
    assert page.status_code == 200
