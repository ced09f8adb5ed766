"""The desktop pool: lazy, bounded, refilled in the background, never hands out a dead or foreign spare."""

from __future__ import annotations

import os
import threading

import pytest

from devicesworld.devices.desktop.pool import ENV_SIZE, WarmPool, pool_size


class FakeSpare:
    def __init__(self, key: str, n: int) -> None:
        self.key, self.n = key, n
        self.closed = False
        self.dead = False

    def alive(self) -> bool:
        return not self.dead and not self.closed

    def close(self) -> None:
        self.closed = True


class Maker:
    def __init__(self, fail: bool = False, gate: threading.Event | None = None) -> None:
        self.made: list[FakeSpare] = []
        self.fail = fail
        self.gate = gate
        self.lock = threading.Lock()

    def __call__(self, key: str) -> FakeSpare:
        if self.gate is not None:
            assert self.gate.wait(30)
        if self.fail:
            raise RuntimeError("no desktop here")
        with self.lock:
            spare = FakeSpare(key, len(self.made))
            self.made.append(spare)
        return spare


def test_nothing_starts_before_the_first_take_and_the_first_take_is_cold() -> None:
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    make = Maker()
    assert make.made == [] and pool.ready_count("a") == 0
    assert pool.take("a", make) is None  # nothing was asked for before: the device starts cold
    assert pool.wait_ready("a", 30)
    got = pool.take("a", make)
    assert got is not None and got.key == "a" and got.n == 0
    assert pool.wait_ready("a", 30)
    assert pool.ready_count("a") == 1 and len(make.made) == 2  # bounded: one spare, refilled once
    assert pool.ready_count("b") == 0  # only the keys asked for
    pool.close_all()
    assert all(s.closed for s in make.made if s is not got) and not got.closed


def test_a_take_waits_for_the_spare_being_started_instead_of_starting_cold() -> None:
    gate = threading.Event()
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    make = Maker(gate=gate)
    assert pool.take("a", make) is None  # starts filling, blocked on the gate
    threading.Timer(0.2, gate.set).start()
    got = pool.take("a", make, wait_s=30)
    assert got is not None and got.n == 0
    pool.close_all()


def test_a_take_that_waits_hurries_the_spare_being_started_once() -> None:
    gate = threading.Event()
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    make = Maker(gate=gate)
    hurried: list[str] = []

    def hurry(key: str) -> None:
        hurried.append(key)
        gate.set()  # the spare gets the CPU it waited for

    assert pool.take("a", make, hurry=hurry) is None  # nothing to wait for: not hurried
    assert hurried == []
    got = pool.take("a", make, wait_s=30, hurry=hurry)
    assert got is not None and got.n == 0
    assert hurried == ["a"]
    assert pool.wait_ready("a", 30)
    assert pool.take("a", make, hurry=hurry) is not None  # ready: no wait, no hurry
    assert hurried == ["a"]
    pool.close_all()


def test_a_spare_started_before_close_all_is_closed_even_when_the_pool_fills_again() -> None:
    old_gate, new_gate = threading.Event(), threading.Event()
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    old, new = Maker(gate=old_gate), Maker(gate=new_gate)
    entered = threading.Event()

    def old_make(key: str) -> FakeSpare:
        entered.set()
        return old(key)

    assert pool.take("a", old_make) is None  # a spare starts (held at its gate)
    assert entered.wait(30)
    pool.close_all()
    assert pool.take("a", new) is None  # asked again: a new spare starts
    old_gate.set()  # the first one is done now: it belongs to before close_all
    for _ in range(500):
        if old.made and old.made[0].closed:
            break
        threading.Event().wait(0.01)
    assert old.made and old.made[0].closed
    new_gate.set()
    got = pool.take("a", new, wait_s=30)
    assert got is not None and got in new.made  # only the new one is handed out
    pool.close_all()


def test_a_dead_spare_is_closed_and_skipped() -> None:
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    make = Maker()
    pool.take("a", make)
    assert pool.wait_ready("a", 30)
    make.made[0].dead = True
    got = pool.take("a", make, wait_s=30)
    assert make.made[0].closed
    assert got is not None and got.n == 1  # waited for the refill rather than hand out the dead one
    pool.close_all()


def test_a_key_that_failed_is_not_tried_again_and_says_why() -> None:
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 1)
    make = Maker(fail=True)
    assert pool.take("a", make) is None
    assert not pool.wait_ready("a", 30)
    assert "no desktop here" in (pool.failure("a") or "")
    assert pool.take("a", make) is None
    assert not pool.wait_ready("a", 5) and make.made == []


def test_size_zero_turns_the_pool_off() -> None:
    pool: WarmPool[str, FakeSpare] = WarmPool("t", size=lambda: 0)
    make = Maker()
    assert pool.take("a", make) is None and pool.take("a", make) is None
    assert make.made == [] and not pool.wait_ready("a", 1)


def test_the_size_comes_from_the_environment_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SIZE, raising=False)
    assert pool_size() == 1
    monkeypatch.setenv(ENV_SIZE, "2")
    assert pool_size() == 2
    for bad in ("lots", "-1", "99"):
        monkeypatch.setenv(ENV_SIZE, bad)
        with pytest.raises(ValueError, match=f"{ENV_SIZE} must be a whole number from 0 to 4"):
            pool_size()


def test_renice_tree_sets_a_process_and_everything_below_it() -> None:
    import subprocess
    import sys
    import time

    from devicesworld.devices.desktop.pool import renice_tree

    threaded = (
        "import threading, time; [threading.Thread(target=time.sleep, args=(30,), daemon=True).start()"
        " for _ in range(3)]; time.sleep(30)"
    )
    proc = subprocess.Popen(
        ["sh", "-c", f"sleep 30 & {sys.executable} -c '{threaded}' & wait"], start_new_session=True
    )
    try:
        found: list[int] = []
        for _ in range(200):  # the shell's two children appear once it has started them
            found = [int(p) for p in os.listdir("/proc") if p.isdigit() and _ppid(int(p)) == proc.pid]
            if len(found) == 2 and sum(_threads(p) for p in found) >= 5:  # python started its threads
                break
            time.sleep(0.01)
        assert len(found) == 2
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        wanted = min(mine + 3, 19)
        assert renice_tree(proc.pid, wanted) == 3
        assert [os.getpriority(os.PRIO_PROCESS, p) for p in (proc.pid, *found)] == [wanted] * 3
        threads = [int(t) for p in found for t in os.listdir(f"/proc/{p}/task")]
        assert len(threads) >= 5  # sleep's one, python's main and its three
        assert {os.getpriority(os.PRIO_PROCESS, t) for t in threads} == {wanted}  # every thread
        assert os.getpriority(os.PRIO_PROCESS, 0) == mine  # not the caller
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def _ppid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat[stat.rfind(b")") + 2 :].split()[1])
