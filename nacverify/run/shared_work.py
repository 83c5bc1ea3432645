"""Work that several claims share within one process, and which claims share it.

Some computations serve several claims: the LTC adjoint solves (`ltc.s5.adjoint_errors`,
`ltc.table_bptt.accuracy`, `ltc.sec16.efficient`), the gates of every model variant (the
`nac.model.*` gate claims), a frozen-error run or sweep (every claim on that regime). Each is
computed once per process and kept (`shared`, `cached`), so the second claim that needs it finds
it done. Claims that run in different processes each compute it: a plan that puts them in
different tasks pays it twice (`nacverify.run.task_plan.plan_tasks` weighs keeping them together).

While a claim runs (`running`, entered by `nacverify.claims.evaluate`), every call of a shared
computation is recorded under the computation's name, with the seconds its first computation
took in this process (`record`). ``tools/claim_seconds.py --sharing`` writes that record for a
serial ``check --quick`` into ``nacverify/data/claim_seconds.json``, from which the plan reads it.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Hashable, Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = ["shared", "cached", "running", "record", "forget"]

T = TypeVar("T")

_claim: ContextVar[str | None] = ContextVar("nacverify_running_claim", default=None)
_lock = threading.Lock()
_users: dict[str, set[str]] = {}  # computation -> ids of the claims that used it
_seconds: dict[str, float] = {}  # computation -> seconds of its computations in this process (misses only)


@contextmanager
def running(claim_id: str) -> Iterator[None]:
    """Within this block, shared computations are recorded as used by claim `claim_id`."""
    token = _claim.set(claim_id)
    try:
        yield
    finally:
        _claim.reset(token)


def _used(name: str) -> None:
    claim = _claim.get()
    if claim is not None:
        with _lock:
            _users.setdefault(name, set()).add(claim)


def _computed(name: str, seconds: float) -> None:
    with _lock:
        _seconds[name] = _seconds.get(name, 0.0) + seconds


def cached(store: MutableMapping[Hashable, T], key: Hashable, compute: Callable[[], T], name: str) -> T:
    """``store[key]``, computed by `compute()` when missing: a per-process cache that records its
    use under `name` (module docstring). `name` names the computation as a plan should see it:
    two calls with one name are one piece of work to keep in one process."""
    _used(name)
    if key not in store:
        start = time.perf_counter()
        value = compute()
        _computed(name, time.perf_counter() - start)
        store[key] = value
    return store[key]


def shared(name: str | Callable[..., str], maxsize: int | None = None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: ``functools.lru_cache(maxsize)`` of the function, whose calls are recorded under
    `name` (a string, or a function of the call's arguments giving one, when different arguments
    are different pieces of work)."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        def named(args: tuple, kwargs: dict) -> str:
            return name(*args, **kwargs) if callable(name) else name

        @functools.lru_cache(maxsize=maxsize)
        def compute(*args: Any, **kwargs: Any) -> T:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                _computed(named(args, kwargs), time.perf_counter() - start)

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> T:
            _used(named(args, kwargs))
            return compute(*args, **kwargs)

        call.cache_clear = compute.cache_clear  # type: ignore[attr-defined]
        call.cache_info = compute.cache_info  # type: ignore[attr-defined]
        return call

    return decorate


def record() -> dict[str, dict[str, Any]]:
    """This process's record: computation -> {"seconds": seconds spent computing it here,
    "claims": sorted ids of the claims that used it}, for the computations some claim used."""
    with _lock:
        return {name: {"seconds": round(_seconds.get(name, 0.0), 2), "claims": sorted(users)} for name, users in sorted(_users.items())}


def forget() -> None:
    """Clear the record (not the caches)."""
    with _lock:
        _users.clear()
        _seconds.clear()
