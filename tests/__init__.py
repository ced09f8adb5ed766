"""The test suite, a package: helper modules are imported as ``tests.<folder>.<module>``."""
