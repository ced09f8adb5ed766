from __future__ import annotations

import pytest

from devicesworld.devices.linux.sites import server as sites_server


def test_a_dropped_browser_connection_prints_no_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = sites_server._QuietServer(("127.0.0.1", 0), sites_server._handler_for(None))  # type: ignore[arg-type]
    try:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            quiet.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a real bug")
        except ValueError:
            quiet.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a real bug" in capsys.readouterr().err
    finally:
        quiet.server_close()
