"""The command line keeps XLA's compilations in JAX's persistent cache (cli/__init__.py): in
$XDG_CACHE_HOME/nacverify/jax by default, off with NACVERIFY_JAX_CACHE=off, a user's own
JAX_COMPILATION_CACHE_DIR untouched. Results are the same with a cold and a warm cache."""

from __future__ import annotations

import os
import subprocess
import sys

import h5py
import numpy as np


def run(tmp_path, name, **env):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE", "NACVERIFY_JAX_CACHE"))}
    out = tmp_path / f"{name}.h5"
    res = subprocess.run([sys.executable, "-m", "nacverify.cli.app", "frozen-error", "--regime", "slow", "--points", "101", "--out", str(out)],
                         env={**base, "XDG_CACHE_HOME": str(tmp_path / "xdg"), **env}, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "Warning" not in res.stderr, res.stderr
    return out


def series(path):
    with h5py.File(path) as f:
        return np.asarray(f["frozen_error/slow/a_varying"])


def test_cache_by_default_off_on_request_and_the_same_numbers(tmp_path):
    cache = tmp_path / "xdg" / "nacverify" / "jax"
    cold = run(tmp_path, "cold")
    entries = sorted(p.name for p in cache.iterdir())
    assert entries, "the default cache folder holds the run's compilations"
    warm = run(tmp_path, "warm")
    np.testing.assert_array_equal(series(cold), series(warm))  # a cached executable computes the same bits
    run(tmp_path, "off", NACVERIFY_JAX_CACHE="off", XDG_CACHE_HOME=str(tmp_path / "other"))
    assert not (tmp_path / "other" / "nacverify" / "jax").exists()  # (the traced-program cache, still on, may be there)
    own = tmp_path / "mine"
    run(tmp_path, "own", JAX_COMPILATION_CACHE_DIR=str(own), JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
        JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="-1", XDG_CACHE_HOME=str(tmp_path / "third"))
    assert any(own.iterdir()) and not (tmp_path / "third" / "nacverify" / "jax").exists()


def test_a_moved_cache_still_hits(tmp_path):
    # JAX's default puts its GPU autotuning cache path into every compilation's key, so a cache folder
    # copied to another place never hit (measured: 0 hits after the copy, 2 before it)
    code = ("import nacverify.cli, jax, jax.numpy as jnp\nfrom jax import monitoring\nhits = []\n"
            "monitoring.register_event_listener(lambda e, **k: hits.append(e) if 'cache_hits' in e else None)\n"
            "jax.jit(lambda x: jnp.sin(x) * 3 + jnp.cos(x) ** 2)(jnp.arange(5.0)).block_until_ready()\nprint(len(hits))\n")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE", "NACVERIFY_JAX_CACHE"))}

    def hits(xdg):
        res = subprocess.run([sys.executable, "-c", code], env={**base, "XDG_CACHE_HOME": str(xdg)}, capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        return int(res.stdout.split()[-1])

    assert hits(tmp_path / "a") == 0
    import shutil

    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert hits(tmp_path / "b") > 0
