"""The package version, in a module of its own so the run directory can record it.

``import devicesworld`` re-exports it as ``devicesworld.__version__``; code inside the
package reads it from here, because the package's front door sits above every layer
(the import-linter contract in pyproject.toml).
"""

from __future__ import annotations

__version__ = "0.1.0"
