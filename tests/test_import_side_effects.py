"""Importing nacverify leaves the caller's JAX configuration as it was (issue: no import
side effects), and nacverify's own computations still run in float64."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import importlib, json, pkgutil
    import jax, jax.numpy as jnp
    assert not jax.config.read("jax_enable_x64")

    # a float32 model of the caller's, built before nacverify is imported
    w = jnp.ones((3, 3), dtype=jnp.float32)
    before = (w @ w).dtype

    import nacverify
    names = ["nacverify"]
    for pkg in ("nacverify",):
        mod = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(mod.__path__, pkg + "."):
            names.append(info.name)
    imported = []
    for name in names:
        if name.startswith("nacverify.cli"):  # the CLI is a program: it enables float64 on purpose
            continue
        importlib.import_module(name)
        imported.append(name)
    import nacverify.catalog
    from nacverify.claims import registry
    registry()  # load every claim provider

    after_import = (w @ w).dtype, jnp.zeros(2).dtype, jax.config.read("jax_enable_x64")

    # nacverify's own computation runs in float64 ...
    from nacverify.solvers import solve_ensemble
    from nacverify.claims import evaluate, get_claim
    import numpy as np
    result = evaluate(get_claim("nac.eq3.solves_eq1"))
    # ... and the caller's setting is back afterwards
    after_call = jnp.zeros(2).dtype, jax.config.read("jax_enable_x64")
    print(json.dumps({
        "before": str(before),
        "after_import": [str(after_import[0]), str(after_import[1]), after_import[2]],
        "after_call": [str(after_call[0]), after_call[1]],
        "verdict": str(result.verdict),
        "imported": len(imported),
    }))
    """
)


def test_import_leaves_float32_alone_and_checks_still_run():
    import json
    import os

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("JAX_ENABLE_X64", None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["before"] == "float32"
    assert out["after_import"] == ["float32", "float32", False]
    assert out["after_call"] == ["float32", False]
    assert out["imported"] > 30
    assert out["verdict"] == "holds"


def test_float64_scope_is_restored():
    """`nacverify.compute.precision.float64` turns float64 on inside and restores the old value."""
    code = textwrap.dedent(
        """
        import jax, jax.numpy as jnp
        from nacverify.compute.precision import float64, uses_float64
        with float64():
            inside = jnp.zeros(1).dtype
        outside = jnp.zeros(1).dtype
        f = uses_float64(lambda: jnp.ones(1).dtype)
        print(inside, outside, f(), jnp.ones(1).dtype)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["float64", "float32", "float64", "float32"]


def test_claims_built_at_registry_load_use_float64_in_a_float32_process():
    """Providers that build their problems up front (the LTC agreement problems) used to build
    them in float32 when a library user evaluated claims in a process without global float64:
    the solvers then disagreed at ~5e-8 and the claim came out refuted."""
    code = textwrap.dedent(
        """
        import jax
        import nacverify.catalog
        from nacverify.claims import select, evaluate, CheckContext
        (c,) = select(["solvers.agree.ltc.biophysical.smooth"])
        r = evaluate(c, CheckContext(quick=True))
        print(r.verdict, jax.config.read("jax_enable_x64"))
        """
    )
    import os

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("JAX_ENABLE_X64", None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[-2:] == ["holds", "False"]
