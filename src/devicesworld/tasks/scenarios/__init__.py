"""Scenario families: tasks people actually do across devices, written as data (docs/scenarios.md)."""
