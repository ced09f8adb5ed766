"""The cross-device environment controller."""

from devicesworld.env.controller import CrossDeviceEnv, EnvError, StepOutcome

__all__ = ["CrossDeviceEnv", "EnvError", "StepOutcome"]
