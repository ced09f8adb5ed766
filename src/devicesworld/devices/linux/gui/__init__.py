"""GUI mode of the Linux desktop (``profile: {"desktop": "gui"}``): real apps on a real X desktop.

:mod:`.apps` names the apps ``launch_app`` opens, :mod:`.template` builds the template
home (a pre-warmed LibreOffice profile, Thunar's details view) that every device's home
is copied from, and :mod:`.session` ties the device's sandbox to a
:class:`~devicesworld.devices.desktop.client.Desktop`.
"""
