r"""The data-set descriptions of both NAC versions: Appendix D.3, 001 Table 5, Table 4's metric, the folds.

Claims ``nac000.d3.*`` (000 Appendix D.3), ``nac001.d31.*`` ... ``nac001.d34.*`` (001 Appendix
D.3.1-D.3.4), ``nac001.table4.*`` and ``nac001.s3.*``: printed counts against the listed items
("the eleven possible activities", "five discrete actions") and against Table 4's output heads,
the bearing data sets' run-to-failure counts, speeds, frequencies and loads in the text against
001 Table 5, Table 4's Udacity metric against Section 3.2, and the stated train/test splits
against "5-fold cross-validation" (Section 3). Every check is exact arithmetic on the printed
facts (`nacverify.checks._tables`: `dataset_facts`, `dataset_settings`, `dataset_splits`,
`dataset_table5`, `hyperparameter_table`).
"""

from __future__ import annotations

import re

import numpy as np

from ..claims import Claim, Evidence, Outcome, Verdict, add_provider
from ._tables import F, H, R, _claim, _s, dataset_facts, dataset_settings, dataset_splits, dataset_table5, hyperparameter_table

__all__ = ["dataset_claims"]


# ----------------------------------------------------------------------------- parsing


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _count(printed: str) -> int:
    return int(printed) if printed.isdigit() else NUMBER_WORDS[printed.lower()]


def _bearings(cell: str) -> int:
    """Number of bearings in a printed range '4~7' (4, 5, 6, 7); 0 for an empty cell."""
    if not cell:
        return 0
    lo, hi = (int(x) for x in cell.split("~"))
    return hi - lo + 1


# ----------------------------------------------------------------------------- data-set descriptions


def _head_width(cell: str) -> int:
    m = re.search(r"(\d+)\((?:SM|Lin)\)$", cell)
    if not m:
        raise ValueError(f"no output width in Dense cell {cell!r}")
    return int(m.group(1))


def _list_count(version: str, fact: str, experiment: str | None) -> Outcome:
    """A printed count against the listed items (and against Table 4's output head)."""
    printed, items, line = dataset_facts(version)[fact]
    n_printed = _count(printed)
    scalars: dict[str, float | int | str] = {"printed_count": n_printed, "listed_items": len(items), "seed_line": line}
    checks = [len(items) == n_printed]
    text = f"'{printed}' = {n_printed}; the sentence lists {len(items)} ({'; '.join(items)})"
    if experiment is not None:
        dense = hyperparameter_table(version)["Dense"][experiment]
        width = _head_width(dense)
        scalars["table4_output_width"] = width
        checks.append(width == n_printed)
        text += f"; Table 4's {experiment} Dense head '{dense}' has {width} outputs"
    ev = Evidence({"items": _s([i.encode("ascii", "replace").decode() for i in items])}, scalars, {})
    if all(checks):
        return Outcome(Verdict.HOLDS, text + ": all equal", ev)
    return Outcome(Verdict.REFUTED, text + ": counts differ", Evidence(ev.arrays, scalars, {"printed_count": n_printed, "listed": len(items)}))


def _hust(version: str) -> Outcome:
    facts = dataset_facts(version)
    parts, ok = [], True
    for fact in ("hust.bearing_types", "hust.loads", "hust.faults"):
        printed, items, _ = facts[fact]
        ok &= len(items) == _count(printed)
        parts.append(f"{fact.split('.')[1]}: '{printed}' = {_count(printed)}, listed {len(items)}")
    scalars: dict[str, float | int | str] = {"bearing_types": len(facts["hust.bearing_types"][1]), "loads": len(facts["hust.loads"][1]), "faults": len(facts["hust.faults"][1])}
    if version == "001":
        rows = [r for r in dataset_table5() if r["dataset"] == "HUST"]
        table_loads = [f"{r['radial_load']} {r['load_unit']}" for r in rows]
        same = table_loads == list(facts["hust.loads"][1])
        ok &= same
        parts.append(f"Table 5 HUST loads {', '.join(table_loads)} {'match' if same else 'differ from'} the text")
        scalars["table5_conditions"] = len(rows)
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, "; ".join(parts), Evidence({}, scalars, {}))


def _rpm_hz(version: str) -> Outcome:
    rows = [r for r in dataset_settings(version) if r["dataset"] == "XJTU-SY"]
    rpm = np.array([float(r["speed_rpm"]) for r in rows])
    hz = np.array([float(r["frequency_hz"]) for r in rows])
    ok = np.isclose(rpm / 60.0, hz, rtol=0, atol=1e-9)
    arrays = {"speed_rpm": rpm, "frequency_hz": hz, "rpm_over_60": rpm / 60.0, "consistent": ok.astype(int)}
    listing = "; ".join(f"{r:g} rpm / 60 = {r / 60:g} Hz vs printed {h:g} Hz" for r, h in zip(rpm, hz))
    if ok.all():
        return Outcome(Verdict.HOLDS, listing, Evidence(arrays, {}, {}))
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"{listing} ({hz[k]:g} Hz is {60 * hz[k]:g} rpm)", Evidence(arrays, {"settings_inconsistent": int((~ok).sum())},
                   {"speed_rpm": float(rpm[k]), "frequency_hz": float(hz[k]), "rpm_over_60": float(rpm[k] / 60)}))


def _text_vs_table5(dataset: str) -> Outcome:
    text_rows = [r for r in dataset_settings("001") if r["dataset"] == dataset]
    table_rows = [r for r in dataset_table5() if r["dataset"] == dataset]
    diffs = []
    for a, b in zip(text_rows, table_rows):
        for key in ("speed_rpm", "frequency_hz", "radial_load", "load_unit"):
            x, y = a[key], b[key]
            same = (float(x) == float(y)) if key != "load_unit" else x == y
            if not same:
                diffs.append(f"condition {a['setting']} {key}: text {x}, Table 5 {y}")
    arrays = {"text_speed_rpm": np.array([float(r["speed_rpm"]) for r in text_rows]), "table5_speed_rpm": np.array([float(r["speed_rpm"]) for r in table_rows]),
              "text_load": np.array([float(r["radial_load"]) for r in text_rows]), "table5_load": np.array([float(r["radial_load"]) for r in table_rows])}
    if not diffs:
        return Outcome(Verdict.HOLDS, f"{dataset}: text and Table 5 agree on speed, frequency and load for all {len(text_rows)} conditions", Evidence(arrays, {}, {}))
    return Outcome(Verdict.REFUTED, f"{dataset}: {len(diffs)} cells differ: " + "; ".join(diffs), Evidence(arrays, {"cells_differing": len(diffs)}, {"first": diffs[0]}))


def _experiments_count(dataset: str, fact: str) -> Outcome:
    printed = _count(dataset_facts("001")[fact][0])
    rows = [r for r in dataset_table5() if r["dataset"] == dataset]
    per = [(_bearings(r["train"]), _bearings(r["test"])) for r in rows]
    total = sum(a + b for a, b in per)
    detail = " + ".join(f"({a} + {b})" for a, b in per)
    scalars = {"printed": printed, "table5_bearings": total}
    arrays = {"train_bearings": np.array([a for a, _ in per]), "test_bearings": np.array([b for _, b in per])}
    if total == printed:
        return Outcome(Verdict.HOLDS, f"{dataset}: Table 5 lists {detail} = {total} bearings, text {printed}", Evidence(arrays, scalars, {}))
    return Outcome(Verdict.REFUTED, f"{dataset}: Table 5 lists train + test {detail} = {total} bearings, the text says {printed} run-to-failure experiments",
                   Evidence(arrays, scalars, {"printed": printed, "table5_bearings": total}))


def _pronostia_frequency() -> Outcome:
    rows = dataset_table5()
    out = []
    for r in rows:
        if r["frequency_hz"] and r["speed_rpm"]:
            out.append((r["dataset"], r["condition"], float(r["speed_rpm"]), float(r["frequency_hz"])))
    ok = [abs(rpm / 60 - hz) < 1e-9 for _, _, rpm, hz in out]
    arrays = {"dataset": _s([o[0] for o in out]), "speed_rpm": np.array([o[2] for o in out]), "frequency_hz": np.array([o[3] for o in out]), "rpm_over_60": np.array([o[2] / 60 for o in out])}
    listing = "; ".join(f"{d} {c}: {rpm:g}/60 = {rpm / 60:g} Hz vs {hz:g} Hz" for d, c, rpm, hz in out)
    if all(ok):
        return Outcome(Verdict.HOLDS, listing, Evidence(arrays, {}, {}))
    k = ok.index(False)
    return Outcome(Verdict.REFUTED, f"{sum(not o for o in ok)} of {len(ok)} rows of Table 5 print a Frequency other than speed/60: {listing}",
                   Evidence(arrays, {}, {"dataset": out[k][0], "speed_rpm": out[k][2], "frequency_hz": out[k][3]}))


def _mnist_784() -> Outcome:
    printed = _count(dataset_facts("001")["mnist.length"][0])
    return Outcome(Verdict.HOLDS if 28 * 28 == printed else Verdict.REFUTED, f"28 * 28 = {28 * 28}, printed {printed}", Evidence({}, {"printed": printed, "product": 28 * 28}, {}))


def _udacity_metric(version: str = "001") -> Outcome:
    t4 = hyperparameter_table(version)
    metric, loss = t4["Metric"]["udacity"], t4["Loss"]["udacity"]
    text_metric = "MSE"  # Section 3.2: 'achieving the lowest MSE of 0.0170'
    scalars = {"table4_metric": metric, "table4_loss": loss, "section32_metric": text_metric}
    if metric == text_metric:
        return Outcome(Verdict.HOLDS, f"Table 4 and Section 3.2 both name {metric}", Evidence({}, scalars, {}))
    return Outcome(Verdict.REFUTED, f"Table 4 lists Udacity's metric as {metric} (loss {loss}); Section 3.2 calls the Table 1 Udacity numbers '{text_metric}'",
                   Evidence({}, scalars, {"table4_metric": metric, "section32_metric": text_metric}))


def _cv_splits(version: str = "001") -> Outcome:
    rows = dataset_splits(version)
    frac = np.array([float(r["test"]) / (float(r["train"]) + float(r["test"])) for r in rows])
    names = [r["dataset"] for r in rows]
    if version == "001":  # 000 prints no dataset table
        t5 = [r for r in dataset_table5() if r["dataset"] == "PRONOSTIA"]
        train = sum(_bearings(r["train"]) for r in t5)
        test = sum(_bearings(r["test"]) for r in t5)
        names.append("PRONOSTIA (Table 5 bearings)")
        frac = np.append(frac, test / (train + test))
    ok = np.isclose(frac, 0.2)
    arrays = {"datasets": _s(names), "test_fraction": frac, "five_fold": ok.astype(int)}
    listing = "; ".join(f"{n} test share {f:.3f}" for n, f in zip(names, frac))
    if ok.all():
        return Outcome(Verdict.HOLDS, f"every stated split holds out 1/5: {listing}", Evidence(arrays, {}, {}))
    bad = [n for n, o in zip(names, ok) if not o]
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"5-fold cross-validation holds out 1/5 per fold; the stated splits differ for {', '.join(bad)} ({listing}). "
                   "(If the folds were drawn inside the stated training share, no contradiction arises; D.3 does not say so)",
                   Evidence(arrays, {"splits_not_one_fifth": len(bad)}, {"dataset": names[k], "test_fraction": float(frac[k])}))


# ----------------------------------------------------------------------------- claims


def _claims000() -> list[Claim]:
    v = "000"
    return [
        _claim("nac000.d3.par.eleven_activities", v, "Appendix D.3.2", "The eleven possible activities are", "the sentence lists eleven activities and Table 4's PAR head has 11 outputs",
               "Appendix D.3.2 sentence and Table 4 Dense row", H, "11 listed, 'eleven', '32–11(SM)'", lambda: _list_count(v, "par.activities", "par")),
        _claim("nac000.d3.carracing.five_actions", v, "Appendix D.3.3", "across five discrete actions (no-act, move left, forward, move right, stop)",
               "five actions are listed and Table 4's CarRacing head has 5 outputs", "Appendix D.3.3 sentence and Table 4 Dense row", H, "5 listed, '64–5(SM)'",
               lambda: _list_count(v, "carracing.actions", "carracing")),
        _claim("nac000.d3.hust.bearings_loads", v, "Appendix D.3.4, HUST", "five bearing types (6204, 6205, 6206, 6207, and 6208) under three different load conditions",
               "five bearing types and three loads are listed", "Appendix D.3.4 sentence", H, "5 and 3 listed", lambda: _hust(v)),
        _claim("nac000.d3.hust.six_faults", v, "Appendix D.3.4, HUST", "Six fault categories were introduced", "six fault categories are listed (3 single + 3 compound)",
               "Appendix D.3.4 sentence", H, "3 + 3 = 6 listed", lambda: _list_count(v, "hust.faults", None)),
        _claim("nac000.d3.xjtu.rpm_hz", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load",
               "each setting's frequency equals its speed / 60 (shaft rotation frequency)", "Appendix D.3.4 sentence; rpm and Hz as printed", F,
               "1200 rpm is 20 Hz; 35 Hz is 2100 rpm (2250/37.5 and 2400/40 agree)", lambda: _rpm_hz(v)),
    ]


def _claims001() -> list[Claim]:
    v = "001"
    return [
        _claim("nac001.d31.784", v, "Appendix D.3.1", "each 28 _×_ 28 image is reshaped into a one-dimensional time series of length 784",
               "28 * 28 = 784", "arithmetic", H, "784", _mnist_784),
        _claim("nac001.d32.par.eleven_activities", v, "Appendix D.3.2", "The eleven possible activities are",
               "the sentence lists eleven activities and Table 4's PAR head has 11 outputs", "Appendix D.3.2 sentence and Table 4 Dense row", H,
               "11 listed, '32–11(SM)'", lambda: _list_count(v, "par.activities", "par")),
        _claim("nac001.d33.carracing.five_actions", v, "Appendix D.3.3", "with corresponding action labels across five discrete actions",
               "five actions are listed and Table 4's CarRacing head has 5 outputs", "Appendix D.3.3 sentence and Table 4 Dense row", H, "5 listed, '64–5(SM)'",
               lambda: _list_count(v, "carracing.actions", "carracing")),
        _claim("nac001.d34.pronostia.sixteen", v, "Appendix D.3.4, PRONOSTIA", "The dataset comprises 16 complete run-to-failure experiments",
               "Table 5's PRONOSTIA train and test bearings add up to 16", "Appendix D.3.4 and Table 5 as printed", F,
               "Table 5: (4 + 3) + 7 + 3 = 17 (the public set has 17 bearings)", lambda: _experiments_count("PRONOSTIA", "pronostia.experiments")),
        _claim("nac001.d34.pronostia.text_vs_table5", v, "Appendix D.3.4, PRONOSTIA", "1800 rpm with 4 kN radial load, 1650 rpm with a 4.2 kN load, and 1500 rpm with a 5 kN load",
               "the text's PRONOSTIA speeds, loads and 100 Hz equal Table 5's", "Appendix D.3.4 and Table 5 as printed", H, "all three conditions agree",
               lambda: _text_vs_table5("PRONOSTIA")),
        _claim("nac001.d34.pronostia.frequency_is_rotation", v, "Appendix D.3.4, Table 5", "all at a frequency of 100 Hz",
               "every Table 5 row with a speed prints Frequency = speed / 60, as the XJTU-SY rows do", "Table 5 as printed", F,
               "PRONOSTIA's 100 Hz is not 1800/60 = 30 Hz (nor 27.5, 25 Hz)", _pronostia_frequency, R,
               "Table 5's Frequency column is the shaft rotation frequency, as for XJTU-SY (35 Hz = 2100 rpm)"),
        _claim("nac001.d34.xjtu.rpm_hz", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load",
               "each setting's frequency equals its speed / 60", "Appendix D.3.4 sentence; rpm and Hz as printed", F, "1200 rpm is 20 Hz; 35 Hz is 2100 rpm", lambda: _rpm_hz(v)),
        _claim("nac001.d34.xjtu.text_vs_table5", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load, 2250 rpm (37.5 Hz) with an 11 kN radial load",
               "the text's XJTU-SY speeds, frequencies and loads equal Table 5's", "Appendix D.3.4 and Table 5 as printed", F,
               "speed 1200 vs 2100 rpm; loads 12/11/10 kN vs 4/4.2/5 kN", lambda: _text_vs_table5("XJTU-SY")),
        _claim("nac001.d34.xjtu.fifteen", v, "Appendix D.3.4, XJTU-SY", "The dataset comprises 15 complete runto-failure experiments",
               "Table 5's XJTU-SY test bearings add up to 15", "Appendix D.3.4 and Table 5 as printed", H, "5 + 5 + 5", lambda: _experiments_count("XJTU-SY", "xjtu.experiments")),
        _claim("nac001.d34.hust", v, "Appendix D.3.4, HUST", "five bearing types (6204, 6205, 6206, 6207, and 6208) under three different load conditions: 0 W, 200 W, and 400 W",
               "five bearing types, three loads and six fault categories are listed, and Table 5's HUST loads equal the text's", "Appendix D.3.4 and Table 5 as printed", H,
               "5, 3, 6; Table 5 0/200/400 W", lambda: _hust(v)),
        _claim("nac001.table4.udacity_metric", v, "Appendix D.3.4, Table 4, Metric row", "Metric Acc Acc Acc MAE Score",
               "Table 4 and Section 3.2 name the same metric for the Udacity column", "Table 4 and Section 3.2 as printed", F,
               "Table 4 says MAE, Section 3.2 'the lowest MSE of 0.0170'", _udacity_metric),
        _claim("nac001.s3.cv.splits", v, "Section 3", "All results are obtained using 5-fold cross-validation",
               "each train/test split stated in Appendix D.3 (and Table 5's PRONOSTIA bearings) holds out 1/5 of the data", "Appendix D.3 and Table 5 as printed", F,
               "PAR 90:10, CarRacing 90:10, PRONOSTIA 4 train / 13 test bearings; Udacity 80:20 agrees", _cv_splits, R,
               "the stated train/test splits are the cross-validation folds (each fold holds out 1/5)"),
    ]


def dataset_claims() -> list[Claim]:
    """The data-set claims of both versions (group 'tables')."""
    return _claims000() + _claims001()


add_provider(dataset_claims)
