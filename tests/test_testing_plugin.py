"""`nacverify.testing` and the pytest plugin (issue 13, item 3), used as a team's own suite uses them.

In-process tests use synthetic exports whose verdicts are known by construction (closed forms
in tests/test_audit.py; a one-neuron LTC step computed by hand here). The user-suite test writes
a small project into tmp_path (a conftest that registers the team's own claims, a test file that
exports gates from nacverify's JAX NAC model) and runs `pytest` on it in a fresh process: there
JAX starts in float32, as in anyone's suite (this repository's conftest switches float64 on, so
only a fresh process can show that nothing changes the caller's JAX configuration).
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from junitparser import Failure, JUnitXml

from nacverify.audit import CLAIM_IDS, write_export
from nacverify.claims import Verdict
from nacverify.errors import BadInput
from nacverify.testing import assert_claims, assert_gates, assert_ltc_cell, format_witness
from test_audit import make

LTC_IDS = ("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds", "audit.ltc.time_constants", "audit.ltc.solver_error")


def _fresh_env() -> dict[str, str]:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("JAX_ENABLE_X64", None)
    env.pop("PYTEST_ADDOPTS", None)
    return env


# ---------------------------------------------------------------------------- assert_gates
def test_assert_gates_passes_a_healthy_export_and_names_a_defect():
    results = assert_gates(make("euler"))  # closed-form logits, softmax by hand: every claim holds
    assert [r.claim.id for r in results] == list(CLAIM_IDS)
    assert all(r.verdict == Verdict.HOLDS for r in results)

    bad = make("exact")
    bad["attention"] = bad["attention"] * 1.1  # rows now sum to 1.1
    with pytest.raises(AssertionError) as err:
        assert_gates(bad)
    text = str(err.value)
    assert text.startswith("nacverify: 1 of 7 audit claim(s) differ from the expected verdict:")
    assert "audit.attention_rows: verdict refuted, expected holds" in text
    assert "witness: row=[" in text and "row_sum=1.1" in text  # the worst row sums to 1.1 by construction
    assert "rows do not sum to 1" in text  # the check's message

    # the team accepts the defect: the same arrays pass; the gate stays strict when it goes away
    accepted = assert_gates(bad, expect={"audit.attention_rows": "refuted"})
    assert {r.claim.id: r.verdict for r in accepted}["audit.attention_rows"] == Verdict.REFUTED
    with pytest.raises(AssertionError, match=r"audit.attention_rows: verdict holds, expected refuted"):
        assert_gates(make("exact"), expect={"audit.attention_rows": {"verdict": "refuted", "reason": "known"}})


def test_assert_gates_reads_files_and_expect_files(tmp_path):
    bad = make("exact")
    bad["omega"] = bad["omega"].copy()
    bad["omega"][0, 1, 2, 3] = -0.5  # one pair with omega <= 0
    path = write_export(bad, tmp_path / "gates.npz")
    with pytest.raises(AssertionError, match=r"audit.omega_positive: verdict refuted, expected holds") as err:
        assert_gates(path)
    assert "index=[0, 1, 2, 3], omega=-0.5" in str(err.value)
    accept = tmp_path / "accept.toml"
    accept.write_text('"audit.omega_positive" = "refuted"\n"audit.thm1_interval" = "refuted"\n"audit.logits_consistent" = "refuted"\n')
    # Theorem 1's interval and the logit recomputation assume omega > 0 and leave that pair out, so they hold:
    # the file's entries for them make the gate fail the other way (strict in both directions)
    with pytest.raises(AssertionError) as err:
        assert_gates(str(path), expect=accept)
    assert "audit.thm1_interval: verdict holds, expected refuted" in str(err.value)
    assert "audit.omega_positive" not in str(err.value)
    with pytest.raises(BadInput, match="unknown claim id"):
        assert_gates(path, expect={"audit.typo": "holds"})
    with pytest.raises(BadInput, match="unknown verdict"):
        assert_gates(path, expect={"audit.sharpness": "fine"})


# ---------------------------------------------------------------------------- assert_ltc_cell
def one_neuron(unfolds: int, v_next: float | None = None) -> tuple[dict, float]:
    """N = M = 1 with sigma = 0, so every sigmoid is exactly 1/2; the fused step (seed 002 eq. 9)
    by hand: v <- (cm_t v + gleak vleak + w/2 E + sw/2 Es) / (cm_t + gleak + w/2 + sw/2), cm_t = cm unfolds / elapsed."""
    cm, gleak, vleak, w, E, sw, Es, elapsed, v0 = 0.5, 0.2, -0.2, 0.5, 1.0, 0.25, -1.0, 0.5, 0.1
    entries = {k: np.asarray(v, dtype=np.float64) for k, v in dict(
        cm=[cm], gleak=[gleak], vleak=[vleak], w=[[w]], sigma=[[0.0]], mu=[[0.0]], erev=[[E]], sensory_w=[[sw]], sensory_sigma=[[0.0]],
        sensory_mu=[[0.0]], sensory_erev=[[Es]], inputs=[[[0.3]]], elapsed=[elapsed]).items()}
    entries.update(ode_unfolds=unfolds, epsilon=0.0, implicit_param_constraints=0)
    cm_t, v = cm * unfolds / elapsed, v0
    for _ in range(unfolds):
        v = (cm_t * v + gleak * vleak + w / 2 * E + sw / 2 * Es) / (cm_t + gleak + w / 2 + sw / 2)
    entries["states"] = np.array([[[v0]], [[v if v_next is None else v_next]]])
    return entries, v


def test_assert_ltc_cell_on_arrays():
    entries, _ = one_neuron(unfolds=96)  # 96 fused steps of 1/192 follow the linear ODE within 1e-2
    results = assert_ltc_cell(entries)
    assert [r.claim.id for r in results] == list(LTC_IDS) and all(r.verdict == Verdict.HOLDS for r in results)

    _, v = one_neuron(unfolds=96)
    bad, _ = one_neuron(unfolds=96, v_next=v * (1 + 1e-6))  # an implementation one part in a million off
    with pytest.raises(AssertionError) as err:
        assert_ltc_cell(bad)
    assert "audit.ltc.step: verdict refuted, expected holds" in str(err.value)
    assert "witness: step=0" in str(err.value)
    assert_ltc_cell(bad, expect={"audit.ltc.step": "refuted"})


# ---------------------------------------------------------------------------- ncps_cell_entries's layout
def _ncps():
    torch = pytest.importorskip("torch", reason="torch is the optional extra 'ltc' (the test extra installs it)")
    from ncps.torch import LTC

    return torch, LTC


def test_ncps_entries_follow_batch_first_as_ncps_does():
    """ncps.torch.LTC reads [B, T, M] by default; the exported run must be the module's own: its
    final state and its output sequence, computed by ncps's forward, not by nacverify."""
    torch, LTC = _ncps()
    from nacverify.audit.ltc.export import ncps_cell_entries

    torch.manual_seed(0)
    rnn = LTC(3, 5)  # batch_first=True, ncps's default
    x = torch.randn(2, 7, 3)  # B = 2 sequences of T = 7 steps
    with torch.no_grad():
        seq, hn = rnn(x)
    for entries in (ncps_cell_entries(rnn, x), ncps_cell_entries(rnn.rnn_cell, x, batch_first=True),
                    ncps_cell_entries(rnn.rnn_cell, x.transpose(0, 1), batch_first=False)):
        assert entries["inputs"].shape == (7, 2, 3) and entries["states"].shape == (8, 2, 5)
        np.testing.assert_allclose(entries["states"][-1], hn.numpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(np.swapaxes(entries["outputs"], 0, 1), seq.numpy(), rtol=1e-6, atol=1e-7)
    time_first = LTC(3, 5, batch_first=False)
    time_first.load_state_dict(rnn.state_dict())
    np.testing.assert_allclose(ncps_cell_entries(time_first, x.transpose(0, 1))["states"][-1], hn.numpy(), rtol=1e-6, atol=1e-7)
    assert_ltc_cell(ncps_cell_entries(rnn, x))  # README's example: a default ncps cell passes the audit


def test_ncps_entries_refuse_an_ambiguous_layout_and_read_elapsed_shapes():
    torch, LTC = _ncps()
    from nacverify.audit.ltc.export import ncps_cell_entries

    torch.manual_seed(1)
    cell = LTC(3, 4).rnn_cell
    x = torch.randn(2, 6, 3)
    with pytest.raises(BadInput, match=r"inputs of shape \[2, 6, 3\] are ambiguous.*batch_first=True or batch_first=False"):
        ncps_cell_entries(cell, x)  # before: read as 2 steps of 6 sequences, without a word
    with pytest.raises(BadInput, match="ambiguous"):
        ncps_cell_entries(cell, x, 0.5)  # one number says nothing about the axes
    el = np.linspace(0.5, 1.0, 6)
    by_steps = ncps_cell_entries(cell, x, el)  # 6 elapsed times fit the 6 steps of axis 1 only: batch first
    explicit = ncps_cell_entries(cell, x, el, batch_first=True)
    assert by_steps["inputs"].shape == (6, 2, 3)
    np.testing.assert_array_equal(by_steps["states"], explicit["states"])
    per_entry = np.tile(el, (2, 1))  # ncps's timespans layout [B, T]: the inputs' leading shape in either layout
    with pytest.raises(BadInput, match="ambiguous"):
        ncps_cell_entries(cell, x, per_entry)
    columns = ncps_cell_entries(cell, x, per_entry, batch_first=True)["states"]  # a [B, 1] column per step, in the cell's float32
    np.testing.assert_allclose(columns, explicit["states"], rtol=1e-6)
    np.testing.assert_array_equal(ncps_cell_entries(cell, x, per_entry[..., None], batch_first=True)["states"], columns)  # [B, T, 1]
    np.testing.assert_array_equal(ncps_cell_entries(cell, x.transpose(0, 1), per_entry.T, batch_first=False)["states"], columns)
    square = torch.randn(4, 4, 3)
    with pytest.raises(BadInput, match="ambiguous"):
        ncps_cell_entries(cell, square, np.ones(4))  # 4 steps or 4 sequences: the elapsed times fit both
    assert ncps_cell_entries(cell, torch.randn(5, 3))["inputs"].shape == (5, 1, 3)  # [T, M]: one unbatched sequence


# ---------------------------------------------------------------------------- assert_claims
def test_assert_claims_selects_registered_claims():
    results = assert_claims("nac.eq3.*")  # eq. 3 solves eq. 1 (SymPy): both hold, as expected
    assert sorted(r.claim.id for r in results) == ["nac.eq3.dsolve", "nac.eq3.solves_eq1"]
    with pytest.raises(BadInput, match="no registered claim matches"):
        assert_claims("no.such.claim*")


def test_format_witness():
    assert format_witness({}) == "none"
    assert format_witness({"x": 1.0 / 3.0, "index": "[0, 1]", "n": 4}) == "x=0.333333, index=[0, 1], n=4"


# ---------------------------------------------------------------------------- a user's suite
CONFTEST = '''
import json, sys

# what nacverify had loaded when pytest started (the plugin must be cheap: no claims, no JAX)
LOADED_AT_START = sorted(m for m in sys.modules if m == "nacverify" or m.startswith("nacverify."))

from nacverify.claims import Claim, Evidence, Kind, Outcome, Verdict, register

# the team's own claims, registered next to nacverify's (one of them is a known defect)
register(Claim("team.gates.ok", "team design note 1", "the gate is fine", "none", Verdict.HOLDS, "by design",
               lambda ctx: Outcome(Verdict.HOLDS, "fine"), group="team", kind=Kind.IMPLEMENTATION))
register(Claim("team.gates.defect", "team design note 2", "delta_t stays below 1/omega", "none", Verdict.HOLDS, "by design",
               lambda ctx: Outcome(Verdict.REFUTED, "delta_t * omega = 1.5 > 1", Evidence(witness={"x": 1.5, "where": "head 0"})),
               group="team", kind=Kind.IMPLEMENTATION))


def pytest_sessionfinish(session):
    import jax, jax.numpy as jnp
    with open("after.json", "w") as fh:
        json.dump({"loaded_at_start": LOADED_AT_START, "x64": jax.config.read("jax_enable_x64"),
                   "dtype": str(jnp.ones(2).dtype)}, fh)
'''

USER_TESTS = '''
import jax
import jax.numpy as jnp
import pytest

from nacverify.audit import write_export
from nacverify.model import NAC, export_gates
import numpy as np

from nacverify.testing import assert_gates, assert_ltc_cell

# the team's model: nacverify's JAX NAC (shared sigmoid/softplus gate head), float32 as JAX defaults
MODEL = NAC(8, 2, key=jax.random.PRNGKey(0))
X = jax.random.normal(jax.random.PRNGKey(1), (1, 8, 8))
SHARED_HEAD = {"audit.sharpness": {"verdict": "refuted", "reason": "shared gate: top weight < e/(e + K - 1)"}}


def test_gates_with_the_known_defect_accepted():
    assert not jax.config.read("jax_enable_x64")
    results = assert_gates(export_gates(MODEL, X), expect=SHARED_HEAD)
    assert len(results) == 7
    assert not jax.config.read("jax_enable_x64") and jnp.ones(2).dtype == jnp.float32


def test_gates_with_default_expectations():
    assert_gates(export_gates(MODEL, X))  # fails: the shared head cannot make attention sharp


def test_gates_from_a_file(tmp_path):
    path = write_export(export_gates(MODEL, X), tmp_path / "gates.h5")
    assert_gates(path, expect=SHARED_HEAD)


def test_fixture_records_verdicts(nacverify_audit):
    nacverify_audit.gates(export_gates(MODEL, X), expect=SHARED_HEAD)


def test_ltc_cell_from_arrays():
    entries, _ = one_neuron(unfolds=96)
    assert len(assert_ltc_cell(entries)) == 5  # solved with diffrax in float64, inside nacverify only
    assert not jax.config.read("jax_enable_x64") and jnp.ones(2).dtype == jnp.float32
'''


def _properties(path, case: str) -> dict[str, str]:
    """A testcase's <properties> (junitparser reads them on suites only)."""
    from xml.etree import ElementTree

    (elem,) = [e for e in ElementTree.parse(path).iter("testcase") if e.get("name") == case]
    return {p.get("name"): p.get("value") for p in elem.iter("property")}


def test_a_users_suite_with_the_plugin_and_nacverify_testing(tmp_path):
    from nacverify.testing import select_claims

    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_model_gates.py").write_text(textwrap.dedent(USER_TESTS) + "\n\n" + inspect.getsource(one_neuron))
    patterns = ("nac.eq3.*", "nac.cor3.remark.rate_as_printed", "team.*")  # eq. 3 holds; the Corollary 3 remark is refuted, as expected
    args = [a for p in patterns for a in ("--nacverify-check", p)]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rN", "--junitxml=junit.xml",
                           "--nacverify-quick", *args], capture_output=True, text=True, cwd=tmp_path, env=_fresh_env(), timeout=900)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out  # two failures: the default-expectation audit and the team's defect

    registered = [c.id for c in select_claims(list(patterns[:2]))]
    assert len(registered) == 3
    xml = JUnitXml.fromfile(str(tmp_path / "junit.xml"))
    cases = {case.name: case for suite in xml for case in suite}
    assert set(cases) == {"test_gates_with_the_known_defect_accepted", "test_gates_with_default_expectations", "test_gates_from_a_file",
                          "test_fixture_records_verdicts", "test_ltc_cell_from_arrays", *registered, "team.gates.ok", "team.gates.defect"}
    failed = {name for name, case in cases.items() if any(isinstance(r, Failure) for r in case.result)}
    assert failed == {"test_gates_with_default_expectations", "team.gates.defect"}
    suite = next(iter(xml))
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (len(cases), 2, 0, 0)
    assert f"2 failed, {len(cases) - 2} passed" in proc.stdout

    # a claim item: named by the claim id, under nacverify.<group>, its verdict as properties
    defect = cases["team.gates.defect"]
    assert defect.classname == "nacverify.team"
    message = next(r for r in defect.result if isinstance(r, Failure)).text
    assert "team.gates.defect: verdict refuted, expected holds (by design)" in message
    assert "message: delta_t * omega = 1.5 > 1" in message and "witness: x=1.5, where=head 0" in message
    assert "Traceback" not in message and "runtest" not in message
    props = _properties(tmp_path / "junit.xml", "nac.cor3.remark.rate_as_printed")
    assert props["verdict"] == props["expected"] == "refuted" and props["group"] == "numeric"

    # an assert_gates failure names the claim, the verdict, the expected verdict and the witness
    audit = next(r for r in cases["test_gates_with_default_expectations"].result if isinstance(r, Failure)).text
    assert "audit.sharpness: verdict refuted, expected holds" in audit and "witness: index=[" in audit and "A_max=" in audit
    fixture = _properties(tmp_path / "junit.xml", "test_fixture_records_verdicts")
    assert fixture["audit.sharpness.verdict"] == "refuted" and fixture["audit.omega_positive.verdict"] == "holds"

    # the plugin loaded nothing heavy, and nothing changed the suite's JAX configuration (float32 throughout)
    after = json.loads((tmp_path / "after.json").read_text())
    assert after["loaded_at_start"] == ["nacverify", "nacverify.errors", "nacverify.pytest_plugin"]
    assert after["x64"] is False and after["dtype"] == "float32"


def test_unknown_selection_is_a_usage_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--nacverify-check", "no.such.claim*"],
                          capture_output=True, text=True, cwd=tmp_path, env=_fresh_env(), timeout=600)
    assert proc.returncode == 4, proc.stdout + proc.stderr  # pytest's usage error
    assert "--nacverify-check: no registered claim matches 'no.such.claim*'" in proc.stderr
