"""Claims of seed 003 (locality-weighted attention: locality_latency, locality_attention,
locality_spiking, locality_readings; seed 004's are tests/test_sparse_attention.py's).

Every expected number here is derived by hand, from a closed form, by finite differences
in plain Python, or with NumPy / the import system directly, never from the code under
test. Timing-based claims are not asserted on their verdicts (no timing assertions)."""

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks import _attention_common as common
from nacverify.checks import locality_attention as la
from nacverify.checks import locality_spiking as lsp
from nacverify.claims import CheckContext, Kind, Verdict, evaluate, get_claim, registry

QUICK = CheckContext(seed=0, quick=True)


def run(cid):
    return evaluate(get_claim(cid), QUICK)


# ---- the eps reading of 'delta is learned through rho' --------------------------------
def alpha1_by_hand(delta, n, s, eps):
    z = [sj + math.log(nj / (2 * delta) + eps) for nj, sj in zip(n, s)]
    top = max(z)
    e = [math.exp(zj - top) for zj in z]
    return e[0] / sum(e)


def test_old_claim_is_a_lemma_of_the_eps_to_zero_limit():
    """The document fixes eps as a small positive constant: the eps -> 0 limit changes a number, so it is our lemma (a
    measurement of how small the signal is), not a reading that could accuse (reports/FINDINGS_STANDARD.md, rule 1)."""
    old = get_claim("locality.delta_learned_through_rho")
    assert old.kind == Kind.LEMMA and not old.reading and "eps -> 0" in old.statement
    assert old.expected == Verdict.REFUTED


def test_as_printed_fixed_eps_claim_matches_finite_differences():
    claim = get_claim("locality.delta_learned_through_rho.fixed_eps")
    assert claim.kind == Kind.AS_PRINTED and not claim.reading
    # three keys, key 3 with an empty midpoint window, eps fixed at 1e-6: central differences by hand
    n, s, eps, delta, h = (2, 3, 0), (0.0, 0.0, math.log(1e6)), 1e-6, 5.0, 1e-5
    fd = (alpha1_by_hand(delta + h, n, s, eps) - alpha1_by_hand(delta - h, n, s, eps)) / (2 * h)
    # weights ~ (0.2, 0.3, 1)/1.5, so -alpha_1 alpha_3 / delta = -(2/15)(2/3)/5 = -0.017777...
    assert fd == pytest.approx(-(2 / 15) * (2 / 3) / 5, rel=1e-4)
    assert abs(fd) > 1e-3                                   # a nonzero gradient: the printed statement holds
    r = run(claim.id)
    assert claim.expected == Verdict.HOLDS and r.verdict == Verdict.HOLDS, r.outcome.message
    assert r.outcome.evidence.witness["dalpha1_ddelta"] == pytest.approx(fd, rel=1e-4)
    # and with eps = 0 the same three keys (all counts > 0) give no gradient at all
    n_full = (2, 3, 4)
    fd0 = (alpha1_by_hand(delta + h, n_full, s, 0.0) - alpha1_by_hand(delta - h, n_full, s, 0.0)) / (2 * h)
    assert abs(fd0) < 1e-9


def test_fixed_eps_h_form_by_finite_differences():
    """locality.grad.fixed_eps_form: d alpha_1/d delta = (alpha_1/delta)(h_1 - sum alpha_k h_k), h_j = eps/(rho_j + eps).
    The hand values (central differences, the h form) are compared with the obligation's own expressions
    at the same point and with the autodiff gradient the fixed-eps claim evaluates (three_key_gradient)."""
    from sympy import Rational

    from nacverify.proofs import locality_attention as proof

    n, s, eps, delta, h = (1, 4, 2), (0.3, -0.2, 0.5), 0.7, 0.8, 1e-6
    fd = (alpha1_by_hand(delta + h, n, s, eps) - alpha1_by_hand(delta - h, n, s, eps)) / (2 * h)
    z = [sj + math.log(nj / (2 * delta) + eps) for nj, sj in zip(n, s)]
    a = [math.exp(zj) / sum(math.exp(zk) for zk in z) for zj in z]
    hh = [eps / (nj / (2 * delta) + eps) for nj in n]
    h_form = a[0] / delta * (hh[0] - sum(ak * hk for ak, hk in zip(a, hh)))
    assert fd == pytest.approx(h_form, rel=1e-6)
    assert abs(fd) <= a[0] / delta * eps / (min(n) / (2 * delta) + eps)
    # the claim's two sides (SymPy's derivative of the softmax, and its h form) at the same point, exactly
    point = {proof.delta: Rational(4, 5), proof.eps_pos: Rational(7, 10), proof.n1: 1, proof.n2: 4, proof.n3: 2,
             proof.s1: Rational(3, 10), proof.s2: Rational(-1, 5), proof.s3: Rational(1, 2)}
    assert float(proof.grad_fixed.subs(point)) == pytest.approx(fd, rel=1e-6)
    assert float(proof.grad_fixed_h_form.subs(point)) == pytest.approx(h_form, rel=1e-12)
    # and the JAX gradient of locality.delta_learned_through_rho.fixed_eps at the same three keys
    assert la.three_key_gradient(delta, n, s, eps) == pytest.approx(fd, rel=1e-6)


# ---- latency arithmetic -----------------------------------------------------------------
def test_latency_figures():
    r19, r11, rj, r10 = (run(c) for c in ("locality.latency.bin_19ms", "locality.latency.bin_11ms",
                                          "locality.latency.jitter_8ms", "locality.latency.first_bin_10ms"))
    assert r19.outcome.evidence.witness["latency_ms"] == (10 - 1) + 10 == 19
    assert r11.outcome.evidence.witness["latency_ms"] == (10 - 9) + 10 == 11
    assert rj.outcome.evidence.scalars["jitter_of_examples_ms"] == 19 - 11 == 8
    assert rj.outcome.evidence.scalars["worst_case_jitter_ms"] == pytest.approx(10.0, abs=0.01)
    assert r10.verdict == Verdict.REFUTED and r10.outcome.evidence.witness["gesture_events_in_first_bin_ms"] == 10 - 1
    assert get_claim("locality.latency.bin_19ms").kind == Kind.READING
    # 'the first bin' as the onset bin is a reading: the next full bin holds 10 ms of the gesture and closes 9 + 10 = 19 ms after onset
    assert get_claim("locality.latency.first_bin_10ms").kind == Kind.READING


# ---- density, bias and what it selects --------------------------------------------------
def test_midpoint_counts_by_hand():
    times = np.array([0.0, 1.0, 3.0])
    # midpoints 0, .5, 1.5 / .5, 1, 2 / 1.5, 2, 3 with |t_e - mid| < 1 (strict: an event at distance exactly 1 is out)
    expected = np.array([[1, 2, 1], [2, 1, 0], [1, 0, 1]])
    assert np.array_equal(common.midpoint_counts(times, 1.0), expected)
    mids = 0.5 * (times[:, None] + times[None, :])
    assert len(np.unique(mids[np.triu_indices(3)])) == 3 * 4 // 2


def test_sliding_window_by_hand():
    times = np.array([0.0, 0.5, 0.9, 2.0, 2.95])
    counts, moves = common.sliding_window_counts(times, 1.0)
    assert counts.tolist() == [3, 3, 3, 2, 2]
    assert moves <= 2 * len(times)
    assert run("locality.rho.sliding_window_On").verdict == Verdict.HOLDS


def test_fit_exponent_on_exact_powers():
    sizes = np.array([10.0, 20.0, 40.0, 80.0])
    assert common.fit_exponent(sizes, 3 * sizes**2) == pytest.approx(2.0)
    assert common.fit_exponent(sizes, sizes) == pytest.approx(1.0)


def test_empty_window_weight_ratio():
    """Zero scores, two keys: weights are proportional to rho + eps, so an empty window gets eps/(rho + eps)."""
    times = np.array([0.0, 0.2, 10.0])
    bias = common.log_density_bias(times, 1.0)
    w = np.exp(bias[0]) / np.exp(bias[0]).sum()
    rho_near = 2 / 2.0                                       # midpoint 0.1: events 0 and 0.2
    assert w[2] / w[1] == pytest.approx(1e-6 / (rho_near + 1e-6), rel=1e-9)  # midpoint 5: empty
    assert run("locality.log_bias.suppresses").verdict == Verdict.HOLDS


def test_long_range_not_suppressed_on_a_regular_grid():
    """Events every 0.1, delta = 1: an interior midpoint window holds 19 to 21 events whatever the pair distance."""
    times = np.arange(0, 50, 0.1)
    counts = common.midpoint_counts(times, 1.0)
    assert counts[200, 201] in (19, 20, 21) and counts[100, 400] in (19, 20, 21)
    r = run("locality.long_range.suppressed")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.witness["short_over_long_weight_factor"] < 2
    # the factor 2 is ours: the claim names it as a threshold and reports where its verdict flips
    assert get_claim("locality.long_range.suppressed").threshold and r.outcome.evidence.scalars["flips_at"] < 2


def test_long_range_suppressed_in_sparse_regions_by_hand():
    """Events at 0, 0.5 and 30, delta = 1: the close pair's midpoint window holds 2 events, the far pair's none, so their
    biases are log(1 + eps) and log(eps): a weight factor (1 + eps)/eps ~ 1e6 (line 20's 'in sparse regions')."""
    bias = common.log_density_bias(np.array([0.0, 0.5, 30.0]), 1.0)
    assert bias[0, 1] == pytest.approx(math.log(2 / 2 + common.EPS))
    assert bias[0, 2] == pytest.approx(math.log(common.EPS))
    r = run("locality.long_range.suppressed_sparse")
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["flips_at"] > 1e3


def test_bias_threshold_keeps_quadratically_many_pairs():
    """A regular grid (spacing 0.1, delta = 1): every interior pair's count is within a factor 21/19 of the max,
    so all interior pairs survive a threshold log(1/tau) >= log(21/19): N^2, not N k."""
    times = np.arange(0, 30, 0.1)
    bias = common.log_density_bias(times, 1.0)
    interior = slice(20, 280)
    b = bias[interior, interior]
    assert np.all(b >= b.max(axis=1, keepdims=True) - math.log(21 / 19) - 1e-12)
    r = run("locality.effective_Nk.bias_threshold")
    assert r.verdict == Verdict.REFUTED
    assert run("locality.effective_Nk.window_pairs").verdict == Verdict.HOLDS


def test_reduced_heads_is_not_checked_from_the_formula_itself():
    """The head-reduction mechanism is unspecified; a check built from the LocalAttn formula was circular and is gone."""
    from nacverify.ledger import load_ledgers

    assert "locality.reduced_heads" not in registry()
    item = next(it for it in load_ledgers()["003"].items if it.item == "s2.reduced-heads")
    assert not item.claims and item.not_checkable["reason"] == "qualitative"


def test_bursty_stream_midpoints_land_in_other_bursts():
    """Bursts at 0, 20 and 40 (delta = 1): the pair (burst 0, burst 2) has its midpoint in burst 1, so its window holds
    as many events as an in-burst pair's: the bias cannot tell them apart, whatever the cut-off."""
    times = np.concatenate([c + np.linspace(-0.4, 0.4, 8) for c in (0.0, 20.0, 40.0)])
    counts = common.midpoint_counts(times, 1.0)
    assert counts[3, 20] == 8 == counts[3, 4]            # far pair (0 -> 40, midpoint 20) vs close pair inside burst 0
    assert counts[3, 12] == 0                            # adjacent bursts: midpoint 10 lies in the gap
    r = run("locality.effective_Nk.bursty")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.scalars["exponent_min"] > 1.5


def test_rho_derivative_between_jumps_by_hand():
    """Events at 0, 1, 3, t = 0, delta = 2: two events within, rho = 2/4, d rho/d delta = -2/(2 delta^2) = -1/4."""
    times = np.array([0.0, 1.0, 3.0])
    h = 1e-6
    from nacverify.checks import locality_readings as lr

    fd = (lr.rho_of_delta(times, 0.0, 2 + h) - lr.rho_of_delta(times, 0.0, 2 - h)) / (2 * h)
    assert lr.rho_of_delta(times, 0.0, 2.0) == 0.5 and fd == pytest.approx(-0.25, rel=1e-6)
    assert run("locality.rho.differentiable_ae").verdict == Verdict.HOLDS


def test_inhibition_lowers_the_lif_rate_by_hand():
    # rate 1/(tau ln(I/(I - theta))), theta = tau = 1: I = 1.5 gives 1/ln 3, I = 1.1 gives 1/ln 11
    assert lsp.lif_rate(1.0, 1.5) == pytest.approx(1 / math.log(3))
    assert lsp.lif_rate(1.0, 1.1) == pytest.approx(1 / math.log(11))
    assert run("locality.spiking.inhibition_fires_less").verdict == Verdict.HOLDS


def test_rho_term_needs_every_midpoint():
    r = run("locality.rho.term_On")
    w = r.outcome.evidence.witness
    assert w["distinct_midpoints"] == 256 * 257 // 2


# ---- spiking mapping --------------------------------------------------------------------
def test_lif_rate_rises_when_threshold_falls():
    # closed form 1/(tau log(I/(I - theta))), tau = 1, I = 1.5
    assert lsp.lif_rate(1.0, 1.5) == pytest.approx(1 / math.log(3))
    assert lsp.lif_rate(0.5, 1.5) == pytest.approx(1 / math.log(1.5))
    # independent simulation: explicit Euler with a small step
    def euler_rate(theta, current=1.5, dt=1e-4, t_end=20.0):
        v, spikes = 0.0, 0
        for _ in range(int(t_end / dt)):
            v += dt * (current - v)
            if v >= theta:
                v, spikes = 0.0, spikes + 1
        return spikes / t_end
    assert euler_rate(0.5) > euler_rate(1.0)
    r = run("locality.spiking.gate_fires_less")
    assert r.verdict == Verdict.REFUTED
    assert r.outcome.evidence.witness["rate_after"] == pytest.approx(1 / math.log(1.5))


def test_printed_import_fails_with_a_real_package(tmp_path):
    pkg = tmp_path / "nrm" / "nn"
    pkg.mkdir(parents=True)
    (tmp_path / "nrm" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        class Module: pass
        class _L:
            def __init__(self, *a, **k): pass
        class SynapseLayer(_L): pass
        class LIFLayer(_L): pass
        class DensityGate(_L): pass
    """))
    script = lsp.PRINTED_SPIKE_CODE + "\nLocalSpikeAttn(8, 2, 5.0)\n"
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0 and "AttributeError" in proc.stderr and "'nn'" in proc.stderr
    r = run("locality.code.import_binding")
    assert r.verdict == Verdict.REFUTED and "AttributeError" in r.outcome.evidence.witness["error"]


def test_import_binding_turns_on_a_package_layout_of_ours(tmp_path):
    """003 describes no nrm package: where nrm.nn also exposes nn (here nrm/nn/__init__.py does 'from . import nn'
    on its own submodule nrm/nn/nn.py holding the layers), the printed block constructs; so the layout is the claim's
    threshold: it never accuses. Python's own import statement decides the line without any layout (issue 43:
    locality.code.import_alias binds nrm to nrm.nn), and the block's uses fix the intended 'import nrm': a slip."""
    from nacverify.findings import expected_verdicts, findings
    from nacverify.ledger import load_ledgers

    (tmp_path / "nrm" / "nn").mkdir(parents=True)
    (tmp_path / "nrm" / "__init__.py").write_text("")
    (tmp_path / "nrm" / "nn" / "__init__.py").write_text("class Module:\n    pass\nfrom . import nn\n")
    (tmp_path / "nrm" / "nn" / "nn.py").write_text(textwrap.dedent("""
        class _L:
            def __init__(self, *a, **k): pass
        class SynapseLayer(_L): pass
        class LIFLayer(_L): pass
        class DensityGate(_L): pass
    """))
    script = lsp.PRINTED_SPIKE_CODE + "\nLocalSpikeAttn(8, 2, 5.0)\nprint('constructed')\n"
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0 and "constructed" in proc.stdout, proc.stderr
    claim = get_claim("locality.code.import_binding")
    assert claim.kind == "reading" and claim.reading and "layout" in claim.threshold
    r = run("locality.code.import_binding")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.scalars["constructs_if_nrm_nn_exposes_nn"] is True
    got = {(f.document, f.item): f.finding for f in findings(load_ledgers(["003"]), expected_verdicts(registry()), registry())}
    assert got[("003", "code.import")] == "slip"
    alias = run("locality.code.import_alias")
    assert alias.verdict == Verdict.REFUTED and alias.outcome.evidence.witness["bound_to"] == "nrm.nn"


def test_printed_forward_ignores_other_tokens():
    rng = np.random.default_rng(1)
    wq, wk, wv = (rng.standard_normal((3, 3)) for _ in range(3))
    x = rng.standard_normal((5, 3))
    gate = np.full((5, 1), 0.4)
    by_hand = ((x[2] @ wq) * (x[2] @ wk) * 0.4) * (x[2] @ wv)   # out_t from x_t alone
    assert np.allclose(lsp._printed_forward(x, gate, wq, wk, wv)[2], by_hand)
    r = run("locality.code.no_cross_token_attention")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.witness["out_t_change_other_tokens"] == 0.0
    assert "q_t . k_s" in get_claim("locality.code.no_cross_token_attention").statement


def test_lif_membrane_carries_earlier_tokens_by_hand():
    """leak_tau = 5: drive 0.6 then 0.6 gives v = 0.6 e^(-1/5) + 0.6 = 1.091 >= 1 (a spike at step 2); drive 0 then 0.6 gives 0.6 (none):
    the output at step 2 depends on step 1's input, through the membrane."""
    from nacverify.checks.locality_readings import lif_layer

    assert 0.6 * math.exp(-0.2) + 0.6 == pytest.approx(1.0912, abs=1e-4)
    assert lif_layer(np.array([[0.6], [0.6]]), 5.0)[:, 0].tolist() == [0.0, 1.0]
    assert lif_layer(np.array([[0.0], [0.6]]), 5.0)[:, 0].tolist() == [0.0, 0.0]
    r = run("locality.code.membrane_integrates")
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["out_t_changed"] > 0


def test_accuracy_gap():
    r = run("locality.dvs.gap_2_8")
    assert r.outcome.evidence.scalars["gap_points"] == pytest.approx(2.8)
    assert r.outcome.evidence.scalars["gap_relative_percent"] == pytest.approx(280 / 94.1)
    assert r.verdict == Verdict.HOLDS


def test_every_new_claim_has_a_kind_and_reading_only_when_a_reading():
    ours = [c for cid, c in registry().items() if cid.startswith(("locality.", "sparse."))]
    assert len(ours) >= 30
    for c in ours:
        assert c.kind is not None, c.id
        assert (Kind(c.kind) == Kind.READING) == bool(c.reading.strip()), c.id
