"""System UI: launcher, navigation, back stack, focus and keyboard, scrolling, errors, notifications."""

from __future__ import annotations

from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task


def _contacts(n: int) -> list[tuple[str, dict[str, object]]]:
    return [("add_contact", {"name": f"Person {i:03d}", "phone": f"+1555{i:07d}"}) for i in range(n)]


def test_launcher_lists_apps_and_opens_one() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        obs = d.obs()
        assert obs["foreground_app"] == "com.google.android.apps.nexuslauncher"
        d.tap(text="Clock")
        assert d.obs()["foreground_app"] == "com.google.android.deskclock"


def test_element_fields_follow_androidworld() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        el = Driver(env).elements()[0]
        assert set(el) >= {
            "text", "content_description", "class_name", "bbox", "bbox_pixels", "hint_text", "is_checked",
            "is_checkable", "is_clickable", "is_editable", "is_enabled", "is_focused", "is_focusable",
            "is_long_clickable", "is_scrollable", "is_selected", "is_visible", "package_name", "resource_id",
        }  # fmt: skip


def test_back_stack_and_home() -> None:
    with CrossDeviceEnv(phone_task(_contacts(1))) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Contacts")
        d.tap(text="Person 000")
        assert d.obs()["foreground_activity"].endswith(".view")
        d.do("navigate_back")
        assert d.obs()["foreground_activity"].endswith(".main")
        d.do("navigate_home")
        assert d.obs()["foreground_app"].endswith("nexuslauncher")
        d.do("open_app", app_name="Contacts")  # resumes where it was
        assert d.obs()["foreground_activity"].endswith(".main")
        d.do("navigate_back")
        assert d.obs()["foreground_app"].endswith("nexuslauncher")


def test_recents_switches_apps() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Clock")
        d.do("open_app", app_name="Settings")
        assert d.do("navigate_recents").ok
        d.tap(text="Clock")
        assert d.obs()["foreground_app"] == "com.google.android.deskclock"


def test_clear_failures() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        stale = d.do("click", index=999)
        assert not stale.ok and stale.error_code == "STALE_INDEX"
        typed = d.do("input_text", text="hello")
        assert not typed.ok and typed.error_code == "NO_FOCUS"
        enter = d.do("keyboard_enter")
        assert not enter.ok and enter.error_code == "NO_FOCUS"
        assert d.do("navigate_home").ok
        # the launcher's top spacer: nothing reacts there
        nothing = d.do("click", x=5, y=d.obs()["screen_size"][1] * 0.06)
        assert not nothing.ok and nothing.error_code == "NOTHING_THERE"
        outside = d.do("click", x=10_000, y=10)
        assert not outside.ok and outside.error_code == "OUT_OF_SCREEN"
        bad = env.step({"device": "android_0", "action": "click", "args": {}})
        assert not bad.result.ok and bad.result.error_code == "INVALID_ARGS"
        unknown = d.do("open_app", app_name="Tetris")
        assert not unknown.ok and "installed" in unknown.message
        label = d.do("click", index=d.find(rid="clock"))
        assert not label.ok and label.error_code == "NOT_CLICKABLE"


def test_focus_keyboard_and_back_closes_keyboard_first() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Contacts")
        d.tap(rid="floating_action_button")
        d.tap(rid="editor_first")
        obs = d.obs()
        assert obs["keyboard_visible"]
        focused = [e for e in obs["ui_elements"] if e["is_focused"]]
        assert len(focused) == 1 and focused[0]["resource_id"].endswith("editor_first")
        assert d.do("input_text", text="Zed").ok
        assert d.do("input_text", text="a").ok  # appends
        assert d.elements()[d.find(rid="editor_first")]["text"] == "Zeda"
        assert d.do("input_text", text="Zoe", clear=True).ok
        d.do("navigate_back")
        assert not d.obs()["keyboard_visible"]
        assert d.obs()["foreground_activity"].endswith(".edit")


def test_long_list_shows_only_what_fits_and_scrolls() -> None:
    with CrossDeviceEnv(phone_task(_contacts(40))) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Contacts")
        assert d.has(text="Person 000") and not d.has(text="Person 039")
        lst = d.elements()[d.find(rid="contact_list")]
        assert lst["is_scrollable"]
        for _ in range(10):
            d.do("scroll", direction="down")
        assert d.has(text="Person 039") and not d.has(text="Person 000")
        assert "bottom" in d.do("scroll", direction="down").message
        d.do("swipe", direction="down")  # finger down = content up
        assert not d.has(text="Person 039") or d.has(text="Person 010")


def test_rows_that_fit_depend_on_the_screen_in_dp() -> None:
    counts = {}
    for device in ("pixel_3", "wxga_tablet"):
        with CrossDeviceEnv(phone_task(_contacts(40), profile={"device": device})) as env:
            env.reset()
            d = Driver(env)
            d.do("open_app", app_name="Contacts")
            counts[device] = sum(1 for e in d.elements() if (e["text"] or "").startswith("Person"))
    # the landscape tablet is 800 dp tall, a Pixel 3 785 dp: the same list fits a row more or so
    assert counts["wxga_tablet"] >= counts["pixel_3"] > 3


def test_density_scales_pixels() -> None:
    boxes = {}
    for device in ("pixel_3", "pixel_4_xl"):
        with CrossDeviceEnv(phone_task(profile={"device": device})) as env:
            env.reset()
            d = Driver(env)
            box = d.elements()[d.find(desc="Home")]["bbox_pixels"]
            boxes[device] = box["y_max"] - box["y_min"]
    assert (
        boxes["pixel_4_xl"] / boxes["pixel_3"] == 560 / 440
        or abs(boxes["pixel_4_xl"] / boxes["pixel_3"] - 560 / 440) < 0.05
    )


def test_gesture_tap_and_notification_shade() -> None:
    setup = [("incoming_sms", {"address": "+15550111", "body": "Your code is 7781"})]
    with CrossDeviceEnv(phone_task(setup)) as env:
        env.reset()
        d = Driver(env)
        el = d.elements()[d.find(text="Messages")]["bbox"]
        y, x = (el["y_min"] + el["y_max"]) / 2, (el["x_min"] + el["x_max"]) / 2
        assert d.do("gesture", touch_point=[y, x], lift_point=[y, x]).ok
        assert d.obs()["foreground_app"] == "com.simplemobiletools.smsmessenger"
        d.do("navigate_home")
        assert d.do("gesture", touch_point=[0.01, 0.5], lift_point=[0.6, 0.5]).ok
        assert d.obs()["foreground_app"] == "com.android.systemui"
        d.tap(text="Your code is 7781")
        assert d.obs()["foreground_activity"].endswith(".thread")
        assert d.get("notifications") == []


def test_delayed_message_arrives_after_wait() -> None:
    setup = [("incoming_sms", {"address": "+15550111", "body": "later", "delay_seconds": 60})]
    with CrossDeviceEnv(phone_task(setup)) as env:
        env.reset()
        d = Driver(env)
        assert d.get("sms") == []
        d.do("wait", seconds=61)
        assert [m["body"] for m in d.get("sms")] == ["later"]
        assert "Notifications: 1" in d.screen()


def test_quick_settings_toggle_airplane() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("swipe", direction="down", from_edge=True)
        d.tap(rid="tile_airplane_mode_on")
        s = d.get("settings")["global"]
        assert s["airplane_mode_on"] == "1" and s["wifi_on"] == "0"


def test_texts_between_phones_of_a_task_arrive() -> None:
    with CrossDeviceEnv(phone_task(devices=2)) as env:
        env.reset()
        a, b = Driver(env, "android_0"), Driver(env, "android_1")
        a.do("open_app", app_name="Settings")
        a.tap(rid="about")
        assert a.has(text="+15551000")
        a.do("open_app", app_name="Messages")
        a.tap(rid="conversations_fab")
        a.type("+15551001", rid="new_conversation_address")
        a.tap(rid="new_conversation_confirm")
        a.type("ping", rid="thread_type_message")
        a.tap(rid="thread_send_message")
        inbox = [m for m in b.get("sms") if m["box"] == "inbox"]
        assert [(m["address"], m["body"]) for m in inbox] == [("+15551000", "ping")]
        assert "Notifications: 1" in b.screen()
        assert all(m["box"] == "sent" for m in a.get("sms"))


def test_alarms_ring_in_virtual_time() -> None:
    setup = [("add_alarm", {"hour": 9, "minute": 30, "label": "Stretch"}),
             ("add_alarm", {"hour": 9, "minute": 45, "days": ["tue"]})]  # fmt: skip
    with CrossDeviceEnv(phone_task(setup)) as env:  # Monday 09:00
        env.reset()
        d = Driver(env)
        d.do("wait", seconds=3600)
        notes = d.get("notifications")
        assert [n["title"] for n in notes] == ["Stretch"]  # the Tuesday alarm stays quiet on Monday
        alarms = {a["minute"]: a["enabled"] for a in d.get("alarms")}
        assert alarms == {30: False, 45: True}  # a one-shot alarm turns itself off after ringing


def test_observation_puts_the_text_screen_before_the_element_list() -> None:
    """Consumers that clip long observations (LLM prompts) keep the whole screen as text."""
    with CrossDeviceEnv(phone_task()) as env:
        keys = list(env.reset()["android_0"])
    assert keys.index("screen_text") < keys.index("ui_elements")
    assert keys[:3] == ["kind", "foreground_app", "foreground_activity"]


def test_scroll_distance_is_a_fraction_of_the_page() -> None:
    moved = {}
    for distance in (1.0, 0.5):
        with CrossDeviceEnv(phone_task(_contacts(40))) as env:
            env.reset()
            d = Driver(env)
            d.do("open_app", app_name="Contacts")
            shown = [el["text"] for el in d.elements() if (el["text"] or "").startswith("Person ")]
            assert d.do("scroll", direction="down", distance=distance).ok
            first = next(el["text"] for el in d.elements() if (el["text"] or "").startswith("Person "))
            moved[distance] = (shown.index(first), len(shown))
    (full, page), (half, _) = moved[1.0], moved[0.5]
    assert full == page - 1
    assert 1 <= half < full and abs(half - full / 2) <= 1


def test_input_text_can_press_enter_after_typing() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Browser")
        typed = d.do("input_text", text="example.com", index=d.find(rid="url_bar"), enter=True)
        assert typed.ok and "pressed Enter" in typed.message
        # the browser's address bar acts on Enter: the page is loaded, the keyboard is down
        assert not d.obs()["keyboard_visible"]
        assert str(d.get("app_prefs")["com.android.chrome"]["current_url"]).endswith("example.com")
        plain = d.do("input_text", text="again", index=d.find(rid="url_bar"))
        assert plain.ok and "Enter" not in plain.message and d.obs()["keyboard_visible"]


def test_enter_in_the_messages_to_field_closes_the_keyboard_and_starts_no_chat() -> None:
    with CrossDeviceEnv(phone_task([("add_contact", {"name": "Ann Lee", "phone": "+15550101"})])) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Messages")
        d.tap(rid="conversations_fab")
        d.type("Ann", rid="new_conversation_address")
        assert d.do("keyboard_enter").ok
        obs = d.obs()
        assert obs["foreground_activity"].endswith(".new") and not obs["keyboard_visible"]
        assert d.has(text="Ann Lee") and not d.get("threads")
        d.tap(rid="new_conversation_confirm")  # Next still opens the chat to what was typed
        assert d.obs()["foreground_activity"].endswith(".thread")


def test_input_text_can_tap_a_point_first() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Browser")
        box = d.elements()[d.find(rid="url_bar")]["bbox_pixels"]
        x, y = (box["x_min"] + box["x_max"]) / 2, (box["y_min"] + box["y_max"]) / 2
        assert d.do("input_text", text="a.org", x=x, y=y, clear=True).ok
        assert d.elements()[d.find(rid="url_bar")]["text"] == "a.org"
        half = env.step({"device": "android_0", "action": "input_text", "args": {"text": "b", "x": x}})
        assert half.result.error_code == "INVALID_ARGS" and "x and y go together" in half.result.message
