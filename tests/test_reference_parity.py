"""The `reference` variant against the public TF/Keras NAC layer's own numbers (issue 12 A):
the Keras-weight loader, ``nac.model.reference_parity`` on the golden fixture, a perturbed
weight that the claim must catch, the elementary-function accuracy its tolerance assumes, and
the audit of the fixture's gates."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import nacverify  # noqa: F401  (float64 on; the model below still computes in float32)
from nacverify.audit import audit_claims, from_arrays
from nacverify.checks.nac_reference_parity import E_FN, find_reference_dir, parity_mode, reference_parity_outcome
from nacverify.claims import Verdict, evaluate
from nacverify.errors import BadInput
from nacverify.model import NAC, from_keras_weights, golden_arrays
from nacverify.model.gates import logits

REF = find_reference_dir()
# the golden file ships with the package (nacverify/data/reference): its tests run everywhere, and fail
# rather than skip if it goes missing


@pytest.fixture(scope="module")
def golden():
    with np.load(REF / "public_tf_nac_golden.npz") as z:
        return {k: z[k] for k in z.files}


# ----------------------------------------------------------------------------- loader (no fixture needed)


def _keras_names(model: NAC) -> tuple[dict, dict]:
    """A JAX reference model's parameters under the public layer's weight names."""
    w = {}
    cells = {"q_proj": model.q_proj, "k_proj": model.k_proj, "v_proj": model.v_proj, "out": model.backbone.cell}
    for sub, c in cells.items():
        w.update({
            f"{sub}/input_kernel": c.input_kernel, f"{sub}/recurrent_kernel": c.recurrent_kernel, f"{sub}/bias": c.bias,
            f"{sub}/input_w": c.w_in, f"{sub}/input_b": c.b_in, f"{sub}/output_w": c.w_out, f"{sub}/output_b": c.b_out,
            f"{sub}/sparsity_mask": c.recurrent_mask, f"{sub}/sensory_sparsity_mask": c.input_mask, f"{sub}/active_mask": c.active_mask,
        })
    for sub, d in (("time_a", model.time.t_a), ("time_b", model.time.t_b), ("out_proj", model.out_proj)):
        w[f"{sub}/kernel"], w[f"{sub}/bias"] = d.weight, d.bias
    w = {k: np.asarray(v).astype(np.float32) for k, v in w.items()}
    return w, {"d_model": 16, "num_heads": 2}


def test_loader_round_trips_a_reference_model():
    model = NAC(16, 2, key=jax.random.PRNGKey(4), backbone="reference", return_sequences=True)
    w, cfg = _keras_names(model)
    loaded = from_keras_weights(w, cfg, mode="exact", return_sequences=True)
    x = jax.random.normal(jax.random.PRNGKey(5), (1, 12, 16), jnp.float32)
    assert loaded.config.backbone == "reference" and loaded.q_proj.input_kernel.dtype == jnp.float32
    np.testing.assert_array_equal(np.asarray(loaded(x)), np.asarray(model(x)))


def test_loader_refuses_missing_or_misshapen_weights():
    model = NAC(16, 2, key=jax.random.PRNGKey(4), backbone="reference")
    w, cfg = _keras_names(model)
    with pytest.raises(BadInput, match="time_a/kernel"):
        from_keras_weights({k: v for k, v in w.items() if k != "time_a/kernel"}, cfg)
    with pytest.raises(BadInput, match="shape"):
        from_keras_weights({**w, "out_proj/bias": np.zeros(3, np.float32)}, cfg)
    with pytest.raises(BadInput, match="num_heads"):
        from_keras_weights(w, {"d_model": 16})
    bad = dict(w)
    bad["q_proj/sensory_sparsity_mask"] = bad["q_proj/sensory_sparsity_mask"].copy()
    bad["q_proj/sensory_sparsity_mask"][0, np.argmax(bad["q_proj/sensory_sparsity_mask"][0])] = 0  # a partial column
    with pytest.raises(BadInput, match="whole columns"):
        from_keras_weights(bad, cfg)


def test_reference_exact_logits_use_the_public_form():
    """The public layer computes 1 - exp(-omega t); with omega t = 1e-4 the float32 result is
    1 minus a float32 in [0.5, 1), an exact multiple of 2^-24 (Sterbenz); the former
    -expm1(-omega t) was not (it fails this test)."""
    phi, omega, t = jnp.float32(0.5), jnp.float32(1.0), jnp.float32(1e-4)
    a = float(logits(phi, omega, t, "exact", public_form=True))
    scaled = a / 0.5 * 2.0**24
    assert scaled == round(scaled) and abs(a - 0.5 * -math.expm1(-1e-4)) < 0.5 * 2.0**-23
    acc = float(logits(phi, omega, t, "exact"))
    assert acc / 0.5 * 2.0**24 != round(acc / 0.5 * 2.0**24)
    model = NAC(8, 2, key=jax.random.PRNGKey(0), backbone="reference", topk=4)
    x = jax.random.normal(jax.random.PRNGKey(1), (1, 6, 8), jnp.float32)
    tr = model.trace(x)
    one_minus = np.asarray(tr.logits) / (np.asarray(tr.phi) / np.asarray(tr.omega)).astype(np.float32)
    np.testing.assert_allclose(one_minus * 2.0**24, np.round(one_minus * 2.0**24), atol=0.02)


@pytest.mark.parametrize("name", ["exp", "log1p", "sigmoid", "softplus"])
def test_jax_elementary_functions_within_the_assumed_ulps(name):
    """The parity tolerance assumes E_FN ulps per exp / log1p / logistic call (Eigen's documented
    worst case for TF's sigmoid); check XLA's float32 versions on a dense grid against float64."""
    lo, hi = {"exp": (-87.0, 88.0), "log1p": (-0.99, 1e4), "sigmoid": (-80.0, 80.0), "softplus": (-80.0, 80.0)}[name]
    x = np.linspace(lo, hi, 400_001, dtype=np.float32)
    if name == "log1p":
        x = np.concatenate([x, np.float32(10.0) ** np.linspace(-30, 0, 20_001, dtype=np.float32)])
    f32 = {"exp": jnp.exp, "log1p": jnp.log1p, "sigmoid": jax.nn.sigmoid, "softplus": jax.nn.softplus}[name]
    x64 = x.astype(np.float64)
    exact = {"exp": np.exp, "log1p": np.log1p, "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "softplus": lambda v: np.logaddexp(v, 0)}[name](x64)
    got = np.asarray(jax.jit(f32)(jnp.asarray(x))).astype(np.float64)
    ok = exact >= np.finfo(np.float32).tiny
    ulps = np.abs(got - exact)[ok] / np.spacing(exact[ok].astype(np.float32)).astype(np.float64)
    assert ulps.max() <= E_FN


# ----------------------------------------------------------------------------- the golden fixture


def test_parity_holds_on_the_golden_fixture(golden):
    """Op by op (the compiled path runs in `nacverify check`): phi is bit-identical to the public
    layer's, the top-k indices identical without any tie, and every tensor of every mode within
    its derived tolerance. q, k and v are bit-identical on some CPUs only: XLA's float32 dot adds
    in an order set by the CPU's vector width (AVX-512 here on 2026-11-24: up to 2048 ulps on
    near-zero entries of v, 0.58 of them bit-equal), so their bound, not bit equality, is tested."""
    out = reference_parity_outcome(golden, paths=("eager",))
    assert out.verdict == Verdict.HOLDS, out.message
    s = out.evidence.scalars
    for mode in ("exact", "euler", "steady"):
        assert s[f"eager_{mode}_index_mismatches"] == 0 and s[f"eager_{mode}_ties"] == 0
        assert s[f"eager_{mode}_phi_bit_equal"] == 1.0
        for t in ("q", "k", "v"):
            assert s[f"eager_{mode}_{t}_max_ratio"] <= 1.0
        assert s[f"eager_{mode}_omega_max_ulps"] <= 1.0  # softplus by another formula: one rounding apart
    assert np.max(out.evidence.arrays["max_ratio_to_tolerance"]) <= 1.0


def test_phi_tolerance_has_its_derived_size(golden):
    """phi's tolerance, derived by hand from the running-error analysis of nac_reference_parity.py for the
    fixture's one phi value. The backbone's motor neuron 0 has no sensory column (its input mask
    column is all zero), so its pre-activation is its bias b0, a 'sum' of 16 + 1 terms charged
    gamma_17 |b0|; then y = b0 w_out + b_out (two roundings), phi = sigmoid(y) (4.5 ulps, Eigen's
    worst case for TF's logistic, plus sigma'(y) times y's radius), and |jax - tf| <= 2 R:
      R_pre = gamma_17 |b0|,  R_1 = |w_out| R_pre + u (|b0 w_out| + |w_out| R_pre),  R_y = R_1 + u (|y| + R_1),
      R_phi = s R_y + 4.5 eps32 (phi + s R_y),  s = phi (1 - phi);  tolerance = 2 R_phi / ulp(phi).
    With b0 = 0.28123245, w_out = 0.5391391, b_out = -0.03984756: y = 0.111776, phi = 0.527915,
    about 10.9 ulps (phi in [0.5, 1): one ulp is 2^-24). A tolerance ten times looser would let a
    perturbation of some 100 ulps pass."""
    u, eps32 = 2.0**-24, 2.0**-23
    w = {k: float(golden[f"steady/weights/out/{k}"][0]) for k in ("bias", "output_w", "output_b")}
    assert not golden["steady/weights/out/sensory_sparsity_mask"][:, 0].any()  # read off the fixture
    gamma17 = 17 * u / (1 - 17 * u)
    r_pre = gamma17 * abs(w["bias"])
    prop = abs(w["output_w"]) * r_pre
    r_1 = prop + u * (abs(w["bias"] * w["output_w"]) + prop)
    y = w["bias"] * w["output_w"] + w["output_b"]
    r_y = r_1 + u * (abs(y) + r_1)
    phi = 1 / (1 + math.exp(-y))
    s = phi * (1 - phi)
    r_phi = s * r_y + 4.5 * eps32 * (phi + s * r_y)
    hand_ulps = 2 * r_phi / 2.0**-24
    assert float(golden["steady/phi"].flat[0]) == pytest.approx(phi, rel=1e-6)
    assert 10.5 < hand_ulps < 11.5
    for mode in ("exact", "euler", "steady"):
        fig = parity_mode(golden, mode, jit=False)["figures"]["phi"]
        assert fig["tol_ulps_min"] == pytest.approx(hand_ulps, rel=1e-4)  # (the TINY32 terms are below 1e-30)
        assert fig["tol_ulps_median"] == pytest.approx(hand_ulps, rel=1e-4)  # one phi value over all pairs


def test_a_perturbed_weight_is_refuted(golden):
    """The backbone bias enters phi and omega of every pair: 1e-4 on it moves phi by about
    0.25 * 0.54e-4 = 1.3e-5, some 200 ulps, far outside phi's tolerance of about 11 ulps."""
    bad = dict(golden)
    for mode in ("exact", "euler", "steady"):
        b = bad[f"{mode}/weights/out/bias"].copy()
        b[0] += np.float32(1e-4)
        bad[f"{mode}/weights/out/bias"] = b
    fig = parity_mode(bad, "steady", jit=False)["figures"]
    assert fig["phi"]["max_ratio"] > 1 and fig["phi"]["max_ulps"] > 100
    out = reference_parity_outcome(bad, paths=("eager",))
    assert out.verdict == Verdict.REFUTED and "derived tolerance" in out.message


def test_loader_reads_the_fixture_and_its_groups(golden):
    w, cfg, groups = golden_arrays(golden, "euler")
    model = from_keras_weights(w, cfg, mode="euler", groups=groups)
    assert (model.config.d_model, model.config.num_heads, model.config.topk, model.config.mode) == (16, 2, 8, "euler")
    assert model.backbone.cell.input_index == (4, 10, 13, 14, 16) and model.backbone.cell.output_index == (0,)
    wrong = dict(groups, **{"out_ncp/input_indices": np.arange(5)})
    with pytest.raises(BadInput, match="input group"):
        from_keras_weights(w, cfg, mode="euler", groups=wrong)


@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_audit_of_the_fixture_gates(golden, mode):
    """The public layer's own gates, audited: phi and omega are one constant over all 768 pairs,
    so audit.gate_variation is refuted with that witness."""
    entries = {name: golden[f"{mode}/{name}"] for name in ("phi", "omega", "t_pseudo", "logits", "attention")}
    entries.update(mode=np.asarray(mode), delta_t=np.asarray(0.5), euler_steps=np.asarray(5), dt=np.asarray(1.0), topk=np.asarray(8))
    assert np.unique(entries["phi"]).size == 1 and np.unique(entries["omega"]).size == 1  # read off the fixture
    res = {c.id: evaluate(c) for c in audit_claims(from_arrays(entries, source=f"golden {mode}"))}
    gv = res["audit.gate_variation"]
    assert gv.outcome.verdict == Verdict.REFUTED, gv.outcome.message
    w = gv.outcome.evidence.witness
    assert w["phi"] == w["other_phi"] == float(golden[f"{mode}/phi"].flat[0]) and w["omega"] == w["other_omega"] == float(golden[f"{mode}/omega"].flat[0])
    # A = phi/omega = 0.703 < log 7: no row can be sharp (as for every shared-head export)
    assert res["audit.sharpness"].outcome.verdict == Verdict.REFUTED
    expected_holds = {"audit.omega_positive", "audit.thm1_interval", "audit.logits_consistent", "audit.attention_rows"}
    assert {cid for cid, r in res.items() if r.outcome.verdict == Verdict.HOLDS} == expected_holds | ({"audit.euler_margin"} if mode == "euler" else set())


def test_missing_fixture_is_inconclusive_and_says_why(monkeypatch):
    import nacverify.checks.nac_reference_parity as mc
    from nacverify.claims import CheckContext

    monkeypatch.setattr(mc, "find_reference_dir", lambda: None)
    out = mc._reference_parity(CheckContext())
    assert out.verdict == Verdict.INCONCLUSIVE and "NACVERIFY_REFERENCE" in out.message


# sha256 of shared/reference/public_tf_nac_golden.npz as the project received it
GOLDEN_SHA256 = "a9f9cff09e4e31a681d93d80e812ae35df312260e4d80907ce12ccc499b25bd3"


def test_the_package_ships_the_golden_file_byte_for_byte(monkeypatch):
    import hashlib
    from pathlib import Path

    from nacverify.checks.nac_reference_parity import REFERENCE_FILE, shipped_reference_dir

    monkeypatch.delenv("NACVERIFY_REFERENCE", raising=False)
    shipped = shipped_reference_dir() / REFERENCE_FILE
    assert find_reference_dir() == shipped.parent.resolve()
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == GOLDEN_SHA256
    beside = Path(__file__).resolve().parents[2] / "shared" / "reference" / REFERENCE_FILE
    if beside.is_file():  # CI and developers: the copy is the shared file itself
        assert shipped.read_bytes() == beside.read_bytes()


def test_an_override_that_names_no_golden_file_is_inconclusive_not_replaced(monkeypatch, tmp_path):
    import nacverify.checks.nac_reference_parity as mc
    from nacverify.claims import CheckContext

    monkeypatch.setenv("NACVERIFY_REFERENCE", str(tmp_path / "nowhere"))
    assert find_reference_dir() is None
    out = mc._reference_parity(CheckContext())
    assert out.verdict == Verdict.INCONCLUSIVE and str(tmp_path / "nowhere") in out.message


def test_reference_dir_from_the_environment(monkeypatch, tmp_path):
    from nacverify.checks.nac_reference_parity import REFERENCE_FILE

    (tmp_path / REFERENCE_FILE).write_bytes(b"")
    monkeypatch.setenv("NACVERIFY_REFERENCE", str(tmp_path / REFERENCE_FILE))
    assert find_reference_dir() == tmp_path.resolve()
    monkeypatch.setenv("NACVERIFY_REFERENCE", str(tmp_path))
    assert find_reference_dir() == tmp_path.resolve()


def test_cli_audits_the_fixture_gates(golden, tmp_path):
    """`nacverify audit --export-golden F --mode M`: the same finding from the command line, the witness
    read off the fixture itself."""
    from typer.testing import CliRunner

    from nacverify.cli.app import app
    from nacverify.report import read_report

    runner = CliRunner()
    res = runner.invoke(app, ["audit", "--export-golden", str(tmp_path / "g.npz"), "--mode", "steady", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 1, res.output  # the gate: gate_variation and sharpness differ from 'holds'
    claims = read_report(tmp_path / "r.h5").claims
    gv = claims["audit.gate_variation"]
    assert gv.verdict == "refuted" and float(gv.witness["phi"]) == float(golden["steady/phi"].flat[0])
    assert {cid for cid, c in claims.items() if c.verdict == "refuted"} == {"audit.gate_variation", "audit.sharpness"}
    both = runner.invoke(app, ["audit", str(tmp_path / "g.npz"), "--export-golden", str(tmp_path / "h.npz"), "--out", str(tmp_path / "s.h5")])
    assert both.exit_code == 2 and "one of them" in both.stderr
