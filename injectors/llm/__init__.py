"""The LLM path: an OpenAI-compatible client and its cache, prompts, rewriter and answer checks."""
