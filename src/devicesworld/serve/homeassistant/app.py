"""Home Assistant's REST and WebSocket API over a :class:`HomeHub` (aiohttp, loopback only).

REST: ``/api/``, ``/api/config``, ``/api/components``, ``/api/states``,
``/api/states/<entity_id>``, ``/api/services``, ``/api/services/<domain>/<service>``
(``?return_response`` as HA), with ``Authorization: Bearer <token>`` (401 otherwise).
WebSocket ``/api/websocket``: ``auth_required`` → ``auth`` → ``auth_ok``/``auth_invalid``,
then commands with increasing ids: ``get_states``, ``get_config``, ``get_services``,
``call_service``, ``subscribe_events``/``unsubscribe_events`` (``state_changed``
events), ``subscribe_entities`` (HA's compressed states and diffs), the area,
device and entity registries (``config/*_registry/list``), ``ping``,
``supported_features``; answers are ``result`` messages with the
command's id. A bad request is a JSON error message, never a traceback.
"""

from __future__ import annotations

import hmac
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from aiohttp import WSMsgType, web

from devicesworld import jsonl
from devicesworld.serve.homeassistant.hub import CallOutcome, HomeHub
from devicesworld.serve.homeassistant.services import services_catalog

HA_VERSION = "2025.12.0"
LOOPBACK = "127.0.0.1"
MATCH_ALL = "*"

REGISTRY_COMMANDS = {
    "config/area_registry/list": "areas",
    "config/device_registry/list": "devices",
    "config/entity_registry/list": "entities",
}

EventSink = Callable[[dict[str, Any]], Awaitable[None]]

HUB_KEY = web.AppKey("hub", HomeHub)
TOKEN_KEY = web.AppKey("token", str)
BUS_KEY: web.AppKey[EventBus] = web.AppKey("bus")


class EventBus:
    """WebSocket subscriptions; every service call's events are published to the matching ones."""

    def __init__(self) -> None:
        self._subs: dict[int, tuple[str, EventSink]] = {}
        self._next = 0

    def subscribe(self, event_type: str, sink: EventSink) -> int:
        self._next += 1
        self._subs[self._next] = (event_type, sink)
        return self._next

    def unsubscribe(self, token: int) -> None:
        self._subs.pop(token, None)

    async def publish(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            for event_type, sink in list(self._subs.values()):
                if event_type in (MATCH_ALL, event["event_type"]):
                    try:
                        await sink(event)
                    except (ConnectionError, RuntimeError):  # a client that went away
                        continue


def ha_config(hub: HomeHub) -> dict[str, Any]:
    """``/api/config`` as HA answers it (metric units, the home's name, UTC: the virtual clock's zone)."""
    return {
        "allowlist_external_dirs": [],
        "allowlist_external_urls": [],
        "components": sorted({"api", "websocket_api", STEP_COMPONENT, *hub.domains()}),
        "config_dir": "/config",
        "config_source": "storage",
        "country": None,
        "currency": "EUR",
        "debug": False,
        "elevation": 0,
        "external_url": None,
        "internal_url": None,
        "language": "en",
        "latitude": 0.0,
        "location_name": hub.home_name,
        "longitude": 0.0,
        "radius": 100,
        "recovery_mode": False,
        "safe_mode": False,
        "state": "RUNNING",
        "time_zone": "UTC",
        "unit_system": {
            "length": "km",
            "accumulated_precipitation": "mm",
            "area": "m²",
            "mass": "g",
            "pressure": "Pa",
            "temperature": "°C",
            "volume": "L",
            "wind_speed": "m/s",
        },
        "version": HA_VERSION,
        "whitelist_external_dirs": [],
    }


STEP_COMPONENT = "devicesworld"


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(
        data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False, default=str)
    )


def _message(text: str, status: int) -> web.Response:
    return _json({"message": text}, status)


def _timestamp(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def _compressed_context(context: dict[str, Any]) -> Any:
    return context["id"] if context.get("parent_id") is None and context.get("user_id") is None else context


def compressed_state(state: dict[str, Any]) -> dict[str, Any]:
    """A state in HA's compressed form (``s``, ``a``, ``c``, ``lc``, and ``lu`` when it differs)."""
    out = {
        "s": state["state"],
        "a": state["attributes"],
        "c": _compressed_context(state["context"]),
        "lc": _timestamp(state["last_changed"]),
    }
    if state["last_updated"] != state["last_changed"]:
        out["lu"] = _timestamp(state["last_updated"])
    return out


def compressed_diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """HA's compressed state change: additions under ``+``, removed attribute names under ``-``."""
    plus: dict[str, Any] = {}
    if old["state"] != new["state"]:
        plus["s"] = new["state"]
    if old["last_changed"] != new["last_changed"]:
        plus["lc"] = _timestamp(new["last_changed"])
    elif old["last_updated"] != new["last_updated"]:
        plus["lu"] = _timestamp(new["last_updated"])
    if old["context"] != new["context"]:
        plus["c"] = _compressed_context(new["context"])
    changed = {k: v for k, v in new["attributes"].items() if old["attributes"].get(k, object()) != v}
    if changed:
        plus["a"] = changed
    diff: dict[str, Any] = {"+": plus}
    removed = [k for k in old["attributes"] if k not in new["attributes"]]
    if removed:
        diff["-"] = {"a": removed}
    return diff


# --------------------------------------------------------------------------- middlewares
@web.middleware
async def _errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status >= 400:
            return _message(f"{exc.status}: {exc.reason}", exc.status)
        raise
    except Exception as exc:  # a bug: a one-line message, no traceback to the client
        print(
            f"homeassistant facade: {request.method} {request.path}: {type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
        return _message(f"internal error: {type(exc).__name__}: {exc}", 500)


@web.middleware
async def _auth(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    if request.path != "/api/websocket":
        header = request.headers.get("Authorization", "")
        expected = f"Bearer {request.app[TOKEN_KEY]}"
        if not hmac.compare_digest(header.encode(), expected.encode()):
            return web.Response(status=401, text="401: Unauthorized", content_type="text/plain")
    return await handler(request)


# ----------------------------------------------------------------------------- REST
async def _api(request: web.Request) -> web.Response:
    return _message("API running.", 200)


async def _config(request: web.Request) -> web.Response:
    return _json(ha_config(request.app[HUB_KEY]))


async def _components(request: web.Request) -> web.Response:
    return _json(ha_config(request.app[HUB_KEY])["components"])


async def _states(request: web.Request) -> web.Response:
    hub = request.app[HUB_KEY]
    return _json(await hub.host.run(lambda _s: hub.all_states()))


async def _state(request: web.Request) -> web.Response:
    hub = request.app[HUB_KEY]
    entity_id = request.match_info["entity_id"]
    state = await hub.host.run(lambda _s: hub.state_of(entity_id))
    if state is None:
        return _message("Entity not found.", 404)
    return _json(state)


async def _set_state(request: web.Request) -> web.Response:
    return _message(
        "States are the simulated devices' own and cannot be written; call a service instead.", 405
    )


def present_services(hub: HomeHub) -> dict[str, dict[str, Any]]:
    """The service catalog of the domains this home has (plus ``homeassistant`` and ``devicesworld``)."""
    present = {*hub.domains(), "homeassistant", STEP_COMPONENT}
    return {d: s for d, s in services_catalog(hub.debug_evaluate).items() if d in present}


async def _services(request: web.Request) -> web.Response:
    return _json([{"domain": d, "services": s} for d, s in present_services(request.app[HUB_KEY]).items()])


async def _call(request: web.Request) -> web.Response:
    hub, bus = request.app[HUB_KEY], request.app[BUS_KEY]
    body = await request.read()
    try:
        data = jsonl.parse_body(body, empty={})
    except jsonl.BodyError:  # also a body nested too deeply (a 400, never a RecursionError)
        return _message("Data should be valid JSON.", 400)
    if not isinstance(data, dict):
        return _message("Data should be a JSON object.", 400)
    want_response = "return_response" in request.query
    domain, service = request.match_info["domain"], request.match_info["service"]
    outcome = await hub.host.run(
        lambda _s: hub.call_now(domain, service, data, return_response=want_response)
    )
    await bus.publish(outcome.events)
    if outcome.error is not None:
        return _message(
            outcome.error.message, 404 if outcome.error.code == "not_found" else outcome.error.status
        )
    if want_response:
        return _json({"changed_states": outcome.changed, "service_response": outcome.response})
    return _json(outcome.changed)


# ------------------------------------------------------------------------ WebSocket
class _Connection:
    """One authenticated WebSocket client: its commands, ids and subscriptions."""

    def __init__(self, ws: web.WebSocketResponse, hub: HomeHub, bus: EventBus) -> None:
        self.ws, self.hub, self.bus = ws, hub, bus
        self.last_id = 0
        self.subs: dict[int, int] = {}

    async def send(self, message: dict[str, Any]) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(message, ensure_ascii=False, default=str))

    async def result(self, msg_id: Any, result: Any = None) -> None:
        await self.send({"id": msg_id, "type": "result", "success": True, "result": result})

    async def error(self, msg_id: Any, code: str, message: str) -> None:
        await self.send(
            {"id": msg_id, "type": "result", "success": False, "error": {"code": code, "message": message}}
        )

    async def handle(self, raw: str) -> None:
        try:
            msg = jsonl.parse_body(raw)
        except jsonl.BodyError:
            await self.error(None, "invalid_format", "Message incorrectly formatted: not JSON.")
            return
        if (
            not isinstance(msg, dict)
            or not isinstance(msg.get("id"), int)
            or not isinstance(msg.get("type"), str)
        ):
            msg_id = msg.get("id") if isinstance(msg, dict) else None
            await self.error(
                msg_id, "invalid_format", "Message incorrectly formatted: needs an integer id and a type."
            )
            return
        msg_id = msg["id"]
        if msg_id <= self.last_id:
            await self.error(msg_id, "id_reuse", "Identifier values have to increase.")
            return
        self.last_id = msg_id
        command = msg["type"]
        hub = self.hub
        if command == "ping":
            await self.send({"id": msg_id, "type": "pong"})
        elif command == "get_states":
            await self.result(msg_id, await hub.host.run(lambda _s: hub.all_states()))
        elif command == "get_config":
            await self.result(msg_id, ha_config(hub))
        elif command == "get_services":
            await self.result(msg_id, present_services(hub))
        elif command in REGISTRY_COMMANDS:
            registries = await hub.host.run(lambda _s: hub.registries())
            await self.result(msg_id, registries[REGISTRY_COMMANDS[command]])
        elif command == "config/entity_registry/get":
            entries = (await hub.host.run(lambda _s: hub.registries()))["entities"]
            entry = next((e for e in entries if e["entity_id"] == msg.get("entity_id")), None)
            if entry is None:
                await self.error(msg_id, "not_found", "Entity not found")
            else:
                await self.result(msg_id, entry)
        elif command == "supported_features":
            await self.result(msg_id)
        elif command == "subscribe_events":
            event_type = msg.get("event_type") or MATCH_ALL
            if not isinstance(event_type, str):
                await self.error(msg_id, "invalid_format", "event_type must be a string")
                return
            self.subs[msg_id] = self.bus.subscribe(event_type, self._sink(msg_id))
            await self.result(msg_id)
        elif command == "subscribe_entities":
            await self._subscribe_entities(msg_id, msg.get("entity_ids"))
        elif command == "unsubscribe_events":
            token = self.subs.pop(msg.get("subscription", -1), None)
            if token is None:
                await self.error(msg_id, "not_found", "Subscription not found.")
                return
            self.bus.unsubscribe(token)
            await self.result(msg_id)
        elif command == "call_service":
            await self._call_service(msg_id, msg)
        else:
            await self.error(msg_id, "unknown_command", f"Unknown command {command!r}.")

    async def _subscribe_entities(self, msg_id: int, entity_ids: Any) -> None:
        """HA's compressed entity subscription: all matching states now, then diffs as they change."""
        if entity_ids is not None and (
            not isinstance(entity_ids, list) or not all(isinstance(e, str) for e in entity_ids)
        ):
            await self.error(msg_id, "invalid_format", "entity_ids must be a list of strings")
            return
        wanted = None if entity_ids is None else set(entity_ids)
        hub = self.hub
        states = await hub.host.run(lambda _s: hub.all_states())

        async def sink(event: dict[str, Any]) -> None:
            data = event["data"]
            if wanted is None or data["entity_id"] in wanted:
                diff = compressed_diff(data["old_state"], data["new_state"])
                await self.send({"id": msg_id, "type": "event", "event": {"c": {data["entity_id"]: diff}}})

        self.subs[msg_id] = self.bus.subscribe("state_changed", sink)
        await self.result(msg_id)
        initial = {
            s["entity_id"]: compressed_state(s) for s in states if wanted is None or s["entity_id"] in wanted
        }
        await self.send({"id": msg_id, "type": "event", "event": {"a": initial}})

    def _sink(self, sub_id: int) -> EventSink:
        async def sink(event: dict[str, Any]) -> None:
            await self.send({"id": sub_id, "type": "event", "event": event})

        return sink

    async def _call_service(self, msg_id: int, msg: dict[str, Any]) -> None:
        data, target = msg.get("service_data") or {}, msg.get("target")
        if not isinstance(data, dict) or (target is not None and not isinstance(target, dict)):
            await self.error(msg_id, "invalid_format", "service_data and target must be objects")
            return
        domain, service = str(msg.get("domain", "")), str(msg.get("service", ""))
        want_response = bool(msg.get("return_response", False))
        outcome: CallOutcome = await self.hub.host.run(
            lambda _s: self.hub.call_now(domain, service, data, target, return_response=want_response)
        )
        await self.bus.publish(outcome.events)
        if outcome.error is not None:
            await self.error(msg_id, outcome.error.code, outcome.error.message)
            return
        await self.result(msg_id, {"context": outcome.context, "response": outcome.response})

    def close(self) -> None:
        for token in self.subs.values():
            self.bus.unsubscribe(token)
        self.subs.clear()


async def _websocket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
    await ws.prepare(request)
    await ws.send_json({"type": "auth_required", "ha_version": HA_VERSION})
    try:
        first = await ws.receive(timeout=60)
    except TimeoutError:
        await ws.close()
        return ws
    auth: Any = None
    if first.type == WSMsgType.TEXT:
        try:
            auth = jsonl.parse_body(first.data)
        except jsonl.BodyError:
            auth = None
    token = request.app[TOKEN_KEY]
    if not isinstance(auth, dict) or auth.get("type") != "auth":
        await ws.send_json({"type": "auth_invalid", "message": "Auth message incorrectly formatted."})
        await ws.close()
        return ws
    given = auth.get("access_token")
    if not isinstance(given, str) or not hmac.compare_digest(given.encode(), token.encode()):
        await ws.send_json({"type": "auth_invalid", "message": "Invalid access token or password"})
        await ws.close()
        return ws
    await ws.send_json({"type": "auth_ok", "ha_version": HA_VERSION})
    conn = _Connection(ws, request.app[HUB_KEY], request.app[BUS_KEY])
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await conn.handle(msg.data)
            elif msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                break
            else:
                await conn.error(None, "invalid_format", "Only text messages are accepted.")
    finally:
        conn.close()
    return ws


def create_app(hub: HomeHub, token: str) -> web.Application:
    """The aiohttp application; start the hub (``await hub.start()``) before serving."""
    if not token:
        raise ValueError("a non-empty token is required")
    app = web.Application(middlewares=[_errors, _auth])
    app[HUB_KEY] = hub
    app[TOKEN_KEY] = token
    app[BUS_KEY] = EventBus()
    app.router.add_get("/api/", _api)
    app.router.add_get("/api/config", _config)
    app.router.add_get("/api/components", _components)
    app.router.add_get("/api/states", _states)
    app.router.add_get("/api/states/{entity_id}", _state)
    app.router.add_post("/api/states/{entity_id}", _set_state)
    app.router.add_get("/api/services", _services)
    app.router.add_post("/api/services/{domain}/{service}", _call)
    app.router.add_get("/api/websocket", _websocket)
    return app


async def start_site(app: web.Application, port: int) -> web.AppRunner:
    """Serve ``app`` on ``127.0.0.1:<port>`` in the running loop; ``await runner.cleanup()`` stops it."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, LOOPBACK, port).start()
    return runner


def serve_forever(app: web.Application, port: int) -> None:
    """Serve on loopback until Ctrl-C or SIGTERM."""
    web.run_app(app, host=LOOPBACK, port=port, print=None, access_log=None, handle_signals=True)
