"""Part of the simulated Android device (see the package docstring)."""
