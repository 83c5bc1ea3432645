"""The symbolic claims' texts cached (nacverify.symbolic.catalog_cache): a cached catalog equals
the one built from the proofs, field by field and verdict by verdict; loading it imports no proof
module; another source key, or a damaged entry, rebuilds it from the proofs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from nacverify.claims import CheckContext
from nacverify.provenance import defined_in
from nacverify.symbolic import catalog_cache
from nacverify.symbolic.claims import symbolic_claims

FIELDS = ("id", "source", "statement", "assumptions", "expected", "expected_reason", "group", "kind", "reading", "threshold")


def _fields(claim):
    return tuple(getattr(claim, f, None) for f in FIELDS)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(catalog_cache.CACHE_ENV, str(tmp_path))
    return tmp_path


def test_a_cached_catalog_equals_the_proofs_and_decides_the_same(cache, monkeypatch):
    monkeypatch.delenv(catalog_cache.CACHE_ENV)
    live = list(symbolic_claims())  # no cache: built from the proof modules
    monkeypatch.setenv(catalog_cache.CACHE_ENV, str(cache))
    first = list(symbolic_claims())  # builds and stores
    assert (cache / catalog_cache.FILE).exists()
    cached = list(symbolic_claims())  # read back
    assert all(isinstance(c.check, catalog_cache.ProofCheck) for c in cached)
    assert [_fields(c) for c in cached] == [_fields(c) for c in first] == [_fields(c) for c in live]
    ctx = CheckContext(seed=0, quick=True)
    for claim, twin in [(cached[i], live[i]) for i in (0, len(live) // 2, len(live) - 1)]:
        assert claim.check(ctx).verdict == twin.check(ctx).verdict
        assert defined_in(claim) == defined_in(twin)  # the proof module's OBLIGATIONS, at the same line


def test_another_key_or_a_damaged_entry_rebuilds_from_the_proofs(cache, monkeypatch):
    list(symbolic_claims())
    monkeypatch.setattr(catalog_cache, "source_key", lambda: "another source")
    assert catalog_cache.load(cache, "another source") is None
    rebuilt = list(symbolic_claims())
    assert not isinstance(rebuilt[0].check, catalog_cache.ProofCheck)  # from the proofs
    assert json.loads((cache / catalog_cache.FILE).read_text())["key"] == "another source"  # stored anew
    (cache / catalog_cache.FILE).write_text('{"key": "another source", "claims": [{"id": 1}]}')
    assert catalog_cache.load(cache, "another source") is None
    (cache / catalog_cache.FILE).write_text("not json")
    assert not isinstance(next(iter(symbolic_claims())).check, catalog_cache.ProofCheck)


def test_the_key_covers_the_proofs_sources(tmp_path, monkeypatch):
    import nacverify.proofs

    key = catalog_cache.source_key()
    assert key == catalog_cache.source_key()
    fake = tmp_path / "proofs"
    fake.mkdir()
    for path in sorted(os.listdir(nacverify.proofs.__path__[0])):
        if path.endswith(".py"):
            text = open(os.path.join(nacverify.proofs.__path__[0], path), encoding="utf-8").read()
            (fake / path).write_text(text + ("\n# edited\n" if path == "nac_frozen.py" else ""), encoding="utf-8")
    monkeypatch.setattr(nacverify.proofs, "__path__", [str(fake)])
    assert catalog_cache.source_key() != key


def test_loading_a_cached_catalog_imports_no_proof_module(cache):
    code = ("import sys\nfrom nacverify.run.runner import load_catalog\nload_catalog()\n"
            "print(sorted(m for m in sys.modules if m.startswith('nacverify.proofs.')))\n")
    env = {**os.environ, catalog_cache.CACHE_ENV: str(cache)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=240) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    assert runs[0].stdout.strip() != "[]"  # the first load runs the proofs and stores their texts
    assert runs[1].stdout.strip() == "[]"


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_a_load_that_finds_the_build_locked_waits_and_reads_the_entry_stored_meanwhile(cache, monkeypatch):
    """While another process holds the build lock (the command line building the entry while its
    workers start), a catalog load waits instead of running the proofs; once the holder has stored the
    entry and let go, the load reads it (running the proofs here fails the test)."""
    import fcntl
    import threading
    import time

    from nacverify.symbolic import claims as symbolic

    reference = list(symbolic_claims())  # from the proofs, and stored
    key = catalog_cache.source_key()
    entries = catalog_cache.load(cache, key)
    assert entries is not None
    (cache / catalog_cache.FILE).unlink()  # missing again

    def no_proofs():
        raise AssertionError("the proofs ran although another process was building the entry")

    monkeypatch.setattr(symbolic, "_from_proofs", no_proofs)
    holder = open(cache / catalog_cache.LOCK_FILE, "a+b")
    fcntl.flock(holder, fcntl.LOCK_EX)
    result: dict = {}
    waiter = threading.Thread(target=lambda: result.setdefault("claims", list(symbolic_claims())))
    waiter.start()
    time.sleep(0.5)
    assert waiter.is_alive()  # waiting for the lock
    catalog_cache.store(cache, key, entries)
    holder.close()  # releases the lock
    waiter.join(30)
    assert [_fields(c) for c in result["claims"]] == [_fields(c) for c in reference]
