"""DevicesWorld: an executable benchmark for agents that work across phones, desktops and a smart home."""

__version__ = "0.1.0"
