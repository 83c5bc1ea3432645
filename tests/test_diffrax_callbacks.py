"""`nacverify.solvers._diffrax.checks_without_callbacks`: diffrax solves compiled without host
callbacks (so JAX's persistent cache keeps them), the same values, argument checks kept."""

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.errors import NacverifyError
from nacverify.compute.precision import float64
from nacverify.solvers._diffrax import checks_without_callbacks, solve_system


def _decay(t, y, args):
    return -args * y


def _solve(ts, y0, rate):
    """A fresh vector field each call: diffrax's `diffeqsolve` is itself a jit, whose traces are cached per vector field."""
    controller = diffrax.PIDController(rtol=1e-10, atol=1e-12)
    return diffrax.diffeqsolve(diffrax.ODETerm(lambda t, y, a: _decay(t, y, a)), diffrax.Tsit5(), ts[0], ts[-1], None, y0, args=rate,
                               saveat=diffrax.SaveAt(ts=ts), stepsize_controller=controller, throw=False).ys


def _callbacks(fn, *args) -> int:
    return jax.jit(fn).lower(*args).as_text().count("python_cpu_callback")


def test_saveat_checks_lower_without_callbacks_inside_only():
    with float64():
        args = (jnp.linspace(0.0, 1.0, 11), jnp.ones(3), jnp.asarray(2.0))
        assert _callbacks(lambda *a: _solve(*a), *args) > 0  # diffrax's SaveAt(ts) checks: a Python callback each
        with checks_without_callbacks():
            assert _callbacks(lambda *a: _solve(*a), *args) == 0
        assert _callbacks(lambda *a: _solve(*a), *args) > 0  # restored on exit


def test_same_values_inside_and_outside():
    with float64():
        args = (jnp.linspace(0.0, 1.0, 11), jnp.ones(3), jnp.asarray(2.0))
        outside = np.asarray(jax.jit(lambda *a: _solve(*a))(*args))
        with checks_without_callbacks():
            inside = np.asarray(jax.jit(lambda *a: _solve(*a) + 0.0)(*args))
        assert np.array_equal(inside, outside)
        assert np.allclose(outside[-1], np.exp(-2.0), rtol=1e-8)


def test_a_failed_check_inside_gives_nan_and_outside_still_raises():
    def f(x):
        return eqx.error_if(x, x.sum() > 0, "positive")

    with float64():
        with checks_without_callbacks():
            assert np.all(np.isnan(np.asarray(jax.jit(f)(jnp.ones(2)))))
        with pytest.raises(Exception, match="positive"):
            jax.block_until_ready(eqx.filter_jit(f)(jnp.ones(2)))


def test_solve_system_checks_its_grid_in_python():
    with pytest.raises(NacverifyError, match="non-decreasing"):
        solve_system(_decay, jnp.asarray(1.0), np.ones(1), np.array([0.0, 0.5, 0.4, 1.0]))
    sol = solve_system(_decay, jnp.asarray(1.0), np.ones(1), np.linspace(0.0, 1.0, 5))
    assert np.allclose(sol.ys[0], np.exp(-np.linspace(0.0, 1.0, 5)), rtol=1e-8)


def test_the_switch_is_per_thread():
    from concurrent.futures import ThreadPoolExecutor

    with float64():
        args = (jnp.linspace(0.0, 1.0, 11), jnp.ones(3), jnp.asarray(2.0))
        with checks_without_callbacks(), ThreadPoolExecutor(max_workers=1) as pool:
            def other():
                with float64():
                    return _callbacks(lambda *a: _solve(*a), *args)

            assert pool.submit(other).result() > 0  # another thread, outside the context: equinox's default mode
            assert _callbacks(lambda *a: _solve(*a), *args) == 0
