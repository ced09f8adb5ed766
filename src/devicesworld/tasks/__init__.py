"""Tasks: suites, builders and the quality-control gates."""
