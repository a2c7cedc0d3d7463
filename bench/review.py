"""Review app speed on a 500-document release: page load for one instance and the decision round trip.

    python -m bench.review [--documents 500] [--requests 200]

The release tables are generated synthetically at that size (the corpus documents injected once, then
repeated under new document ids) with the production table and queue code; a real 500-document build
would take most of an hour here. The app runs under uvicorn on 127.0.0.1, and a second annotator's
decisions on a third of the queue are in the database first. Prints medians and 95th percentiles
(goal: each median under 100 ms).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import httpx
import uvicorn

from corpus.stdsource import gold_documents
from injectors.context import InjectionContext
from injectors.planner import InjectionResult, inject_document
from release.review_queue import review_queue
from release.tables import build_tables
from release.writer import write_parquet
from review.app import create_app
from review.queue import ReleaseQueue
from review.store import Decision, ReviewStore


def copy_of(result: InjectionResult, n: int) -> InjectionResult:
    """The same injected document under another doc_id (and so other instance ids)."""
    doc_id = f"{n:06x}{result.original.doc_id[6:]}"
    instances = tuple(
        replace(i, doc_id=doc_id, instance_id=f"{n:06x}{i.instance_id[6:]}") for i in result.instances
    )
    return replace(
        result,
        original=replace(result.original, doc_id=doc_id),
        corrupted=replace(result.corrupted, doc_id=doc_id),
        instances=instances,
    )


def synthetic_release(root: Path, documents: int) -> Path:
    corpus = gold_documents()
    context = InjectionContext.from_documents(corpus)
    base = [inject_document(d, 0, context) for d in corpus]
    results = [copy_of(base[n % len(base)], n) for n in range(documents)]
    tables = build_tables(results)
    folder = root / "v0.1.0"
    folder.mkdir(parents=True)
    queue = review_queue(tables.instances, fraction=0.3, seed=0)
    for name, table in {**tables.as_dict(), "review_queue": queue}.items():
        write_parquet(table, folder / f"{name}.parquet")
    (folder / "manifest.json").write_text(json.dumps({"version": "v0.1.0"}), encoding="utf-8")
    return folder


def serve(app: object) -> tuple[uvicorn.Server, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"{name:<44} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ms)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gbtbench-bench-review-"))
    started = time.perf_counter()
    release = synthetic_release(root, args.documents)
    queue = ReleaseQueue(release)
    sections = sum(len(d.sections) for d in queue.documents.values())
    print(
        f"release: {args.documents} documents, {sections} corrupted sections, {len(queue.items)} queued "
        f"items (generated in {time.perf_counter() - started:.1f} s)"
    )
    rng = random.Random(0)
    with ReviewStore(root / "reviews.sqlite") as store:
        for item in rng.sample(queue.items, len(queue.items) // 3):
            store.record(
                Decision(
                    "v0.1.0", item.instance_id, "other", rng.choice(["accept", "fix"]), fix_description="说明"
                )
            )
    started = time.perf_counter()
    app = create_app(release, root / "reviews.sqlite")
    print(f"app start (reads the release): {time.perf_counter() - started:.2f} s")
    server, base = serve(app)
    with httpx.Client(base_url=base, follow_redirects=False) as client:
        csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"csrf": csrf, "name": "bench", "next": "/queue"})
        ids = [i.instance_id for i in rng.sample(queue.items, min(args.requests, len(queue.items)))]
        for iid in ids[:5]:  # warm-up
            client.get(f"/item/{iid}")
        load, queue_page, post, trip = [], [], [], []
        for iid in ids:
            t = time.perf_counter()
            response = client.get(f"/item/{iid}")
            load.append(time.perf_counter() - t)
            assert response.status_code == 200
        for _ in range(20):
            t = time.perf_counter()
            assert client.get("/queue").status_code == 200
            queue_page.append(time.perf_counter() - t)
        for iid in ids:
            t = time.perf_counter()
            response = client.post(f"/item/{iid}", data={"csrf": csrf, "decision": "accept"})
            post.append(time.perf_counter() - t)
            assert response.status_code == 303
            client.get(response.headers["location"])
            trip.append(time.perf_counter() - t)
    server.should_exit = True
    print(figures("item page load (GET /item/<id>)", load))
    print(figures("decision POST (record + redirect)", post))
    print(figures("decision round trip (POST + next item page)", trip))
    print(figures("queue page (GET /queue, 100 rows)", queue_page))


if __name__ == "__main__":
    main()
