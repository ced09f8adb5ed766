"""Atomic task libraries, one module per platform, and the scaffolds they need."""
