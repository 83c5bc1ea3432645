"""Table 2 of seed 000 under each reading of its phi/omega columns (nacverify.frozen._readings).

Expected numbers are computed here by hand from the printed cells (seed 000 lines 412-415),
and the signed-reading witness is re-solved with scipy, independently of diffrax.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from typer.testing import CliRunner

from nacverify.claims import Kind, Verdict, evaluate, registry
from nacverify.frozen import RegimeSpec, run_frozen_error, table2_row_outcome
from nacverify.frozen._readings import (
    mean_le_max_outcome,
    range_reading_outcome,
    rate_reading_outcome,
    rate_t_crit,
    readings_table,
    signed_reading_outcome,
)

# Printed cells: mean, max, phi (%), omega (%).
PRINTED = {
    "slow": (1.87, 3.05, 0.50, 0.26),
    "fast": (6.41, 6.50, 2.63, 1.58),
    "step": (6.53, 7.20, 3.51, 2.11),
    "oscillatory": (7.81, 6.90, 8.28, 2.10),
}
# (v_phi + v_omega)/(1 - v_phi) in %, by hand from the printed percentages.
HAND_BOUND = {
    "slow": 0.76 / 0.995,  # 0.76382
    "fast": 4.21 / 0.9737,  # 4.32371
    "step": 5.62 / 0.9649,  # 5.82444
    "oscillatory": 10.38 / 0.9172,  # 11.3171
}


@pytest.mark.parametrize("name", list(PRINTED))
def test_bound_values_by_hand(name):
    for outcome in (range_reading_outcome(name), rate_reading_outcome(name)):
        assert outcome.evidence.scalars["variation_bound_pct"] == pytest.approx(HAND_BOUND[name], rel=1e-12)
    assert HAND_BOUND["slow"] == pytest.approx(0.7638190954773869)


@pytest.mark.parametrize("name", ["slow", "fast", "step"])
def test_slow_fast_step_refuted_under_range_and_rate_with_rounding(name):
    mean, mx, p, w = PRINTED[name]
    # rounding in the row's favour: variations up by 0.005, errors down by 0.005
    rounded = (p + w + 0.01) / (100 - (p + 0.005)) * 100
    assert max(mean, mx) - 0.005 > rounded
    for outcome in (range_reading_outcome(name), rate_reading_outcome(name)):
        assert outcome.verdict == Verdict.REFUTED
        assert outcome.evidence.scalars["variation_bound_rounded_pct"] == pytest.approx(rounded, rel=1e-12)
        assert outcome.evidence.witness["printed_error_pct"] == mx
        assert "a0 = 0 and phi > 0" in outcome.message


def test_oscillatory_not_excluded_under_range_and_rate():
    assert HAND_BOUND["oscillatory"] > 7.81 > 6.90
    for outcome in (range_reading_outcome("oscillatory"), rate_reading_outcome("oscillatory")):
        assert outcome.verdict == Verdict.INCONCLUSIVE


@pytest.mark.parametrize("name", list(PRINTED))
def test_rate_t_crit_solves_bound_equals_printed_error(name):
    mean, mx, p, w = (x / 100 for x in PRINTED[name])
    e = max(mean, mx)
    t = rate_t_crit(name)
    assert (p + w) * t / (1 - p * t) == pytest.approx(e, rel=1e-12)
    assert rate_reading_outcome(name).evidence.scalars["T_crit"] == pytest.approx(t)


def test_t_crit_by_hand():
    assert rate_t_crit("slow") == pytest.approx(3.05 / (0.50 + 0.26 + 0.50 * 0.0305))  # 3.934
    assert rate_t_crit("slow") > 1 and rate_t_crit("fast") > 1 and rate_t_crit("step") > 1
    assert rate_t_crit("oscillatory") < 1  # 0.708: admitted at T = 1


def test_mean_le_max_is_reading_independent():
    osc = mean_le_max_outcome("oscillatory")
    assert osc.verdict == Verdict.REFUTED
    assert osc.evidence.witness == {"cell_mean_pct": 7.81, "cell_max_pct": 6.90}
    for name in ("slow", "fast", "step"):
        assert mean_le_max_outcome(name).verdict == Verdict.HOLDS


def test_row_message_states_the_bound_with_its_condition():
    # The old message ("variations 0.5% / 0.26% allow at most 0.764%, paper prints 3.05%")
    # stated the bound with no condition.
    out = table2_row_outcome(run_frozen_error(RegimeSpec("slow")))
    assert out.verdict == Verdict.REFUTED
    assert "under the max-deviation reading with a0 = 0 and phi > 0" in out.message
    assert out.evidence.witness["variation_bound_pct"] == pytest.approx(HAND_BOUND["slow"])


def test_oscillatory_row_not_refuted_by_mean_gt_max_under_reading():
    # Old behaviour: refuted with "mean 7.81% > max 6.9%" as the reason.
    # Then: inconclusive because the suite's sine regime does not reproduce the row (a conjunct of ours).
    # Now: holds, the printed 7.81% / 6.90% are below the hand bound 11.3%; reproduction is evidence only.
    out = table2_row_outcome(run_frozen_error(RegimeSpec("oscillatory")))
    assert out.verdict == Verdict.HOLDS
    assert "7.81% > max" not in out.message
    assert out.evidence.scalars["variation_bound_pct"] == pytest.approx(HAND_BOUND["oscillatory"])


@pytest.mark.parametrize("name", ["slow", "oscillatory"])
def test_signed_witness_resolved_with_scipy(name):
    out = signed_reading_outcome(name)
    w = out.evidence.witness
    assert out.verdict == Verdict.INCONCLUSIVE
    assert w["a0"] < 0 and w["rel_error_max_pct"] > PRINTED[name][1]
    _, _, p, q = PRINTED[name]
    phi0, om0, a0 = 0.5, 1.0, w["a0"]
    g = (lambda t: t) if name == "slow" else (lambda t: math.sin(2 * math.pi * 2 * t))  # default shapes, T = 1
    phi = lambda t: phi0 * (1 + p / 100 * g(t))  # noqa: E731
    om = lambda t: om0 * (1 + q / 100 * g(t))  # noqa: E731
    t_star = w["t_at_max"]
    sol = solve_ivp(lambda t, a: -om(t) * a + phi(t), (0, t_star), [a0], method="DOP853", rtol=1e-12, atol=1e-14)
    a_var = sol.y[0, -1]
    a_f = phi0 / om0 + (a0 - phi0 / om0) * math.exp(-om0 * t_star)
    assert a_var == pytest.approx(w["a_varying_at_max"], abs=1e-9)
    assert 100 * abs(a_var - a_f) / abs(a_var) > PRINTED[name][1]
    # a_frozen crosses 0 at ln 2 for phi0 = 0.5, omega0 = 1, a0 = -0.5; a_varying nearby
    assert abs(w["a_varying_zero_crossing_t"] - math.log(2)) < 0.05


def test_readings_table_layout():
    verdicts = {"nac.table2.slow": "refuted", "nac.table2.slow.reading.rate": "refuted", "nac.table2.average": "refuted"}
    t = readings_table(verdicts, ("slow",))
    assert t["slow"]["max-deviation"] == "refuted" and t["slow"]["rate"] == "refuted" and t["slow"]["signed"] == "-"
    assert t["average"]["as-printed"] == "refuted" and t["average"]["rate"] == "-"


EXPECTED = {
    # row: (as-printed mean<=max, max-deviation, range, rate, signed)
    "slow": ("holds", "refuted", "refuted", "refuted", "inconclusive"),
    "fast": ("holds", "refuted", "refuted", "refuted", "inconclusive"),
    "step": ("holds", "refuted", "refuted", "refuted", "inconclusive"),
    # max-deviation: the bound 11.3% >= 7.81% / 6.90%, not excluded (the suite's regime not reproducing the row is evidence only)
    "oscillatory": ("refuted", "holds", "inconclusive", "inconclusive", "inconclusive"),
}


def test_claims_kinds_and_verdicts():
    import nacverify.catalog  # noqa: F401  (registers the claims)

    reg = registry()
    for name, verdicts in EXPECTED.items():
        ids = [f"nac.table2.{name}.mean_le_max", f"nac.table2.{name}", f"nac.table2.{name}.reading.range",
               f"nac.table2.{name}.reading.rate", f"nac.table2.{name}.reading.signed"]
        for cid, want in zip(ids, verdicts):
            claim = reg[cid]
            assert claim.expected.value == want, cid
            if cid.endswith("mean_le_max"):
                assert claim.kind == Kind.AS_PRINTED and not claim.reading
            else:
                assert claim.kind == Kind.READING and claim.reading
            if "reading." in cid or cid.endswith("mean_le_max"):
                assert evaluate(claim).verdict.value == want, cid


def test_cli_writes_readings_section(tmp_path):
    from nacverify.cli.app import app
    from nacverify.report import read_report

    out = tmp_path / "r.h5"
    res = CliRunner().invoke(app, ["frozen-error", "-r", "slow", "-v", "--out", str(out)])  # -v: the readings table among the details
    assert res.exit_code == 0, res.output
    assert "Table 2 readings" in res.output
    sec = read_report(out).sections["frozen_error"]["table2_readings"]
    assert sec["slow.as-printed"] == "holds"
    assert sec["slow.max-deviation"] == "refuted"
    assert sec["slow.rate"] == "refuted"
    assert sec["slow.signed"] == "inconclusive"
    assert sec["average.as-printed"] == "refuted"
    assert not any(k.startswith("fast.") for k in sec)
    assert np.all([isinstance(v, str) for v in sec.values()])


def test_each_row_tests_its_own_cells_and_the_header_none():
    """Each regime row of Table 2 tests its own cells under the readings (reports/FINDINGS_STANDARD.md, rule 5: a header
    heads the table and asserts nothing), except the slow row, whose four numbers B.1.2's slow sentence prints again: one
    defect, one item (issue 43), so the sentence owns the row's claims and the row cites them. The fast/step sentence quotes
    only the means and cites the rows. The charitable reading of every owner is nac.table2.rows.not_excluded."""
    import nacverify.catalog  # noqa: F401
    from nacverify.findings import expected_verdicts, findings
    from nacverify.ledger import load_ledgers

    claim = registry()["nac.table2.rows.not_excluded"]
    assert claim.kind == Kind.READING and claim.expected.value == "holds"
    items = {it.item: it for it in load_ledgers(["000"])["000"].items}
    owners = {"slow": "b1.2.slow", "fast": "table2.fast", "step": "table2.step", "oscillatory": "table2.oscillatory"}
    for row, owner in owners.items():
        carriers = [name for name, it in items.items() if f"nac.table2.{row}" in it.claims]
        assert carriers == [owner], (row, carriers)
    assert not items["table2.columns"].claims and items["table2.columns"].not_checkable["reason"] == "definition"
    assert "nac.table2.slow" in items["table2.slow"].cites
    assert {"nac.table2.fast", "nac.table2.step"} <= set(items["b1.2.other-regimes"].cites)
    assert "nac.table2.slow.b12" not in registry() and "nac.table2.fast.b12" not in registry()
    r = registry()
    got = {f.item: f for f in findings(load_ledgers(["000"]), expected_verdicts(r), r)}
    for name in ("table2.fast", "table2.step", "b1.2.slow"):
        assert items[name].charitable == "nac.table2.rows.not_excluded" and got[name].finding == "depends-on-reading", name
    assert got["table2.slow"].finding == "holds" and got["b1.2.other-regimes"].finding == "holds"
    assert got["table2.oscillatory"].finding == "error"  # its mean > max, whatever the columns mean