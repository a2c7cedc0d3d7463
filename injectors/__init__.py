"""injectors."""
