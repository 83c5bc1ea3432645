"""nacverify.compute.program_cache: traced programs kept between runs.

The reference for every value is the same function under `equinox.filter_jit` (what the
cache replaces), or a closed form. A program read back from disk is checked to be used without
tracing the function again (JAX's own trace events), and every item of the key is checked to
change it, so that a stale program cannot answer for a changed call."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_events import traced_names

from nacverify.compute import program_cache
from nacverify.compute.precision import float64


def scaled_sum(x, scale, offset):
    """x * scale + offset, summed per row; `scale` is a Python number (static), `offset` an array."""
    return jnp.sum(x * scale, axis=-1) + offset


def scaled_sum_other(x, scale, offset):
    """Same signature as `scaled_sum`, another program."""
    return jnp.sum(x * scale, axis=-1) - offset


def apply(fn, x):
    """fn(x): a function argument is static (named by module and qualified name in the key)."""
    return fn(x)


class Unnamed:
    """An output type jax.export has no serialisation for."""

    def __init__(self, value):
        self.value = value


jax.tree_util.register_pytree_node(Unnamed, lambda u: ((u.value,), None), lambda _aux, children: Unnamed(children[0]))


def wrapped_output(x):
    return Unnamed(x + 1.0)


CACHED = program_cache.cached_jit(scaled_sum)
CACHED_OTHER = program_cache.cached_jit(scaled_sum_other)
CACHED_APPLY = program_cache.cached_jit(apply)
CACHED_WRAPPED = program_cache.cached_jit(wrapped_output)
MODE = {"on": False}
CACHED_WITH_CONTEXT = program_cache.cached_jit(scaled_sum, context=lambda: MODE["on"])


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(program_cache.CACHE_ENV, str(tmp_path / "programs"))
    monkeypatch.setattr(program_cache, "_LOADED", {})
    monkeypatch.setattr(program_cache, "_REFUSED", set())
    return tmp_path / "programs"


def _new_process(monkeypatch):
    """Forget the programs this process holds, as a new process would."""
    monkeypatch.setattr(program_cache, "_LOADED", {})
    monkeypatch.setattr(program_cache, "_REFUSED", set())


def _traced_names(fn, *args):
    """The function's result and the names of the functions JAX traced while running it."""
    return traced_names(fn, *args)


def _data():
    rng = np.random.default_rng(3)
    return jnp.asarray(rng.standard_normal((4, 5))), jnp.asarray(rng.standard_normal(4))


def test_a_program_read_back_is_not_traced_again_and_gives_the_same_bits(folder, monkeypatch):
    with float64():
        x, offset = _data()
        reference = np.asarray(CACHED.filter_jit(x, 2.5, offset))
        first = np.asarray(CACHED(x, 2.5, offset))
        stored = sorted(folder.glob("*/*" + program_cache.SUFFIX))
        assert len(stored) == 1
        _new_process(monkeypatch)
        second, traced = _traced_names(CACHED, x, 2.5, offset)
    assert "scaled_sum" not in traced  # read from disk, not traced
    np.testing.assert_array_equal(first, reference)
    np.testing.assert_array_equal(np.asarray(second), reference)
    np.testing.assert_allclose(reference, np.sum(np.asarray(x) * 2.5, axis=-1) + np.asarray(offset), rtol=1e-15)


def weighted_difference(a, b):
    """a - 2 b, elementwise: two array arguments that a caller may pass as one object."""
    return a - 2.0 * b


CACHED_DIFFERENCE = program_cache.cached_jit(weighted_difference)


def test_an_array_passed_twice_is_one_input_and_the_aliasing_is_part_of_the_key(folder, monkeypatch):
    """f(x, x) = x - 2x = -x; f(x, y) = x - 2y. The call with one object twice stores a program of one
    input; the call with two objects of the same shape must not reuse it (it would compute -x or fail)."""
    with float64():
        x, _ = _data()
        y = x + 1.0
        same = np.asarray(CACHED_DIFFERENCE(x, x))
        stored = program_cache._LOADED[program_cache._key(("test_program_cache", "weighted_difference"), None, (x, x))]
        _new_process(monkeypatch)
        distinct = np.asarray(CACHED_DIFFERENCE(x, y))
        _new_process(monkeypatch)
        again = np.asarray(CACHED_DIFFERENCE(x, x))  # read back from disk
    assert len(stored.in_avals) == 1
    assert program_cache._aliases([x, x, y, x]) == (0, 0, 1, 0)
    assert [id(a) for a in program_cache.inputs((x, [x, y]))] == [id(x), id(y)]
    np.testing.assert_array_equal(same, -np.asarray(x))
    np.testing.assert_array_equal(again, -np.asarray(x))
    np.testing.assert_array_equal(distinct, np.asarray(x) - 2.0 * np.asarray(y))
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 2


def test_inside_grad_and_vmap_the_function_is_differentiated_and_batched_as_filter_jit(folder):
    """d/dx sum(x * 2.5 + offset) = 2.5 everywhere; vmap over rows equals the batched call."""
    with float64():
        x, offset = _data()
        grad = jax.grad(lambda v: jnp.sum(CACHED(v, 2.5, offset)))(x)
        rows = jax.vmap(lambda row, off: CACHED(row[None, :], 2.5, off[None]))(x, offset)
    np.testing.assert_array_equal(np.asarray(grad), np.full(x.shape, 2.5))
    np.testing.assert_array_equal(np.asarray(rows)[:, 0], np.asarray(CACHED.filter_jit(x, 2.5, offset)))


def test_without_a_folder_nothing_is_stored(tmp_path, monkeypatch):
    monkeypatch.delenv(program_cache.CACHE_ENV, raising=False)
    with float64():
        x, offset = _data()
        np.testing.assert_array_equal(np.asarray(CACHED(x, 1.0, offset)), np.asarray(CACHED.filter_jit(x, 1.0, offset)))
    monkeypatch.setenv(program_cache.CACHE_ENV, "off")
    assert program_cache.cache_folder() is None


def test_a_static_value_is_part_of_the_key(folder, monkeypatch):
    """A stale program would give x * 2 where x * 3 is asked."""
    with float64():
        x, offset = _data()
        two = np.asarray(CACHED(x, 2.0, offset))
        _new_process(monkeypatch)
        three = np.asarray(CACHED(x, 3.0, offset))
    for scale, out in ((2.0, two), (3.0, three)):
        np.testing.assert_allclose(out, np.sum(np.asarray(x) * scale, axis=-1) + np.asarray(offset), rtol=1e-13, atol=1e-13)
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 2


def test_shapes_dtypes_functions_context_and_settings_change_the_key():
    with float64():
        x, offset = _data()
        base = program_cache._key(scaled_sum, None, (x, 2.0, offset))
        assert base == program_cache._key(scaled_sum, None, (x + 1.0, 2.0, offset))  # values are inputs, not key
        others = [
            program_cache._key(scaled_sum, None, (x[:3], 2.0, offset)),
            program_cache._key(scaled_sum, None, (x.astype(jnp.float32), 2.0, offset)),
            program_cache._key(scaled_sum_other, None, (x, 2.0, offset)),
            program_cache._key(scaled_sum, True, (x, 2.0, offset)),
            program_cache._key(scaled_sum, None, (x, 2, offset)),  # int 2, not float 2.0: another trace
        ]
    with jax.enable_x64(False):
        others.append(program_cache._key(scaled_sum, None, (np.zeros((4, 5), np.float32), 2.0, np.zeros(4, np.float32))))
    with float64():
        others.append(program_cache._key(scaled_sum, None, (np.zeros((4, 5), np.float32), 2.0, np.zeros(4, np.float32))))
    keys = [base, *others]
    assert len(set(keys)) == len(keys)


def test_the_source_code_is_part_of_the_key(monkeypatch):
    from nacverify.compute import source_tree

    with float64():
        x, offset = _data()
        before = program_cache._key(scaled_sum, None, (x, 2.0, offset))
        program_cache._static_environment.cache_clear()
        monkeypatch.setattr(source_tree, "source_digest", lambda: "another source tree")
        try:
            after = program_cache._key(scaled_sum, None, (x, 2.0, offset))
        finally:
            program_cache._static_environment.cache_clear()
    assert before != after


def test_the_context_selects_its_own_program(folder, monkeypatch):
    with float64():
        x, offset = _data()
        MODE["on"] = False
        CACHED_WITH_CONTEXT(x, 2.0, offset)
        MODE["on"] = True
        try:
            CACHED_WITH_CONTEXT(x, 2.0, offset)
        finally:
            MODE["on"] = False
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 2


def test_a_lambda_argument_is_not_cached_but_still_computed(folder):
    with float64():
        x, _ = _data()
        out = np.asarray(CACHED_APPLY(lambda v: v * 4.0, x))
        named = np.asarray(CACHED_APPLY(double, x))
    np.testing.assert_array_equal(out, np.asarray(x) * 4.0)
    np.testing.assert_array_equal(named, 2.0 * np.asarray(x))
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 1  # `double` pickles by name; the lambda does not


def test_an_output_export_cannot_store_runs_as_filter_jit(folder):
    with float64():
        x, _ = _data()
        out = CACHED_WRAPPED(x)
        again = CACHED_WRAPPED(x)
    assert isinstance(out, Unnamed) and isinstance(again, Unnamed)
    np.testing.assert_array_equal(np.asarray(out.value), np.asarray(x) + 1.0)
    assert not list(folder.glob("*/*" + program_cache.SUFFIX))
    assert len(program_cache._REFUSED) == 1


def test_a_damaged_entry_counts_as_missing_and_is_written_anew(folder, monkeypatch):
    with float64():
        x, offset = _data()
        reference = np.asarray(CACHED.filter_jit(x, 2.5, offset))
        CACHED(x, 2.5, offset)
        (path,) = folder.glob("*/*" + program_cache.SUFFIX)
        path.write_bytes(path.read_bytes()[:100])
        _new_process(monkeypatch)
        np.testing.assert_array_equal(np.asarray(CACHED(x, 2.5, offset)), reference)
        assert path.stat().st_size > 100
        path.write_bytes(b"not a program")
        _new_process(monkeypatch)
        np.testing.assert_array_equal(np.asarray(CACHED(x, 2.5, offset)), reference)


def test_an_unwritable_folder_costs_only_the_saving(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(program_cache.CACHE_ENV, str(blocker / "programs"))  # a folder inside a file: cannot be made
    _new_process(monkeypatch)
    with float64():
        x, offset = _data()
        np.testing.assert_array_equal(np.asarray(CACHED(x, 2.5, offset)), np.asarray(CACHED.filter_jit(x, 2.5, offset)))


def test_older_generations_are_removed_the_recent_ones_kept(folder, monkeypatch):
    """Five source trees in turn: the subfolders of the four most recent stay, the oldest goes."""
    import os
    import time

    made = []
    for n in range(5):
        monkeypatch.setattr(program_cache, "_GENERATIONS_SEEN", set())
        monkeypatch.setattr(program_cache, "_static_environment", lambda n=n: f"source tree {n}".encode())
        made.append(program_cache._generation_folder(folder))
        (made[-1] / ("x" + program_cache.SUFFIX)).write_bytes(b"")
        os.utime(made[-1], (time.time() - 100 + n, time.time() - 100 + n))  # older trees used earlier
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in made[1:])


def test_the_diffrax_solve_is_cached_with_the_same_bits_and_its_mode_in_the_key(folder, monkeypatch):
    """solvers._diffrax.solve_system through the cache, against the uncached solve; and y' = -y
    against exp(-t)."""
    from nacverify.solvers import _diffrax

    def rhs_ts():
        return np.linspace(0.0, 1.0, 11)

    with float64():
        y0 = np.array([1.0, 2.0])
        cached = _diffrax.solve_system(decay, None, y0, rhs_ts())
        _new_process(monkeypatch)
        _, traced = _traced_names(_diffrax.solve_system, decay, None, y0, rhs_ts())
        monkeypatch.delenv(program_cache.CACHE_ENV)
        plain = _diffrax.solve_system(decay, None, y0, rhs_ts())
    assert "_solve_system" not in traced
    np.testing.assert_array_equal(cached.ys, plain.ys)
    assert (cached.num_steps, cached.num_rejected) == (plain.num_steps, plain.num_rejected)
    np.testing.assert_allclose(cached.ys, y0[:, None] * np.exp(-rhs_ts())[None, :], rtol=1e-9)
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 1


def test_a_solve_that_runs_out_of_steps_is_still_an_error(folder):
    from nacverify.errors import NacverifyError
    from nacverify.solvers import _diffrax

    with float64(), pytest.raises(NacverifyError, match="maximum number of steps"):
        _diffrax.solve_system(decay, None, np.array([1.0]), np.linspace(0.0, 100.0, 3), max_steps=4)


def double(v):
    return 2.0 * v


def decay(t, y, args):
    return -y


def test_cost_analysis_of_a_stored_program_counts_what_the_direct_lowering_counts(folder, monkeypatch):
    """XLA's FLOP count of the NAC layer's forward (`checks._costs._model_flops`'s program), read
    back from the cache without a trace, equals the count of the program lowered directly."""
    import functools

    import equinox as eqx

    from nacverify.compute import xla_cost
    from nacverify.checks._costs import _apply_model, _model, _sds

    with float64():
        for n, curation in ((64, "exact"), (128, "block")):
            model = _model(16, 2).with_options(query_chunk=n, curation=curation, return_sequences=True)
            params, static = eqx.partition(model, eqx.is_array)
            fn = functools.partial(_apply_model, static=static)
            monkeypatch.setenv(program_cache.CACHE_ENV, "off")
            direct = xla_cost.cpu_flops(fn, params, _sds(1, n, 16))
            monkeypatch.setenv(program_cache.CACHE_ENV, str(folder))
            stored = xla_cost.cpu_flops(fn, params, _sds(1, n, 16))
            _new_process(monkeypatch)
            again, traced = _traced_names(lambda: xla_cost.cpu_flops(fn, params, _sds(1, n, 16)))
            assert direct == stored == again > 0
            assert "_apply_model" not in traced
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 2


def outer_calls_inner(x):
    """A cached function whose trace calls another cached function on a concrete array."""
    return x + CACHED(np.ones((2, 3)), 1.0, np.zeros(2)).sum()


CACHED_OUTER = program_cache.cached_jit(outer_calls_inner)


def test_a_cached_function_traced_for_export_may_call_another(folder):
    """The inner call happens while the outer one is being exported (the cache's lock held):
    a non-reentrant lock would hang here."""
    with float64():
        out = np.asarray(CACHED_OUTER(jnp.zeros(2)))
    np.testing.assert_array_equal(out, np.full(2, 6.0))  # sum over 2 rows of (3 x 1.0)
    assert len(list(folder.glob("*/*" + program_cache.SUFFIX))) == 2
