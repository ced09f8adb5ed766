"""Servers that put a task's devices behind other ecosystems' protocols (MCP, Home Assistant).

Each server drives one :class:`~devicesworld.serve.host.SessionHost`, so every call a
client makes becomes counted, recorded steps on the same controller path as the
runner's; verifiers and reports cannot tell a served episode from a native one.
"""
