"""The Home Assistant facade's core: entity states with HA's timestamps, service calls as steps, events.

A service call becomes the ``control_device`` (or ``advance_time``, ``create_schedule``,
``finish``, ...) steps a native agent would send, through the same :class:`SessionHost`
path, so they are counted, recorded in ``steps.jsonl`` (``agent_notes`` name the HA
service and entity) and seen by the verifiers. Reading states is free, as reading a
phone's screen is: it is the observation, not an action. After every call the hub
recomputes every entity and turns each difference into a ``state_changed`` event
(``last_changed`` moves when the state string changes, ``last_updated`` when anything
does), timestamped with the virtual clock. Methods ending in ``_now`` run on the
session's thread; the async wrappers queue them there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from devicesworld.devices.smarthome.catalog import CATEGORIES
from devicesworld.devices.smarthome.errors import SmartHomeError
from devicesworld.serve.homeassistant.entities import Entity, build_entities, entity_state, ha_time
from devicesworld.serve.homeassistant.services import (
    ServiceError,
    check_fields,
    find_service,
    schedule_command,
    translate,
)
from devicesworld.serve.host import SessionHost
from devicesworld.serve.verdicts import NOT_COMPARABLE_HA, names_only

HOME_KIND = "smarthome"
"""The kind this facade serves: Home Assistant's API is a view of the smart home."""

STEP_DOMAIN = "devicesworld"


@dataclass
class StateRecord:
    state: str
    attributes: dict[str, Any]
    last_changed: str
    last_updated: str
    context: dict[str, Any]

    def as_dict(self, entity_id: str) -> dict[str, Any]:
        return {
            "entity_id": entity_id,
            "state": self.state,
            "attributes": dict(self.attributes),
            "last_changed": self.last_changed,
            "last_reported": self.last_updated,
            "last_updated": self.last_updated,
            "context": dict(self.context),
        }


@dataclass
class CallOutcome:
    """What a service call did: changed states, state_changed events, its response, or its error."""

    context: dict[str, Any]
    changed: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    response: Any = None
    error: ServiceError | None = None


class HomeHub:
    """One smarthome device of a running task, as Home Assistant sees it."""

    def __init__(
        self,
        host: SessionHost,
        device_id: str,
        *,
        location_name: str | None = None,
        debug_evaluate: bool = False,
    ) -> None:
        self.host = host
        self.debug_evaluate = debug_evaluate
        """``devicesworld.evaluate`` is offered (condition ids only) and the run marked not comparable."""
        self.device_id = device_id
        self.entities: dict[str, Entity] = {}
        self.states: dict[str, StateRecord] = {}
        self.home_name = location_name or "DevicesWorld home"
        self._contexts = 0
        self.pressed: dict[str, str] = {}
        """A button entity's last press (HA's ISO time, virtual clock): its state, as in HA."""

    # ----------------------------------------------------------------- state
    def _view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.host.session.getter_for(self.device_id)("state", {})
        return view

    def new_context(self) -> dict[str, Any]:
        self._contexts += 1
        return {"id": f"{self._contexts:026X}", "parent_id": None, "user_id": None}

    def start_now(self) -> None:
        """Take the first snapshot (after setup); no events. With ``debug_evaluate`` the run is marked
        not comparable here, before the client can call anything."""
        if self.debug_evaluate:
            self.host.session.mark_not_comparable(NOT_COMPARABLE_HA)
        view = self._view()
        self.home_name = str(view.get("home") or self.home_name)
        self.refresh_now(self.new_context(), view)

    def refresh_now(
        self, context: dict[str, Any], view: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Recompute every entity; the ``state_changed`` events for what changed since the last call."""
        if (
            self.host.result is not None
        ):  # the episode is over: the devices are closed, states stay as they were
            return []
        view = view if view is not None else self._view()
        now = ha_time(str(view["time"]))
        self.entities = build_entities(view)
        events: list[dict[str, Any]] = []
        for entity_id, entity in self.entities.items():
            state, attributes = entity_state(entity, view)
            if entity.part.startswith("button:"):
                state = self.pressed.get(entity_id, state)
            old = self.states.get(entity_id)
            if old is not None and old.state == state and old.attributes == attributes:
                continue
            changed = old is None or old.state != state
            new = StateRecord(
                state,
                attributes,
                now if changed or old is None else old.last_changed,
                now,
                dict(context),
            )
            self.states[entity_id] = new
            if old is not None:
                events.append(
                    {
                        "event_type": "state_changed",
                        "data": {
                            "entity_id": entity_id,
                            "old_state": old.as_dict(entity_id),
                            "new_state": new.as_dict(entity_id),
                        },
                        "origin": "LOCAL",
                        "time_fired": now,
                        "context": dict(context),
                    }
                )
        return events

    def all_states(self) -> list[dict[str, Any]]:
        return [record.as_dict(entity_id) for entity_id, record in self.states.items()]

    def state_of(self, entity_id: str) -> dict[str, Any] | None:
        record = self.states.get(entity_id)
        return None if record is None else record.as_dict(entity_id)

    def domains(self) -> list[str]:
        return sorted({e.domain for e in self.entities.values()})

    # ------------------------------------------------------------------ calls
    def call_now(
        self,
        domain: str,
        service: str,
        data: Mapping[str, Any] | None,
        target: Mapping[str, Any] | None = None,
        *,
        return_response: bool = False,
    ) -> CallOutcome:
        """Run one service call (never raises: a refusal is the outcome's ``error``)."""
        context = self.new_context()
        outcome = CallOutcome(context=context)
        try:
            outcome.response = self._dispatch(
                domain, service, dict(data or {}), target, return_response, context
            )
        except ServiceError as err:
            outcome.error = err
        outcome.events = self.refresh_now(context)
        outcome.changed = [e["data"]["new_state"] for e in outcome.events]
        return outcome

    def _dispatch(
        self,
        domain: str,
        service: str,
        data: dict[str, Any],
        target: Mapping[str, Any] | None,
        return_response: bool,
        context: dict[str, Any],
    ) -> Any:
        if not isinstance(domain, str) or not isinstance(service, str):
            raise ServiceError("invalid_format", "domain and service must be strings")
        decl = find_service(domain, service, debug_evaluate=self.debug_evaluate)
        if decl.response == "only" and not return_response:
            raise ServiceError(
                "service_validation_error",
                "Service call requires responses but caller did not ask for responses",
            )
        if decl.response is None and return_response:
            raise ServiceError(
                "service_validation_error",
                "Service does not support responses. Remove return_response from request.",
            )
        if domain == STEP_DOMAIN and service == "evaluate":
            return names_only(self.host.verdict_now())
        if self.host.result is not None:
            raise ServiceError(
                "home_assistant_error", f"the episode has ended ({self.host.result.termination})"
            )
        targets = _target_ids(data, target) if decl.entity_domains else {}
        check_fields(domain, service, decl, data)
        notes = {"via": "homeassistant", "service": f"{domain}.{service}"}
        if domain == STEP_DOMAIN:
            return self._custom(service, data, notes)
        entity_ids = self._resolve(targets, decl.entity_domains)
        if not entity_ids:
            raise ServiceError(
                "service_validation_error",
                f"{domain}.{service} needs an entity_id, area_id or device_id target",
            )
        missing = [e for e in entity_ids if e not in self.entities]
        if missing:
            raise ServiceError(
                "service_validation_error",
                f"Referenced entities {', '.join(missing)} are missing or not currently available",
            )
        view = self._view()
        plans = []
        for entity_id in entity_ids:  # translate every entity before running anything
            entity = self.entities[entity_id]
            attrs = view["devices"][entity.device_id]["attributes"] if entity.device_id else None
            commands = translate(domain, service, entity, data, attrs)
            _validate(entity, commands)
            plans.append((entity, commands))
        for entity, commands in plans:
            for command, params in commands:
                self._step(
                    {
                        "device": self.device_id,
                        "action": "control_device",
                        "args": {"device_id": entity.device_id, "command": command, "params": params},
                    },
                    {**notes, "entity_id": entity.entity_id},
                )
            if domain == "button":
                self.pressed[entity.entity_id] = ha_time(str(self._view()["time"]))
        return None

    def _step(self, action: Mapping[str, Any], notes: Mapping[str, Any]) -> Any:
        outcome = self.host.step_now(action, notes)
        if not outcome.result.ok:
            code = outcome.result.error_code or "ERROR"
            raise ServiceError("home_assistant_error", f"{outcome.result.message} ({code})")
        return outcome.result.data

    def _custom(self, service: str, data: dict[str, Any], notes: Mapping[str, Any]) -> Any:
        if service == "advance_time":
            return self._step(
                {"device": self.device_id, "action": "advance_time", "args": {"minutes": data["minutes"]}},
                notes,
            )
        if service == "cancel_schedule":
            return self._step(
                {
                    "device": self.device_id,
                    "action": "cancel_schedule",
                    "args": {"schedule_id": data["schedule_id"]},
                },
                notes,
            )
        if service == "finish":
            return self._step({"action": "finish", "args": {}}, notes)
        if service == "report_infeasible":
            return self._step({"action": "report_infeasible", "args": {"reason": data["reason"]}}, notes)
        assert service == "schedule"
        return self._step(
            {"device": self.device_id, "action": "create_schedule", "args": self._schedule_args(data)}, notes
        )

    def _resolve(self, targets: Mapping[str, list[str]], domains: tuple[str, ...]) -> list[str]:
        """The entity ids a target names: entities as given (``all``: every one of the service's
        domains), and the service's entities in the named areas (rooms) or devices, as HA expands them."""
        controllable = {e: ent for e, ent in self.entities.items() if ent.domain in domains and ent.device_id}
        ids: list[str] = []
        for entity_id in targets.get("entity_id", []):
            ids += list(controllable) if entity_id == "all" else [entity_id]
        rooms = {ent.room for ent in self.entities.values()}
        devices = {ent.device_id for ent in self.entities.values()}
        for key, known in (("area_id", rooms), ("device_id", devices)):
            for name in targets.get(key, []):
                if name not in known:
                    raise ServiceError(
                        "service_validation_error", f"no {key.split('_')[0]} {name!r} in this home"
                    )
                field = "room" if key == "area_id" else "device_id"
                ids += [e for e, ent in controllable.items() if getattr(ent, field) == name]
        return list(dict.fromkeys(ids))

    def registries(self) -> dict[str, list[dict[str, Any]]]:
        """HA's area, device and entity registries: rooms are areas, home devices are devices."""
        view = self._view() if self.host.result is None else None
        rooms = sorted({ent.room for ent in self.entities.values() if ent.room})
        areas: list[dict[str, Any]] = [
            {
                "area_id": r,
                "name": r.replace("_", " ").title(),
                "aliases": [],
                "floor_id": None,
                "icon": None,
                "labels": [],
                "picture": None,
            }
            for r in rooms
        ]
        devices: dict[str, dict[str, Any]] = {}
        for ent in self.entities.values():
            if ent.device_id and ent.device_id not in devices:
                name = view["devices"][ent.device_id]["name"] if view else ent.device_id
                devices[ent.device_id] = {
                    "id": ent.device_id,
                    "name": name,
                    "name_by_user": None,
                    "area_id": ent.room,
                    "manufacturer": "DevicesWorld",
                    "model": ent.category,
                    "identifiers": [["devicesworld", ent.device_id]],
                    "config_entries": [],
                    "connections": [],
                    "disabled_by": None,
                    "entry_type": None,
                    "via_device_id": None,
                    "labels": [],
                }
        entities: list[dict[str, Any]] = [
            {
                "entity_id": e,
                "id": e,
                "unique_id": e,
                "platform": "devicesworld",
                "device_id": ent.device_id,
                "area_id": None if ent.device_id else ent.room,
                "name": None,
                "icon": None,
                "disabled_by": None,
                "hidden_by": None,
                "entity_category": None,
                "has_entity_name": False,
                "labels": [],
                "options": {},
                "translation_key": None,
                "config_entry_id": None,
            }
            for e, ent in self.entities.items()
        ]
        return {"areas": areas, "devices": list(devices.values()), "entities": entities}

    def _entity(self, entity_id: Any) -> Entity:
        entity = self.entities.get(entity_id) if isinstance(entity_id, str) else None
        if entity is None or entity.device_id is None:
            raise ServiceError("service_validation_error", f"no device entity {entity_id!r}")
        return entity

    def _schedule_args(self, data: Mapping[str, Any]) -> dict[str, Any]:
        entity = self._entity(data["entity_id"])
        service = data["service"]
        if not isinstance(service, str) or not service:
            raise ServiceError("service_validation_error", "service must be a name such as 'turn_off'")
        domain, _, name = service.rpartition(".")
        payload = data.get("data") or {}
        if not isinstance(payload, dict):
            raise ServiceError("service_validation_error", "data must be an object")
        decl = find_service(domain or entity.domain, name)
        check_fields(domain or entity.domain, name, decl, payload)
        command, params = schedule_command(domain or entity.domain, name, entity, payload)
        args: dict[str, Any] = {"device_id": entity.device_id, "command": command, "params": params}
        triggers = [k for k in ("at", "delay_minutes", "after_event") if data.get(k) is not None]
        if len(triggers) != 1:
            raise ServiceError(
                "service_validation_error", "give exactly one of at, delay_minutes, after_event"
            )
        if triggers[0] == "after_event":
            event = data["after_event"]
            if not isinstance(event, dict) or "event" not in event:
                raise ServiceError(
                    "service_validation_error", "after_event needs {entity_id, event, delay_minutes?}"
                )
            source = self._entity(event.get("entity_id", data["entity_id"]))
            args["after_event"] = {
                "device_id": source.device_id,
                "event": event["event"],
                "delay_minutes": event.get("delay_minutes", 0),
            }
        else:
            args[triggers[0]] = data[triggers[0]]
        return args

    # ------------------------------------------------------------------ async
    async def start(self) -> None:
        await self.host.run(lambda _s: self.start_now())


def _validate(entity: Entity, commands: list[tuple[str, dict[str, Any]]]) -> None:
    """Check parameters against the device's declared ranges before anything runs, as HA's
    service schemas do (so an out-of-range temperature does not first switch the AC on)."""
    assert entity.category is not None and entity.device_id is not None
    category = CATEGORIES[entity.category]
    for command, params in commands:
        spec = category.commands.get(command)
        if spec is None:
            raise ServiceError("service_validation_error", f"{entity.entity_id} does not support {command}")
        try:
            spec.validate(dict(params), entity.device_id)
        except SmartHomeError as err:
            raise ServiceError("service_validation_error", f"{err.message} ({err.code})") from None


TARGET_KEYS = ("entity_id", "area_id", "device_id")


def _target_ids(data: dict[str, Any], target: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """``entity_id``/``area_id``/``device_id`` from the data and the ``target`` (HA accepts both;
    each a string, a comma-separated string or a list); they are removed from ``data``."""
    if target is not None and not isinstance(target, Mapping):
        raise ServiceError("invalid_format", "target must be an object")
    unsupported = set(target or {}) - set(TARGET_KEYS)
    if unsupported:
        raise ServiceError(
            "service_validation_error",
            f"targets are entity_id, area_id (a room) or device_id; not {', '.join(sorted(unsupported))}",
        )
    out: dict[str, list[str]] = {}
    for key in TARGET_KEYS:
        ids: list[str] = []
        for value in (data.pop(key, None), (target or {}).get(key)):
            if value is None:
                continue
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                raise ServiceError("service_validation_error", f"{key} must be a string or a list of strings")
            ids += [i.strip() for item in items for i in item.split(",") if i.strip()]
        out[key] = ids
    return out
