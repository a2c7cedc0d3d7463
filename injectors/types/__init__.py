"""The error types, one module each: `<dimension>/<id>_<slug>.py` (e.g. `ter/ter01_undefined_term_used.py`).

To add a type, add one module in its dimension's folder that defines `ERROR_TYPE` (its taxonomy row), its
checker(s), its `Injector` subclass and
`DEFINITION = TypeDefinition(ERROR_TYPE, Injector, checks=..., llm=...)`,
plus its tests in `tests/injectors/types/`; it imports the core from `injectors.authoring`
(docs/adding-a-type.md).
The registry (`injectors/registry.py`) finds it; nothing else changes.
Each dimension folder also has `analysis.py` (how the dimension reads a document, shared by its checkers
and injectors) and `editing.py` (what its injectors share).
"""
