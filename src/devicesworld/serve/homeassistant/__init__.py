"""The simulated home behind Home Assistant's REST and WebSocket API (``devicesworld serve homeassistant``).

Needs the ``homeassistant`` extra (aiohttp). ``entities`` maps devices to HA entities,
``services`` maps HA service calls to our commands, ``hub`` runs them as counted steps
and tracks states and events, ``app`` is the HTTP/WebSocket server.
"""
