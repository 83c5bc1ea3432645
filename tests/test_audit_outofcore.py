"""Out-of-core audits (issue 14): an HDF5 export read chunk by chunk gives, bit for bit, the
verdicts, messages, scalars, witnesses and quantiles of the in-memory path; serially, on 1 or 2
local Dask workers and on a loopback scheduler; the quantiles are those of ``np.quantile``
computed here on the whole arrays; a generated export's planted defect is found at its pair.

The oracles are independent of the code under test: NumPy on the whole arrays (quantiles,
reshapes), the generator's closed forms (which pair, which claims), and the serial run for the
distributed ones."""

import math

import h5py
import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.audit import CLAIM_IDS, audit_claims, read_export, write_export
from nacverify.audit.gates.generate import DEFECTS, generate_export
from nacverify.audit.gates.quantiles import BOUND, QUANTILES, Accumulator, RefineAccumulator, Selection
from nacverify.audit.gates.source import row_slabs
from nacverify.audit.gates.stream import audit_file
from nacverify.claims import Verdict, evaluate
from nacverify.cli.app import app
from nacverify.errors import BadInput
from nacverify.report import read_report

from test_audit import finish

SHAPE = (6, 2, 1000, 8)  # 96 000 pairs: a few MB with u
SMALL = dict(keep_all=0, collect_budget=50)  # radix selection over several refine passes, as for a huge export


def big(mode="euler", seed=0, dtype=np.float32, **over):
    """A healthy export with u, a valid mask (one padded key in every 7th row) and one pair with omega < 0."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=SHAPE + (4,))
    x1 = u @ np.array([1.0, -0.5, 0.3, 0.2])
    x2 = np.clip(u @ np.array([-0.7, 0.4, 0.9, -0.3]), -4.0, 1.5)
    phi = (1 / (1 + np.exp(-x1))).astype(dtype)
    omega = (np.log1p(np.exp(x2)) + 0.05).astype(dtype)
    omega[3, 1, 777, 2] = -0.25
    t = rng.uniform(0.05, 1.0, SHAPE).astype(dtype)
    e = finish(dict(phi=phi, omega=omega, t_pseudo=t, u=u.astype(dtype), mode=mode, delta_t=0.5, euler_steps=5, dt=1.0, topk=8), dtype)
    valid = np.ones(SHAPE, bool)
    valid[:, :, ::7, 5] = False
    e["attention"] = np.where(valid, e["attention"], 0.0).astype(dtype)
    e["valid"] = valid
    e.update(over)
    return e


def outcomes(claims):
    """claim id -> (verdict, message, scalars, witness, arrays as raw bits)."""
    out = {}
    for c in claims:
        r = evaluate(c)
        ev = r.outcome.evidence
        arrays = {k: np.asarray(v).view(np.uint64).tolist() if np.asarray(v).dtype == np.float64 else np.asarray(v).tolist() for k, v in ev.arrays.items()}
        scalars = {k: ("nan" if isinstance(v, float) and math.isnan(v) else v) for k, v in ev.scalars.items()}
        out[c.id] = (r.verdict, r.outcome.message, scalars, dict(ev.witness), arrays)
    return out


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ooc")
    files = {mode: write_export(big(mode, seed=i), folder / f"{mode}.h5") for i, mode in enumerate(("exact", "euler", "steady"))}
    files["npz"] = write_export(big("euler", seed=7), folder / "gates.npz")
    return files


@pytest.fixture(scope="module")
def serial(exports):
    return {name: outcomes(audit_claims(read_export(path))) for name, path in exports.items()}


# ---------------------------------------------------------------------------- chunk by chunk = in memory
@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_streamed_hdf5_equals_in_memory_bitwise(exports, serial, mode):
    memory = serial[mode]
    assert {cid: v[0] for cid, v in memory.items()}["audit.omega_positive"] == Verdict.REFUTED  # the planted omega < 0
    for chunk_pairs in (8 * 997, 8 * 6000, 10**9):  # chunks that cut rows of the leading axes anywhere; one chunk
        audited = audit_file(exports[mode], chunk_pairs=chunk_pairs, **SMALL)
        assert not audited.in_memory and audited.bench["chunks"] == math.ceil(12000 / min(12000, chunk_pairs // 8))
        assert audited.bench["passes"] >= 3  # pass 1 and at least two refine passes of the exact quantiles
        assert outcomes(audited.claims) == memory, chunk_pairs
    assert outcomes(audit_file(exports[mode], chunk_pairs=8 * 4000).claims) == memory  # default budgets (keep-all)


def test_npz_chunks_equal_in_memory(exports, serial):
    audited = audit_file(exports["npz"], chunk_pairs=8 * 3001, **SMALL)
    assert audited.in_memory and audited.bench["chunks"] == 4
    assert outcomes(audited.claims) == serial["npz"]


def test_quantiles_are_numpys_on_the_whole_arrays(exports):
    """The evidence quantiles against np.quantile computed here from the file's arrays."""
    with h5py.File(exports["euler"]) as f:
        phi, omega, valid = f["phi"][()].astype(np.float64), f["omega"][()].astype(np.float64), f["valid"][()]
    ok = valid & (omega > 0)
    got = {c.id: evaluate(c).outcome.evidence.arrays for c in audit_file(exports["euler"], chunk_pairs=8 * 1234, **SMALL).claims}
    expected = {
        ("audit.gate_variation", "phi_quantiles"): phi[valid],
        ("audit.gate_variation", "omega_quantiles"): omega[valid],
        ("audit.omega_positive", "omega_quantiles"): omega[valid],
        ("audit.euler_margin", "dt_omega_quantiles"): 0.5 * omega[ok],
        ("audit.sharpness", "A_quantiles"): (phi / np.where(ok, omega, 1.0))[ok],
    }
    for (cid, name), values in expected.items():
        np.testing.assert_array_equal(got[cid][name], np.quantile(values, QUANTILES), err_msg=f"{cid} {name}")


def test_bounded_quantiles_keep_verdicts_and_witnesses(exports, serial):
    bounded = outcomes(audit_file(exports["exact"], chunk_pairs=8 * 5000, quantiles="bounded", keep_all=0).claims)
    exact = serial["exact"]
    for cid in CLAIM_IDS:
        assert bounded[cid][:4] == exact[cid][:4], cid  # verdict, message, scalars, witness
        for name, bits in exact[cid][4].items():
            e, b = np.asarray(bits, np.uint64).view(np.float64), np.asarray(bounded[cid][4][name], np.uint64).view(np.float64)
            # quantile j interpolates two order statistics that lie between quantiles j - 1 and j + 1 (n > 100)
            a = np.abs(e)
            around = np.maximum(a, np.maximum(np.concatenate([a[:1], a[:-1]]), np.concatenate([a[1:], a[-1:]])))
            assert np.all(np.abs(b - e) <= BOUND * around * (1 + 1e-12) + 1e-300), (cid, name)
    with pytest.raises(BadInput, match="quantiles"):
        audit_file(exports["exact"], quantiles="approximately")


def test_value_errors_are_those_of_the_in_memory_reader(tmp_path):
    e = big("steady")
    e["logits"] = e["logits"].copy()
    e["logits"][5, 1, 990, 6] = np.nan  # in the last chunk
    e["logits"][5, 1, 991, 0] = np.inf
    path = write_export({**e, "logits": np.zeros(SHAPE, np.float32)}, tmp_path / "bad.h5")
    with h5py.File(path, "r+") as f:
        f["logits"][...] = e["logits"]
    with pytest.raises(BadInput) as memory:
        read_export(path)
    with pytest.raises(BadInput) as streamed:
        audit_file(path, chunk_pairs=8 * 500)
    assert str(streamed.value) == str(memory.value) == "array 'logits' has 2 non-finite value(s) (NaN/inf), first at index [5, 1, 990, 6]"
    with h5py.File(path, "r+") as f:
        f["logits"][...] = np.nan_to_num(e["logits"])
        del f["valid"]
        f["valid"] = np.where(e["valid"], 2, 0).astype(np.int8)
    with pytest.raises(BadInput, match="valid must be boolean"):
        audit_file(path, chunk_pairs=8 * 500)
    with h5py.File(path, "r+") as f:
        f["valid"][...] = 0
    with pytest.raises(BadInput, match="valid marks no pair"):
        audit_file(path, chunk_pairs=8 * 500)


# ---------------------------------------------------------------------------- the same numbers on Dask
def test_one_and_two_local_workers_equal_serial(exports, serial):
    from distributed import Client, LocalCluster

    from nacverify.cli._cluster import cluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, Client(local) as client:
        one = audit_file(exports["exact"], executor=client.get_executor(pure=False), chunk_pairs=8 * 2500, **SMALL)
    assert outcomes(one.claims) == serial["exact"]
    assert one.bench["task_processes"] == 1
    with cluster(2) as executor:  # the command line's own local cluster
        for name in ("exact", "euler", "npz"):
            two = audit_file(exports[name], executor=executor, chunk_pairs=8 * 2500, **SMALL)
            assert outcomes(two.claims) == serial[name], name
    assert two.bench["task_processes"] == 2


runner = CliRunner()


def test_cli_on_a_loopback_scheduler_equals_serial(exports, tmp_path, dask_scheduler_address):
    args = ["audit", str(exports["euler"]), "--no-gate", "--chunk-pairs", str(8 * 3000)]
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "serial.h5")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "remote.h5"), "--scheduler", dask_scheduler_address])
    assert res.exit_code == 0, res.output
    a, b = read_report(tmp_path / "serial.h5"), read_report(tmp_path / "remote.h5")
    assert a.claims.keys() == b.claims.keys() == set(CLAIM_IDS)
    for cid in CLAIM_IDS:
        x, y = a.claims[cid], b.claims[cid]
        assert (x.verdict, x.message, x.witness) == (y.verdict, y.message, y.witness), cid
        assert x.scalars == y.scalars
        for name in x.arrays:
            np.testing.assert_array_equal(x.arrays[name], y.arrays[name])
    bench = b.sections["bench"]["audit"]
    assert bench["scheduler"] == dask_scheduler_address and bench["task_processes"] in (1, 2) and bench["chunks"] == 4


def test_unreachable_scheduler_exits_3_naming_it(exports, tmp_path):
    res = runner.invoke(app, ["audit", str(exports["steady"]), "--out", str(tmp_path / "r.h5"), "--scheduler", "tcp://127.0.0.1:1"])
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 3 and len(lines) == 1, res.stderr
    assert lines[0].startswith("nacverify: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert not (tmp_path / "r.h5").exists()


def test_ctrl_c_during_the_passes_writes_an_incomplete_report(exports, tmp_path, monkeypatch):
    import nacverify.cli.audit as cli_audit

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_audit, "audit_file", interrupted)
    res = runner.invoke(app, ["audit", str(exports["steady"]), "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 3 and "marked incomplete" in res.stderr
    assert not read_report(tmp_path / "r.h5").complete


# ---------------------------------------------------------------------------- generated exports
@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_generated_export_planted_defect_is_found_where_planted(tmp_path, defect):
    made = generate_export(tmp_path / "g.h5", 8 * 20000, seed=11, defect=defect)
    audited = audit_file(made.path, chunk_pairs=8 * 3000, **SMALL)
    results = {c.id: evaluate(c) for c in audited.claims}
    assert {cid: r.verdict for cid, r in results.items()} == made.expected == {
        cid: Verdict.REFUTED if cid in DEFECTS[defect] else Verdict.HOLDS for cid in CLAIM_IDS}
    for cid in DEFECTS[defect]:
        witness = results[cid].outcome.evidence.witness
        if cid == "audit.attention_rows":
            assert witness["row"] == f"[{made.defect_index[0]}]" and witness["row_sum"] == pytest.approx(1.05, rel=1e-6)
        else:
            assert witness["index"] == str(list(made.defect_index)), cid
    if defect == "euler":  # a_5 = A (1 - (1 - 1.5)^5) = 1.03125 A: above Theorem 1's interval by A / 32
        w = results["audit.thm1_interval"].outcome.evidence.witness
        assert w["omega"] == 3.0 and w["logit"] == pytest.approx(1.03125 * w["A"], rel=1e-6)


def test_generator_is_a_function_of_its_seed_and_refuses_what_it_cannot_write(tmp_path):
    a = generate_export(tmp_path / "a.h5", 8 * 70000, seed=3)  # two generated blocks
    b = generate_export(tmp_path / "b.h5", 8 * 70000, seed=3)
    c = generate_export(tmp_path / "c.h5", 8 * 70000, seed=4)
    with h5py.File(a.path) as fa, h5py.File(b.path) as fb, h5py.File(c.path) as fc:
        assert fa["phi"].chunks is not None and fa["phi"].compression is None
        for name in ("phi", "omega", "logits", "attention"):
            np.testing.assert_array_equal(fa[name][()], fb[name][()])
        assert not np.array_equal(fa["phi"][()], fc["phi"][()])
    for kwargs, message in (({"pairs": 12}, "multiple of 8"), ({"pairs": 8, "defect": "typo"}, "unknown defect"),
                            ({"pairs": 8 * 2**50}, "GiB free"), ({"pairs": 8}, "exists")):
        target = a.path if message == "exists" else tmp_path / "x.h5"
        with pytest.raises(BadInput, match=message):
            generate_export(target, **kwargs)


def test_audit_gen_command(tmp_path):
    res = runner.invoke(app, ["audit-gen", str(tmp_path / "g.h5"), "--pairs", "80000", "--seed", "2", "--defect", "omega"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["audit", str(tmp_path / "g.h5"), "--out", str(tmp_path / "r.h5"), "--chunk-pairs", "16000"])
    assert res.exit_code == 1 and "audit.omega_positive: refuted, expected holds" in res.stderr
    res = runner.invoke(app, ["audit-gen", str(tmp_path / "g.h5"), "--pairs", "80000"])
    assert res.exit_code == 2 and "exists" in res.stderr


# ---------------------------------------------------------------------------- the parts
def test_row_slabs_cover_the_flat_rows_in_order():
    rng = np.random.default_rng(0)
    for lead in [(7,), (3, 5), (2, 3, 4), (1, 1, 9), (4, 1, 3, 2)]:
        rows = int(np.prod(lead))
        data = np.arange(rows * 2).reshape(lead + (2,))
        for _ in range(30):
            start = int(rng.integers(0, rows))
            stop = int(rng.integers(start, rows + 1))
            slabs = row_slabs(lead, start, stop)
            got = np.concatenate([data[s].reshape(-1, 2) for s in slabs]) if slabs else np.zeros((0, 2), int)
            np.testing.assert_array_equal(got, data.reshape(-1, 2)[start:stop])
            assert len(slabs) <= 2 * len(lead) - 1


def _select(values, budget, parts=5):
    selection = Selection(False, collect_budget=budget)
    chunks = np.array_split(values, parts)
    for part in chunks:
        acc = Accumulator(False)
        acc.add(part)
        selection.absorb(acc.result())
    selection.start()
    while (request := selection.request()) is not None:
        for part in chunks:
            acc = RefineAccumulator(request)
            acc.add(part)
            selection.absorb_refine(acc.result())
        selection.finish_refine()
    return selection


@pytest.mark.parametrize("budget", [1, 64, 10**9])
def test_exact_selection_equals_np_quantile(budget):
    rng = np.random.default_rng(5)
    with np.errstate(over="ignore"):
        wide = np.exp(rng.normal(0, 300, 9000))  # with overflows to inf
    cases = [rng.normal(size=30011), rng.integers(0, 4, 20000).astype(float), np.full(5000, 0.3), np.array([2.0]),
             np.concatenate([wide, -rng.exponential(size=900) * 1e-310, [np.inf, -np.inf]])]
    for values in cases:
        with np.errstate(invalid="ignore"):  # inf - inf in the interpolation: NaN, in np.quantile as here
            expected = np.quantile(values, QUANTILES)
        np.testing.assert_array_equal(_select(values, budget, parts=7).quantiles(), expected)
    with_nan = np.array([1.0, np.nan, 3.0])
    selection = Selection(False)
    acc = Accumulator(False)
    acc.add(with_nan)
    selection.absorb(acc.result())
    selection.start()
    assert selection.request() is None and np.isnan(selection.quantiles()).all()  # as np.quantile


@pytest.mark.parametrize("values", [np.full(5000, 0.3), np.repeat([-2.5, 0.0, 1.0, 3.0], 1000)], ids=["one value", "four values"])
def test_a_split_bin_of_one_repeated_value_ends_in_the_pass_that_splits_it(values):
    # Each first-level bin holds copies of one value (more than the budget of 1): the refine pass
    # that splits it sees its smallest and largest keys equal, so pass 1 and one refine pass
    # suffice. Splitting down to 64 key bits (20 -> 36 -> 52 -> 64) took 4 passes.
    selection = _select(values, budget=1)
    assert selection.passes == 2
    np.testing.assert_array_equal(selection.quantiles(), np.quantile(values, QUANTILES))


def test_a_bin_with_two_values_is_not_taken_for_one():
    # both values share their first 20 and their next 16 key bits: the bin is split twice, and its
    # order statistics are the two values, not the smaller one
    a = 1.0
    b = np.nextafter(a, 2.0)
    values = np.concatenate([np.full(3000, a), np.full(2000, b)])
    selection = _select(values, budget=1)
    assert selection.passes > 2
    np.testing.assert_array_equal(selection.quantiles(), np.quantile(values, QUANTILES))


def test_a_failing_claim_computation_is_an_error_verdict_of_that_claim_alone(monkeypatch):
    from nacverify.audit.gates import blocks

    def broken(block):
        raise ZeroDivisionError("planted")

    monkeypatch.setitem(blocks.MAPS, "audit.sharpness", broken)
    e = big("steady")
    results = {c.id: evaluate(c) for c in audit_claims(read_export_from(e))}
    assert results["audit.sharpness"].verdict == Verdict.ERROR and "planted" in results["audit.sharpness"].outcome.message
    assert results["audit.gate_variation"].verdict == Verdict.HOLDS


def read_export_from(entries):
    from nacverify.audit import from_arrays

    return from_arrays(entries)
