"""How much a process keeps of what it computed from a line or a section's text.

A build's worker reads the same lines again and again within a document (every candidate's lint) and across
documents that share wording, so these analyses are cached; the caches are bounded so that a worker's memory
levels off instead of growing with the corpus. At these sizes one process injecting 200 documents used no
more CPU time than with caches four times larger. Smaller bounds flatten the memory sooner but cost CPU: at a
quarter of these sizes, 45% more per document; emptying every cache after each document, about 75% more.
What an entry holds matters as much as how many there are: a line's words are kept, not its n-grams
(`novelty.DocumentWording`), and its word edges as one byte per character (`words._edge_marks`), so that
a 500-document build's workers end at about 360 MB each (about 260 MB after 100 documents).
"""

import sys

LINE_CACHE = 1 << 14  # analyses of one line or phrase (words, n-grams, modal verbs, …)
SECTION_CACHE = 1 << 15  # a section's lint (several per section: original and each candidate's edit)


def forget_all(packages: tuple[str, ...] = ("injectors", "parsers")) -> int:
    """Empty every module-level cache of `packages` (anything of theirs with a `cache_clear`: `functools`
    caches, `ContentMemo`s); returns how many. A large build calls it once the last document is assembled:
    the release that follows needs the memory more than the analyses of text it has finished with."""
    emptied: set[int] = set()
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(packages):
            continue
        for value in list(vars(module).values()):  # a cache imported into another module is seen twice
            ours = (getattr(value, "__module__", None) or "").startswith(packages)
            cache = ours and hasattr(value, "cache_clear") and not isinstance(value, type)
            if cache and id(value) not in emptied:
                value.cache_clear()
                emptied.add(id(value))
    return len(emptied)
