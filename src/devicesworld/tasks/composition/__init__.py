"""Composition: atomic task fragments joined into cross-device tasks (docs/composition.md)."""
