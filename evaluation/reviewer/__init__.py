"""GB/T-Reviewer: a multi-agent review of a standard, as the method paper describes it.

Three modules. Parsing: the document is the release's own sequence of (number, title, content) sections, so
every judgement is grounded at a section that exists. Expert review (`agents`): a Direct-All reviewer reads
the whole document for every dimension, one Dimension Specialist per review dimension, Error-Type Agents
read only the high-risk points of the types a checker cannot decide alone, and rule scanners (the project's
own linter, no LLM) report computable findings — together a set of candidates. Prediction (`fusion`): the
candidates are normalised (codes validated, locations mapped onto the document's own numbers), grouped by
(location, type), scored by source and agreement, refined, and kept above a threshold, each with the agents
that proposed it. `run` drives the calls through the project's cached LLM client; `results` files the run.
"""
