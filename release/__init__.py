"""Releases: a build's results as versioned tables, Hugging Face datasets, instruction sets and a card."""
