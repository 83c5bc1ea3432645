"""The NAC layer's query chunk from the device (nacverify.model.chunking), and that no chunk
changes an output: the accelerator rule is forced on this CPU through a fake device."""

from __future__ import annotations

import types

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.compute import device_memory
from nacverify.model import NAC
from nacverify.model.chunking import DeviceMemory, query_chunk

GIB = 1 << 30
CPU_24G = DeviceMemory("cpu", 24 * GIB)


@pytest.mark.parametrize(
    "batch, expected",
    [
        (1, 128),  # 2^19 / (1 x 4 x 1024) = 128 queries: the budget decides
        (16, 32),  # 2^19 / 65536 = 8, raised to the floor of 32 (the old rule stopped at 8)
        (64, 32),  # 2^19 / 262144 = 2, raised to 32 (the old rule: 2, 2.2x slower measured)
        (512, 32),  # 32 x 512 x 4 x 1024 x 4 B x 4 arrays = 1 GiB <= 6 GiB: the floor holds
    ],
)
def test_cpu_rule_by_hand(batch, expected):
    assert query_chunk(1024, batch * 4 * 1024, 4, CPU_24G) == expected


def test_the_memory_cap_beats_the_floor_and_the_chunk_never_exceeds_the_queries():
    # 64 MiB: cap = 2^26 / 4 / (2^18 pairs x 4 B x 4) = 4 queries, below the floor of 32
    assert query_chunk(1024, 64 * 4 * 1024, 4, DeviceMemory("cpu", 64 << 20)) == 4
    # a tiny machine still gets one query per chunk
    assert query_chunk(1024, 64 * 4 * 1024, 4, DeviceMemory("cpu", 1 << 20)) == 1
    assert query_chunk(20, 4 * 1024, 4, CPU_24G) == 20  # 128 > 20 queries: one chunk
    assert query_chunk(1, 512 * 4 * 1024, 4, CPU_24G) == 1  # the last query only


def test_accelerator_rule_by_hand():
    # 80 GiB: 80 x 2^30 / 4 / (2^21 pairs x 4 B x 4) = 640 -> 512 queries (B = 512, H = 4, T = 1024)
    assert query_chunk(1024, 512 * 4 * 1024, 4, DeviceMemory("gpu", 80 * GIB)) == 512
    # B = 16: 80 x 2^30 / 4 / (2^16 x 16) = 20480 -> all 1024 queries at once
    assert query_chunk(1024, 16 * 4 * 1024, 4, DeviceMemory("gpu", 80 * GIB)) == 1024
    # float64 halves it: 320 -> 256
    assert query_chunk(1024, 512 * 4 * 1024, 8, DeviceMemory("gpu", 80 * GIB)) == 256


def _fake_devices(platform, stats):
    def memory_stats():
        if isinstance(stats, Exception):
            raise stats
        return stats

    return lambda: [types.SimpleNamespace(platform=platform, memory_stats=memory_stats)]


@pytest.mark.parametrize(
    "platform, stats, expected_platform",
    [
        ("gpu", {"bytes_limit": 80 * GIB, "bytes_in_use": 0}, "gpu"),
        ("gpu", None, "cpu"),  # an accelerator that reports no memory is treated as a CPU
        ("tpu", NotImplementedError("no statistics"), "cpu"),
        ("cpu", None, "cpu"),
    ],
)
def test_default_device_reads_the_accelerators_memory(monkeypatch, platform, stats, expected_platform):
    import psutil

    monkeypatch.setattr(jax, "devices", _fake_devices(platform, stats))
    found = device_memory.default_device.__wrapped__()
    assert found.platform == expected_platform
    assert found.memory_bytes == (80 * GIB if expected_platform == "gpu" else psutil.virtual_memory().total)


@pytest.mark.parametrize("curation", ["exact", "block", "pairwise"])
def test_a_forced_accelerator_chunk_changes_no_output(monkeypatch, curation):
    """The one-device accelerator path on this CPU: a fake GPU small enough that the rule picks
    4-query chunks of 37 queries (padded last chunk) gives the CPU rule's outputs (one chunk of
    all 37 queries) to float32 rounding."""
    x = jax.random.normal(jax.random.PRNGKey(3), (3, 37, 16), jnp.float32)
    model = NAC(16, 2, key=jax.random.PRNGKey(1), curation=curation, topk=5, return_sequences=True, return_attention=True)
    from nacverify.model import nac as nac_module

    monkeypatch.setattr(nac_module, "default_device", lambda: CPU_24G)
    assert model.chunk_for(3, 37) == 37
    y_cpu, a_cpu = eqx.filter_jit(lambda m, x_: m(x_))(model, x)  # a new function: traced anew
    width = 37 if curation != "block" else max(-(-37 // 6), -(-5 // 6) * 6 * 8)
    # memory for 4 queries: 4 x (3 x 2 x width) pairs x 4 B x 4 arrays, over the fraction 1/4
    small = DeviceMemory("gpu", 4 * 3 * 2 * width * 4 * 4 * 4)
    monkeypatch.setattr(nac_module, "default_device", lambda: small)
    assert model.chunk_for(3, 37) == 4
    y_gpu, a_gpu = eqx.filter_jit(lambda m, x_: m(x_))(model, x)
    np.testing.assert_allclose(np.asarray(y_gpu), np.asarray(y_cpu), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(np.asarray(a_gpu.weights), np.asarray(a_cpu.weights), rtol=2e-6, atol=1e-7)
    if a_cpu.indices is not None:
        assert np.array_equal(np.asarray(a_gpu.indices), np.asarray(a_cpu.indices))


def test_backends_names_both_chunk_rules(monkeypatch):
    """`nacverify backends` says how the NAC layer and a sweep chunk their work here; with
    verification on the default device (NACVERIFY_PLATFORM=default) a GPU's sweep default shows."""
    from nacverify.cli._devices import device_table

    rows = dict(device_table())
    assert rows["frozen-error --sweep default --chunk"] == "2,000 draws (cpu, 1001 saved points)"
    assert rows["NAC layer's query chunk (bench, model runs)"].startswith("cpu: 524,288 pair elements per chunk, at least 32 queries")
    monkeypatch.setenv("NACVERIFY_PLATFORM", "default")
    monkeypatch.setattr(device_memory, "default_device", lambda: DeviceMemory("gpu", 80 * GIB))
    rows = dict(device_table())
    assert rows["frozen-error --sweep default --chunk"] == "100,000 draws (gpu, 1001 saved points)"
    assert rows["NAC layer's query chunk (bench, model runs)"] == "gpu: the largest chunk within 25% of 80.0 GiB"
