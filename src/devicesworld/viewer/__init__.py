"""``devicesworld view``: a local web dashboard over one or more run directories.

Runs and their metrics, the tasks of a run with filters, and each episode step by
step with its screenshots, actions, feedback and evaluator trace. Served by the
standard library on 127.0.0.1 only; the page is plain HTML and JavaScript.
"""

from devicesworld.viewer.server import ViewerServer, make_server, serve_in_thread
from devicesworld.viewer.store import RunStore, ViewerError

__all__ = ["RunStore", "ViewerError", "ViewerServer", "make_server", "serve_in_thread"]
