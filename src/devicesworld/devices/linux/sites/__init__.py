"""Local web sites of a task, served on 127.0.0.1 and recorded in SQLite for verifiers."""

from devicesworld.devices.linux.sites.model import Form, FormField, Link, Page, Site
from devicesworld.devices.linux.sites.server import SiteService, get_sites

__all__ = ["Form", "FormField", "Link", "Page", "Site", "SiteService", "get_sites"]
