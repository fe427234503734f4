"""reused_heap: big allocations kept in the heap inside the block, glibc's defaults back after."""

from __future__ import annotations

import threading

import pytest

import graphpart.utils.heap as heap


class FakeLibc:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(("trim", pad))
        return 1


@pytest.fixture
def libc(monkeypatch):
    fake = FakeLibc()
    monkeypatch.setattr(heap, "_glibc", lambda: fake)
    return fake


def test_the_heap_keeps_big_allocations_inside_and_glibc_defaults_return_after(libc):
    with heap.reused_heap():
        inside = list(libc.calls)
    assert ("mallopt", -3, heap.MMAP_THRESHOLD) in inside and ("trim", 0) not in inside
    after = libc.calls[len(inside) :]
    assert ("mallopt", -3, 128 << 10) in after and ("mallopt", -1, 128 << 10) in after
    assert after[-1] == ("trim", 0)  # the free memory handed back


def test_nested_and_concurrent_blocks_restore_once_the_last_ends(libc):
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with heap.reused_heap():
            entered.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    t.start()
    entered.wait(10)
    with heap.reused_heap(), heap.reused_heap():
        pass
    assert ("trim", 0) not in libc.calls  # the other thread's block is still open
    leave.set()
    t.join()
    assert libc.calls.count(("trim", 0)) == 1 and heap._depth == 0


def test_an_exception_inside_still_restores(libc):
    with pytest.raises(ValueError), heap.reused_heap():
        raise ValueError("inside")
    assert libc.calls[-1] == ("trim", 0) and heap._depth == 0


def test_without_glibc_it_does_nothing(monkeypatch):
    monkeypatch.setattr(heap, "_glibc", lambda: None)
    with heap.reused_heap():
        assert heap._depth == 0
