"""``python -m devicesworld`` is the ``devicesworld`` command."""

from devicesworld.cli import main

main()
