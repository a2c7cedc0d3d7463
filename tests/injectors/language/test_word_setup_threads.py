"""The tokenizer's set-up is safe when its first use comes from several threads at once (a build's thread
runner injects documents in parallel): every thread segments with the project's vocabulary.

Before, a thread could segment while another was still loading the vocabulary ("审批后方可实施" read
审批/后方/可/实施), and the word caches kept that answer for the rest of the process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
THREADS = 8
# a fresh interpreter: this test process has its tokenizer set up already
SCRIPT = f"""
import threading
from injectors.language.words import tagged, words

start = threading.Barrier({THREADS})
seen = []


def first_use():
    start.wait()
    seen.append(("/".join(words("审批后方可实施")), "/".join(w for w, _ in tagged("安装时宜采用不锈钢"))))


threads = [threading.Thread(target=first_use) for _ in range({THREADS})]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(seen), "threads segmented")  # a thread that raised (a half-imported tagger) is missing
for pair in sorted(set(seen)):
    print(*pair)
"""


def test_the_first_use_from_many_threads_segments_with_the_vocabulary() -> None:
    command = [sys.executable, "-c", SCRIPT]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{THREADS} threads segmented",
        "审批/后/方可/实施 安装/时/宜/采用/不锈钢",
    ]
