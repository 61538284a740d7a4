"""Test support (not tests themselves): the company generator, the benchmark, and the helpers
several test modules share (hand-made ledgers, end-to-end conversion, the CLI, the web client,
cut files)."""
