"""How much a process keeps of what it computed from a line or a section's text.

A build's worker reads the same lines again and again within a document (every candidate's lint) and across
documents that share wording, so these analyses are cached; the caches are bounded so that a worker's memory
stops growing after a few dozen documents instead of growing with the corpus. At these sizes a cache holds
the lines of the last twenty or so documents: a 500-document build spends no more time than with caches four
times larger, and each worker holds about 80 MB less at the end.
"""

LINE_CACHE = 1 << 14  # analyses of one line or phrase (words, n-grams, modal verbs, …)
SECTION_CACHE = 1 << 15  # a section's lint (several per section: original and each candidate's edit)
