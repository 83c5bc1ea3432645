"""The ncps TensorFlow LTC cell (``ncps.tf.LTCCell``) exported and audited, when TensorFlow is
installed (it is not a dependency: without it, or with a Keras 3 that ncps 1.0.1's TF cells
cannot import, these tests skip with the reason; CI has no TensorFlow).

The exported run is checked against Keras's own RNN over the same cell and inputs, not against
the exporter: the outputs must be those ``tf.keras.layers.RNN(cell)`` computes from (inputs,
timespans), as ``ncps.tf.LTC`` feeds them."""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (not a dependency of nacverify)")
try:
    import ncps.tf as ncps_tf
except (ImportError, AttributeError) as exc:  # Keras 3 without tf_keras / TF_USE_LEGACY_KERAS=1
    pytest.skip(f"ncps.tf does not import with this TensorFlow/Keras ({exc}); ncps 1.0.1 needs tf_keras and "
                "TF_USE_LEGACY_KERAS=1 with TensorFlow >= 2.16", allow_module_level=True)
from ncps.wirings import AutoNCP, FullyConnected  # noqa: E402

from nacverify.audit import ltc_audit_claims, read_ltc_export  # noqa: E402
from nacverify.audit.ltc.export import export_ncps_tf_cell  # noqa: E402
from nacverify.claims import CheckContext, evaluate  # noqa: E402

FOUR = ("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds", "audit.ltc.time_constants")


def verdicts(export, ids=FOUR):
    return {c.id: evaluate(c, CheckContext()) for c in ltc_audit_claims(export) if c.id in ids}


def run(wiring, seed=0, T=12, B=2, M=3):
    tf.random.set_seed(seed)
    cell = ncps_tf.LTCCell(wiring)
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, B, M)).astype(np.float32)
    el = rng.uniform(0.2, 3.0, size=(T, B))
    return cell, x, el


@pytest.mark.parametrize("wiring", [lambda: FullyConnected(6), lambda: AutoNCP(8, 2)], ids=["fc", "autoncp"])
def test_tf_cell_export_equals_keras_rnn_and_audits(tmp_path, wiring):
    cell, x, el = run(wiring())
    path, export = export_ncps_tf_cell(cell, x, tmp_path / "tf.npz", elapsed=el)
    rnn = tf.keras.layers.RNN(cell, return_sequences=True)
    keras_out = rnn((tf.constant(np.swapaxes(x, 0, 1)), tf.constant(np.swapaxes(el, 0, 1)[..., None].astype(np.float32)))).numpy()
    np.testing.assert_allclose(np.swapaxes(export.outputs, 0, 1), keras_out, rtol=1e-6, atol=1e-6)
    again = read_ltc_export(path)
    assert again.implicit_param_constraints is False and "tensorflow" in again.implementation
    r = verdicts(again)
    assert {k: v.verdict.value for k, v in r.items()} == dict.fromkeys(FOUR, "holds"), {k: v.outcome.message for k, v in r.items()}


def test_tf_cell_with_a_dropped_leak_is_refuted(tmp_path):
    class NoLeak(ncps_tf.LTCCell):
        def _ode_solver(self, inputs, state, elapsed_time):
            gleak = self._params["gleak"]
            self._params["gleak"] = tf.zeros_like(gleak)
            try:
                return super()._ode_solver(inputs, state, elapsed_time)
            finally:
                self._params["gleak"] = gleak

    cell, x, el = run(FullyConnected(6), seed=1)
    cell.__class__ = NoLeak
    _, export = export_ncps_tf_cell(cell, x, tmp_path / "bad.npz", elapsed=el)
    assert verdicts(export, ("audit.ltc.step",))["audit.ltc.step"].verdict.value == "refuted"
