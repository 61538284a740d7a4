"""Test support: the company generator and the benchmark (not tests themselves)."""
