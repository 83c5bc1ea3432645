"""Where each command computes and how it compiles, decided before JAX starts (cli/_devices.py).

Each case runs `prepare_process` in a fresh interpreter (this one has started JAX already, and
XLA reads its flags once) and reads the environment it leaves for JAX and the Dask workers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLAG = "--xla_cpu_use_fusion_emitters=false"

_PROBE = """
import json, os, sys
from nacverify.cli._devices import prepare_process, worker_env
prepare_process(sys.argv[1:])
print(json.dumps({"xla_flags": os.environ.get("XLA_FLAGS"), "platforms": os.environ.get("JAX_PLATFORMS"),
                  "worker": worker_env(), "jax_imported": "jax" in sys.modules}))
"""


def _prepared(argv, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_PLATFORMS", "NACVERIFY_XLA_EMITTERS", "NACVERIFY_PLATFORM")}
    out = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, cwd=ROOT, env={**base, **env}, check=True)
    return json.loads(out.stdout)


def test_verification_compiles_with_the_classic_emitters_on_the_cpu_and_its_workers_too():
    got = _prepared(["check", "--quick"])
    assert got["xla_flags"] == FLAG
    assert got["platforms"] == "cpu"
    assert got["worker"]["XLA_FLAGS"] == FLAG and got["worker"]["JAX_PLATFORMS"] == "cpu"
    assert not got["jax_imported"]  # decided without starting JAX


@pytest.mark.parametrize("command", ["bench", "backends"])
def test_bench_keeps_xlas_defaults_and_the_default_device(command):
    got = _prepared([command])
    assert got["xla_flags"] is None and got["platforms"] is None


def test_the_users_own_flags_are_kept_and_the_flag_is_added_once():
    got = _prepared(["check"], XLA_FLAGS="--xla_cpu_multi_thread_eigen=false")
    assert got["xla_flags"] == f"--xla_cpu_multi_thread_eigen=false {FLAG}"
    got = _prepared(["frozen-error"], XLA_FLAGS="--xla_cpu_use_fusion_emitters=true")
    assert got["xla_flags"] == "--xla_cpu_use_fusion_emitters=true"  # the user's choice stands


def test_xla_defaults_on_request():
    got = _prepared(["check"], NACVERIFY_XLA_EMITTERS="default")
    assert got["xla_flags"] is None


def test_a_flag_the_installed_xla_lacks_is_never_given():
    from nacverify.cli._devices import _jaxlib_knows

    assert _jaxlib_knows("xla_cpu_use_fusion_emitters")
    assert not _jaxlib_knows("xla_cpu_use_no_such_emitters")


_ELEMENTWISE = """
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_enable_x64", True)
x = jnp.asarray(np.random.default_rng(0).uniform(-30, 30, 100_000))
fs = (jnp.exp, jnp.tanh, jnp.expm1, lambda v: jnp.log1p(jnp.abs(v)), jax.nn.sigmoid, jax.nn.softplus)
print(np.concatenate([np.asarray(jax.jit(f)(x)) for f in fs]).tobytes().hex())
"""


def _elementwise_bits(xla_flags):
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    env.pop("XLA_FLAGS", None)
    if xla_flags:
        env["XLA_FLAGS"] = xla_flags
    out = subprocess.run([sys.executable, "-c", _ELEMENTWISE], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]  # XLA stops the process at a flag it does not know
    return out.stdout.strip()


def test_the_installed_xla_accepts_the_flag_and_its_elementwise_functions_keep_their_bits():
    # exp, tanh, expm1, log1p, sigmoid and softplus at 100,000 points in [-30, 30], float64: the
    # classic emitters give XLA's default results bit for bit (the report's few changed numbers
    # come from how loops are fused, not from these functions)
    from nacverify.cli._devices import CLASSIC_EMITTERS_FLAG, _jaxlib_knows

    assert CLASSIC_EMITTERS_FLAG == FLAG and _jaxlib_knows(FLAG.split("=")[0].lstrip("-"))  # what the command line adds here
    classic = _elementwise_bits(FLAG)
    assert len(classic) == 2 * 8 * 6 * 100_000
    assert classic == _elementwise_bits(None)
