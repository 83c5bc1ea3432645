"""The audit claims on synthetic gate exports: a clean export passes, each defect is caught by
its claim (and, where the theory allows, only by it), tolerances follow the dtype, and the
format reader refuses malformed exports with one-line `BadInput`s.

Every synthetic export is built here from closed forms written out in the test (exact:
A(1 - e^{-omega t}); euler from a_0 = 0: A(1 - (1 - delta_t omega)^n); softmax by hand), not
through the code under test."""

import h5py
import numpy as np
import pytest

from nacverify.audit import (
    CLAIM_IDS, apply_expect, audit_claims, from_arrays, read_expect, read_export, write_export,
)
from nacverify.claims import Verdict, evaluate
from nacverify.errors import BadInput

SHAPE = (2, 2, 6, 8)  # batch, heads, queries, K


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def make(mode="exact", dtype=np.float64, delta_t=0.5, steps=5, seed=0, **over):
    """A healthy export with split-head gates: phi = sigmoid(x1), omega = softplus(x2) + 0.05,
    x2 in [-4, 1.5] so omega < 2 = 1/delta_t and A = phi/omega spans well beyond log 7."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=SHAPE + (4,))
    x1 = u @ np.array([1.0, -0.5, 0.3, 0.2])
    x2 = np.clip(u @ np.array([-0.7, 0.4, 0.9, -0.3]), -4.0, 1.5)
    phi = (1 / (1 + np.exp(-x1))).astype(dtype)
    omega = (np.log1p(np.exp(x2)) + 0.05).astype(dtype)
    t = rng.uniform(0.05, 1.0, SHAPE).astype(dtype)
    entries = dict(phi=phi, omega=omega, t_pseudo=t, u=u.astype(dtype), mode=mode, delta_t=delta_t, euler_steps=steps, dt=1.0, topk=SHAPE[-1])
    entries.update(over)
    return finish(entries, dtype)


def finish(e, dtype=np.float64):
    """Logits in the export's dtype by the closed forms, attention by softmax."""
    phi, omega, t = (np.asarray(e[k], dtype) for k in ("phi", "omega", "t_pseudo"))
    A = phi / omega
    if e["mode"] == "exact":
        a = A * (1 - np.exp(-omega * t))
    elif e["mode"] == "euler":
        a = A * (1 - (1 - e["delta_t"] * omega) ** e["euler_steps"])
    else:
        a = A
    e["logits"] = a.astype(dtype)
    e["attention"] = softmax(e["logits"].astype(np.float64)).astype(dtype)
    return e


def run(entries, **kw):
    claims = audit_claims(from_arrays(entries), **kw)
    return {c.id: (evaluate(c), c) for c in claims}


def verdicts(results):
    return {cid: r.verdict for cid, (r, _) in results.items()}


CLEAN_EXACT = {cid: Verdict.HOLDS for cid in CLAIM_IDS} | {"audit.euler_margin": Verdict.INAPPLICABLE}


@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_clean_export_passes(mode):
    res = run(make(mode))
    expected = dict(CLEAN_EXACT)
    if mode == "euler":
        expected["audit.euler_margin"] = Verdict.HOLDS
    assert verdicts(res) == expected
    assert all(r.verdict == c.expected for r, c in res.values())  # the default expectations pass the gate


def test_clean_float32_export_passes_with_dtype_tolerance():
    res = run(make("exact", np.float32))
    assert verdicts(res) == CLEAN_EXACT
    ev = res["audit.logits_consistent"][0].outcome.evidence.scalars
    assert ev["dtype_eps"] == float(np.finfo(np.float32).eps)
    assert 0 < ev["max_diff_ulps_of_scale"] < 16  # float32 rounding of a handful of operations


def test_negative_omega_caught_by_omega_positive_only():
    e = make("exact")
    e["omega"] = e["omega"].copy()
    e["omega"][1, 0, 3, 5] = -0.3  # logits and attention left as exported
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.omega_positive": Verdict.REFUTED}
    r = res["audit.omega_positive"][0]
    assert r.outcome.evidence.witness["index"] == "[1, 0, 3, 5]"
    assert r.outcome.evidence.scalars["nonpositive_pairs"] == 1
    assert res["audit.thm1_interval"][0].outcome.evidence.scalars["excluded_nonpositive_omega"] == 1


def test_euler_unstable_omega_even_steps_caught_by_euler_margin_only():
    # h = delta_t omega = 1.5 at one pair, 4 steps: a_4 = A (1 - 0.5^4) lies inside [0, A], but a_1 = 1.5 A does not
    e = make("euler", steps=4)
    e["omega"] = e["omega"].copy()
    e["omega"][0, 1, 2, 3] = 3.0
    e = finish(e)
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.euler_margin": Verdict.REFUTED}
    r = res["audit.euler_margin"][0]
    w, s = r.outcome.evidence.witness, r.outcome.evidence.scalars
    assert w["index"] == "[0, 1, 2, 3]" and w["dt_omega"] == pytest.approx(1.5) and w["threshold"] == 1.0
    assert s["pairs_leaving"] == 1 and s["pairs_diverging"] == 0
    assert s["largest_safe_delta_t"] == pytest.approx(1 / 3.0)  # 1/omega_max


def test_euler_unstable_omega_odd_steps_also_leaves_theorem1_interval():
    # 5 steps with h = 2.5: a_5 = A (1 - (-1.5)^5) = 8.59375 A, outside [0, A]; the iteration grows (|1 - h| > 1)
    e = make("euler", steps=5)
    e["omega"] = e["omega"].copy()
    e["omega"][1, 1, 0, 0] = 5.0
    e = finish(e)
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.euler_margin": Verdict.REFUTED, "audit.thm1_interval": Verdict.REFUTED}
    w = res["audit.thm1_interval"][0].outcome.evidence.witness
    assert w["index"] == "[1, 1, 0, 0]" and w["logit"] / w["A"] == pytest.approx(8.59375)
    assert res["audit.euler_margin"][0].outcome.evidence.scalars["pairs_diverging"] == 1


def test_constant_gates_caught_by_gate_variation_only():
    e = make("exact")
    e["phi"] = np.full(SHAPE, 0.9)
    e["omega"] = np.full(SHAPE, 0.25)  # A = 3.6 > log 7: a sharp row stays reachable
    e = finish(e)
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.gate_variation": Verdict.REFUTED}
    assert "input-independent" in res["audit.gate_variation"][0].outcome.message


def test_constant_inputs_make_gate_variation_inconclusive():
    e = make("exact")
    e["u"] = np.ones(SHAPE + (4,))
    e["phi"], e["omega"] = np.full(SHAPE, 0.9), np.full(SHAPE, 0.25)
    res = run(finish(e))
    assert res["audit.gate_variation"][0].verdict == Verdict.INCONCLUSIVE


def test_inconsistent_logits_caught_by_logits_consistent_only():
    e = make("exact")
    e["logits"] = e["logits"].copy()
    e["logits"][0, 0, 4, 2] *= 0.99  # 1% off at one pair, still inside [0, A]
    e["attention"] = softmax(e["logits"])
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.logits_consistent": Verdict.REFUTED}
    r = res["audit.logits_consistent"][0]
    assert r.outcome.evidence.witness["index"] == "[0, 0, 4, 2]" and r.outcome.evidence.scalars["pairs_off"] == 1


def test_steady_logits_declared_exact_are_inconsistent():
    e = make("steady")
    e["mode"] = "exact"  # an implementation that reports the wrong mode
    res = run(e)
    assert res["audit.logits_consistent"][0].verdict == Verdict.REFUTED
    assert res["audit.thm1_interval"][0].verdict == Verdict.HOLDS  # A itself is the interval's end


def test_logit_tolerance_is_in_ulps_of_the_dtype():
    e = make("exact", np.float32)
    A = e["phi"].astype(np.float64) / e["omega"]
    ulp = np.finfo(np.float32).eps * np.abs(A)
    for shift, verdict in ((8, Verdict.HOLDS), (2000, Verdict.REFUTED)):
        f = dict(e)
        f["logits"] = (e["logits"] + shift * ulp).astype(np.float32)
        f["attention"] = softmax(f["logits"].astype(np.float64)).astype(np.float32)
        assert run(f)["audit.logits_consistent"][0].verdict == verdict, shift


def test_attention_rows_not_summing_to_one_caught_by_attention_rows_only():
    e = make("exact")
    e["attention"] = e["attention"].copy()
    e["attention"][1, 1, 5] *= 1.05
    res = run(e)
    assert verdicts(res) == CLEAN_EXACT | {"audit.attention_rows": Verdict.REFUTED}
    r = res["audit.attention_rows"][0]
    assert r.outcome.evidence.witness["row"] == "[1, 1, 5]" and r.outcome.evidence.witness["row_sum"] == pytest.approx(1.05)
    assert r.outcome.evidence.scalars["rows_off"] == 1


def test_attention_that_is_not_the_softmax_of_the_logits():
    e = make("exact")
    e["attention"] = e["attention"].copy()
    e["attention"][0, 1, 1] = e["attention"][0, 1, 1][::-1]  # rows still sum to 1
    assert run(e)["audit.attention_rows"][0].verdict == Verdict.REFUTED


def test_shared_gate_cannot_become_sharp():
    # phi = sigmoid(x), omega = softplus(x) + 1e-6 from one output x: A in (0, 1) (nac.gates.shared.steady_range),
    # so the top weight over 8 keys stays below e/(e + 7) = 0.2797 (nac.gates.shared.max_softmax_weight)
    x = np.random.default_rng(3).normal(0, 3, SHAPE)
    e = make("exact")
    e["phi"], e["omega"] = 1 / (1 + np.exp(-x)), np.log1p(np.exp(x)) + 1e-6
    res = run(finish(e))
    r = res["audit.sharpness"][0]
    assert r.verdict == Verdict.REFUTED
    s = r.outcome.evidence.scalars
    A = e["phi"] / e["omega"]
    assert s["logit_spread"] == pytest.approx(A.max())  # min(0, A) = 0
    assert s["ceiling"] == pytest.approx(np.exp(A.max()) / (np.exp(A.max()) + 7)) and s["ceiling"] < np.e / (np.e + 7)
    assert s["logit_spread_needed"] == pytest.approx(np.log(7))
    assert s["observed_max_weight"] <= s["ceiling"]
    # the same gates pass a threshold below their ceiling
    assert run(finish(e), sharp_threshold=0.2)["audit.sharpness"][0].verdict == Verdict.HOLDS


def test_missing_optional_arrays_are_inapplicable_and_expected_so():
    e = make("exact")
    minimal = {"phi": e["phi"], "omega": e["omega"]}
    res = run(minimal)
    v = verdicts(res)
    assert v["audit.omega_positive"] == v["audit.gate_variation"] == v["audit.sharpness"] == Verdict.HOLDS
    for cid in ("audit.thm1_interval", "audit.logits_consistent", "audit.euler_margin", "audit.attention_rows"):
        r, c = res[cid]
        assert r.verdict == c.expected == Verdict.INAPPLICABLE, cid
    # steady mode without logits: Theorem 1 is judged on the recomputed logits
    res = run({**minimal, "mode": "steady"})
    assert res["audit.thm1_interval"][0].verdict == Verdict.HOLDS
    assert "recomputed" in res["audit.thm1_interval"][0].outcome.evidence.scalars["logits"]


def test_valid_mask_excludes_padding():
    e = make("exact")
    valid = np.ones(SHAPE, bool)
    valid[..., 6:] = False  # two padded keys per query: garbage gates, zero weight
    e["omega"] = np.where(valid, e["omega"], -1.0)
    e["logits"] = np.where(valid, e["logits"], 99.0)
    att = np.where(valid, softmax(np.where(valid, e["logits"], -np.inf)), 0.0)  # softmax over the valid keys only
    e["attention"], e["valid"] = att, valid
    assert verdicts(run(e)) == CLEAN_EXACT
    e["attention"] = np.where(valid, att, 0.01)
    assert run(e)["audit.attention_rows"][0].verdict == Verdict.REFUTED


# ---------------------------------------------------------------------------- expect files
def test_expect_file_overrides_and_is_strict(tmp_path):
    e = make("exact")
    claims = audit_claims(from_arrays(e))
    f = tmp_path / "x.toml"
    f.write_text('audit.sharpness = { verdict = "refuted", reason = "shared gate" }\n"audit.euler_margin" = "inapplicable"\n')
    table = read_expect(f)
    assert table["audit.sharpness"].verdict == Verdict.REFUTED and table["audit.sharpness"].reason == "shared gate"
    changed = {c.id: c for c in apply_expect(claims, table)}
    assert changed["audit.sharpness"].expected == Verdict.REFUTED
    assert changed["audit.omega_positive"].expected == Verdict.HOLDS
    # the clean export's sharpness holds: differs from the accepted `refuted` -> the gate fails (strict both ways)
    assert evaluate(changed["audit.sharpness"]).verdict != changed["audit.sharpness"].expected
    j = tmp_path / "x.json"
    j.write_text('{"audit.nope": "holds"}')
    with pytest.raises(BadInput, match="unknown claim id"):
        apply_expect(claims, read_expect(j))
    j.write_text('{"audit.sharpness": "fine"}')
    with pytest.raises(BadInput, match="unknown verdict"):
        read_expect(j)
    j.write_text("[1, 2]")
    with pytest.raises(BadInput, match="top level"):
        read_expect(j)


# ---------------------------------------------------------------------------- format
@pytest.mark.parametrize("suffix", [".npz", ".h5"])
def test_write_read_round_trip(tmp_path, suffix):
    e = make("euler", np.float32)
    path = write_export(e, tmp_path / f"g{suffix}")
    back = read_export(path)
    for name in ("phi", "omega", "t_pseudo", "logits", "attention", "u"):
        np.testing.assert_array_equal(getattr(back, name), e[name])
        assert getattr(back, name).dtype == np.float32
    assert (back.mode, back.delta_t, back.euler_steps, back.dt, back.topk) == ("euler", 0.5, 5, 1.0, 8)
    with pytest.raises(BadInput, match="exists"):
        write_export(e, path)


def bad(**changes):
    e = make("exact")
    for k, v in changes.items():
        if v is None:
            e.pop(k)
        else:
            e[k] = v
    return e


@pytest.mark.parametrize(
    "entries, message",
    [
        (bad(omega=None), "required array"),
        (bad(omega=np.ones((2, 2, 6, 7))), "must match"),
        (bad(logits=np.ones((2, 2, 6))), "logits has shape"),
        (bad(u=np.ones(SHAPE)), "u has shape"),
        (bad(phi=np.where(np.arange(8) == 3, np.nan, 0.5) * np.ones(SHAPE)), "non-finite"),
        (bad(attention=np.full(SHAPE, np.inf)), "non-finite"),
        (bad(phi=np.ones(SHAPE, dtype=np.int32)), "floating-point"),
        (bad(mode="rk4"), "mode"),
        (bad(delta_t=-1.0), "delta_t"),
        (bad(euler_steps=2.5), "integer"),
        (bad(mode="euler", delta_t=None), "needs the attributes"),
        (bad(format="something-else"), "not a NAC gate export"),
        (bad(valid=np.zeros(SHAPE, bool)), "no pair"),
        (bad(phi=np.ones((0, 8)), omega=np.ones((0, 8))), "at least one"),
    ],
)
def test_malformed_exports_are_bad_input(entries, message):
    with pytest.raises(BadInput, match=message):
        from_arrays(entries)


def test_foreign_files_are_bad_input(tmp_path):
    text = tmp_path / "a.csv"
    text.write_text("phi,omega\n0.5,1\n")
    npy = tmp_path / "a.npy"
    np.save(npy, np.ones(3))
    report = tmp_path / "r.h5"
    with h5py.File(report, "w") as h:
        h.attrs["format"] = "nacverify-report"
    keras = tmp_path / "k.h5"
    with h5py.File(keras, "w") as h:
        h.attrs["keras_version"] = "2.15"
    obj = tmp_path / "o.npz"
    np.savez(obj, phi=np.array([object()], dtype=object), omega=np.ones(1))
    import zipfile

    torch_like = tmp_path / "t.pt"
    with zipfile.ZipFile(torch_like, "w") as z:
        z.writestr("archive/data.pkl", b"\x80\x02")
    truncated = tmp_path / "cut.npz"
    np.savez(truncated, phi=np.ones((4, 8)), omega=np.ones((4, 8)))
    truncated.write_bytes(truncated.read_bytes()[:60])
    for path, message in ((text, "neither an NPZ nor an HDF5"), (npy, "single .npy"), (report, "nacverify report"),
                          (keras, "Keras model"), (obj, "Python objects"), (torch_like, "PyTorch"), (truncated, "unreadable"),
                          (tmp_path / "missing.npz", "no file"), (tmp_path, "directory")):
        with pytest.raises(BadInput, match=message):
            read_export(path)


def test_compute_eps_widens_the_tolerance_for_coarser_arithmetic():
    import jax.numpy as jnp

    e = make("exact", np.float32)
    e["logits"] = np.asarray(jnp.asarray(e["logits"], jnp.bfloat16).astype(jnp.float32))  # a bfloat16 model, exported as float32
    e["attention"] = softmax(e["logits"].astype(np.float64)).astype(np.float32)
    assert run(e)["audit.logits_consistent"][0].verdict == Verdict.REFUTED
    bf16_eps = 2.0**-7
    res = run({**e, "compute_eps": bf16_eps})
    assert res["audit.logits_consistent"][0].verdict == Verdict.HOLDS
    assert res["audit.logits_consistent"][0].outcome.evidence.scalars["dtype_eps"] == bf16_eps
