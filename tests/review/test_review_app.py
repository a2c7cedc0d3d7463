"""The review web app through FastAPI's test client: queue, decisions, fixes, escaping, CSRF, tokens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from review.app import create_app
from review.queue import ReleaseQueue
from review.store import ReviewStore
from tests.support.release_data import injected
from tests.support.review_release import IMG, SCRIPT, hostile, write_review_release


class Clock:
    """A clock the test moves: one second per reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    results = injected(2)
    return write_review_release(tmp_path_factory.mktemp("rel"), results=(hostile(results[0]), results[1]))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "reviews.sqlite"


LOCAL = "http://127.0.0.1"  # the app serves loopback names only unless told otherwise


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "no CSRF field on the page"
    return found.group(1)


def signed_in(app: object, name: str) -> tuple[TestClient, str]:
    client = TestClient(app, base_url=LOCAL)  # type: ignore[arg-type]
    page = client.get("/login")
    token = csrf_of(page.text)
    response = client.post("/login", data={"csrf": token, "name": name, "next": "/queue"})
    assert response.status_code == 200 and f'id="annotator">{name}<' in response.text
    return client, token


@pytest.fixture
def alice(release: Path, db: Path) -> Iterator[tuple[TestClient, str]]:
    app = create_app(release, db, clock=Clock())
    yield signed_in(app, "alice")


def queue_ids(release: Path) -> list[str]:
    return [i.instance_id for i in ReleaseQueue(release).items]


def test_the_queue_needs_a_name_and_lists_every_queued_item(release: Path, db: Path) -> None:
    client = TestClient(create_app(release, db), base_url=LOCAL)
    first = client.get("/queue", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"].startswith("/login")
    client, _ = signed_in(create_app(release, db), "alice")
    page = client.get("/queue").text
    ids = queue_ids(release)
    assert len(ids) > 10
    assert all(f"/item/{i}" in page for i in ids)
    assert f"{len(ids)} of {len(ids)} items shown" in page


def test_item_page_shows_the_evidence_with_the_change_highlighted(release: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, _ = alice
    queue = ReleaseQueue(release)
    item = next(
        i for i in queue.items if i.original_text and i.corrupted_text and i.original_text != i.corrupted_text
    )
    page = client.get(f"/item/{item.instance_id}").text
    assert item.error_type in page and f'id="location">{item.location}<' in page
    assert "<ins>" in page or "<del>" in page  # the changed characters are marked
    assert f"/doc/{item.doc_id}?at=" in page  # the whole document, anchored at the location
    assert queue.neighbours(item), "a corpus clause has neighbours"
    assert queue.neighbours(item)[0].number in page


def test_accept_reject_and_fix_are_recorded_and_move_on(release: Path, db: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, token = alice
    ids = queue_ids(release)
    moved = client.post(f"/item/{ids[0]}", data={"csrf": token, "decision": "accept"}, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == f"/item/{ids[1]}"
    client.post(
        f"/item/{ids[1]}",
        data={"csrf": token, "decision": "reject", "reason": "unnatural", "comment": "生硬"},
    )
    item = ReleaseQueue(release).by_id[ids[2]]
    client.post(
        f"/item/{ids[2]}",
        data={
            "csrf": token,
            "decision": "fix",
            "description": "错误：改写；修改建议：恢复。",
            "location": item.location,
        },
    )
    with ReviewStore(db) as store:
        current = {d.instance_id: d for d in store.current("v0.1.0")}
    assert current[ids[0]].decision == "accept" and current[ids[0]].annotator == "alice"
    assert (current[ids[1]].decision, current[ids[1]].reason, current[ids[1]].comment) == (
        "reject",
        "unnatural",
        "生硬",
    )
    assert current[ids[2]].fix_description == "错误：改写；修改建议：恢复。"
    assert current[ids[2]].fix_error_type is None and current[ids[2]].fix_location is None
    assert current[ids[0]].decided_at < current[ids[1]].decided_at  # the injected clock stamps them


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"error_type": "XYZ-99"}, "not an error type"),
        ({"dimension": "TER", "error_type": ""}, "belongs to dimension"),
        ({"location": "99.99"}, "no section 99.99"),
        ({"description": ""}, "cannot be empty"),
    ],
)
def test_a_fix_is_checked_against_the_taxonomy_and_the_document(
    release: Path,
    db: Path,
    alice,
    change: dict[str, str],
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    client, token = alice
    item = ReleaseQueue(release).items[0]
    assert item.dimension != "TER" or change.get("dimension") != "TER"
    form = {"csrf": token, "decision": "fix", "description": "新的说明", **change}
    response = client.post(f"/item/{item.instance_id}", data=form)
    assert response.status_code == 422 and message in response.text
    with ReviewStore(db) as store:
        assert store.history() == []


def test_a_rejection_needs_a_reason(release: Path, db: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, token = alice
    iid = queue_ids(release)[0]
    response = client.post(f"/item/{iid}", data={"csrf": token, "decision": "reject"})
    assert response.status_code == 422 and "choose a reason" in response.text


def test_every_document_string_is_escaped(release: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, _ = alice
    queue = ReleaseQueue(release)
    item = next(i for i in queue.items if i.corrupted_text and SCRIPT in i.corrupted_text)
    pages = [
        client.get("/queue").text,
        client.get(f"/item/{item.instance_id}").text,
        client.get(f"/doc/{item.doc_id}").text,
    ]
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in pages[1]
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in pages[1]
    assert "&lt;script&gt;" in pages[2] and IMG not in pages[2]


def test_posts_need_the_csrf_token_and_the_same_origin(release: Path, db: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, token = alice
    iid = queue_ids(release)[0]
    assert client.post(f"/item/{iid}", data={"decision": "accept"}).status_code == 403
    assert client.post(f"/item/{iid}", data={"csrf": "forged", "decision": "accept"}).status_code == 403
    cross = client.post(
        f"/item/{iid}", data={"csrf": token, "decision": "accept"}, headers={"Origin": "http://evil.example"}
    )
    assert cross.status_code == 403
    same = client.post(f"/item/{iid}", data={"csrf": token, "decision": "accept"}, headers={"Origin": LOCAL})
    assert same.status_code == 200
    with ReviewStore(db) as store:
        assert len(store.history()) == 1


def test_no_request_path_reaches_the_file_system(release: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, _ = alice
    for path in (
        "/static/..%2f..%2fmanifest.json",
        "/static/manifest.json",
        "/static/%2e%2e/app.py",
        "/doc/..%2f..%2fetc%2fpasswd",
        "/item/..%2fmanifest.json",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "version" not in response.text or "gbtbench" in response.text
    assert client.get("/static/app.js").status_code == 200


def test_the_login_redirect_stays_on_this_site(release: Path, db: Path) -> None:
    client = TestClient(create_app(release, db), base_url=LOCAL)
    token = csrf_of(client.get("/login").text)
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        response = client.post(
            "/login", data={"csrf": token, "name": "bob", "next": target}, follow_redirects=False
        )
        assert response.headers["location"] == "/queue"


def test_two_tabs_deciding_the_same_item_keep_both_decisions(release: Path, db: Path, alice) -> None:  # type: ignore[no-untyped-def]
    client, _ = alice
    iid = queue_ids(release)[3]
    first_tab = client.get(f"/item/{iid}").text
    second_tab = client.get(f"/item/{iid}").text
    client.post(f"/item/{iid}", data={"csrf": csrf_of(first_tab), "decision": "accept"})
    client.post(f"/item/{iid}", data={"csrf": csrf_of(second_tab), "decision": "reject", "reason": "other"})
    with ReviewStore(db) as store:
        assert [d.decision for d in store.history("v0.1.0", iid)] == ["accept", "reject"]
        assert [d.decision for d in store.current("v0.1.0")] == ["reject"]
    page = client.get(f"/item/{iid}").text
    assert page.count("<td>alice</td>") == 2


def test_filters_status_and_assignments(release: Path, db: Path) -> None:
    app = create_app(release, db)
    alice, token = signed_in(app, "alice")
    ids = queue_ids(release)
    alice.post(f"/item/{ids[0]}", data={"csrf": token, "decision": "accept"})
    todo = alice.get("/queue?status=todo").text
    assert f"/item/{ids[0]}" not in todo and f"/item/{ids[1]}" in todo
    accepted = alice.get("/queue?status=accept").text
    assert f"/item/{ids[0]}" in accepted and f"/item/{ids[1]}" not in accepted
    first_type = ReleaseQueue(release).items[0].error_type
    typed = alice.get(f"/queue?type={first_type}").text
    assert all(
        (f"/item/{i.instance_id}" in typed) == (i.error_type == first_type)
        for i in ReleaseQueue(release).items
    )
    alice.post("/assign", data={"csrf": token, "annotators": "alice, bob", "overlap": "0.5"})
    bob, _ = signed_in(app, "bob")
    mine_a = set(re.findall(r"/item/([0-9a-f]+)\?mine=1", alice.get("/queue?mine=1").text))
    mine_b = set(re.findall(r"/item/([0-9a-f]+)\?mine=1", bob.get("/queue?mine=1").text))
    assert mine_a | mine_b == set(ids)
    assert len(mine_a & mine_b) == round(len(ids) * 0.5)  # the overlap set both see


def test_a_token_is_required_when_configured(release: Path, db: Path) -> None:
    app = create_app(release, db, token="s3cret-token")
    client = TestClient(app, base_url=LOCAL)
    assert client.get("/login").status_code == 401
    assert client.get("/login?token=wrong").status_code == 401
    assert client.get("/login?token=s3cret-token").status_code == 200
    assert client.get("/login").status_code == 200  # the token is now a cookie
    other = TestClient(app, base_url=LOCAL)
    assert other.get("/login", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
