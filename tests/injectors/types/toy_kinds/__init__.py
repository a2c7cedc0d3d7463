"""Toy error types of each kind (judgement, LLM-rewritten, without a correction) for test_type_kinds.py."""
