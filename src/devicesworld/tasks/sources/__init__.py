"""Source families: task families written as data (``tasks/data/sources/*.yaml``) and their one compiler.

The Linux GUI and Windows task families used to be Python generators inside the device
packages; they are data files here, compiled by :mod:`.compile` in the language of
:mod:`.expr`, so a device package holds devices and the tasks layer holds tasks.
"""
