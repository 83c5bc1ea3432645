import h5py
import numpy as np
import pytest

from nacverify.claims import Claim, CheckContext, Evidence, Outcome, Verdict, evaluate
from nacverify.errors import BadInput, ReportError
from nacverify.report import Report, check_writable, read_report, write_report


def _claim(cid, verdict, expected, arrays=None):
    return Claim(cid, "seed.txt, eq. 1", "statement", "assumptions", expected, "why",
                 lambda ctx: Outcome(verdict, "msg", Evidence(arrays=arrays or {}, scalars={"x": 1.5, "n": 3}, witness={"p": 0.25})))


def test_round_trip_and_shared_arrays(tmp_path):
    shared = np.linspace(0, 1, 11)
    results = [evaluate(_claim("a.one", Verdict.HOLDS, Verdict.HOLDS, {"t": shared, "y": shared**2})),
               evaluate(_claim("a.two", Verdict.REFUTED, Verdict.HOLDS, {"t": shared}))]
    report = Report(command="nacverify test", seed=5, results=results, sections={"extra/part": {"t": shared, "label": "x", "k": 2}})
    path = write_report(report, tmp_path / "r.h5")
    data = read_report(path)
    assert data.attrs["seed"] == 5 and data.complete
    assert data.attrs["n_unexpected"] == 1
    one, two = data.claims["a.one"], data.claims["a.two"]
    assert (one.verdict, two.verdict, two.expected) == ("holds", "refuted", "holds")
    np.testing.assert_array_equal(two.arrays["t"], shared)
    np.testing.assert_array_equal(one.arrays["y"], shared**2)
    assert one.scalars == {"x": 1.5, "n": 3} and one.witness == {"p": 0.25}
    assert data.sections["extra"]["part"]["label"] == "x"
    with h5py.File(path) as f:  # stored once, linked elsewhere
        assert isinstance(f["claims/a.two/arrays"].get("t", getlink=True), h5py.SoftLink)
        assert isinstance(f["extra/part"].get("t", getlink=True), h5py.SoftLink)


def test_never_overwrites_without_force(tmp_path):
    path = tmp_path / "r.h5"
    write_report(Report(command="first"), path)
    with pytest.raises(BadInput, match="exists"):
        write_report(Report(command="second"), path)
    assert read_report(path).attrs["command"] == "first"
    write_report(Report(command="second"), path, overwrite=True)
    assert read_report(path).attrs["command"] == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.h5"]  # no temporary files left


def test_check_writable(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(BadInput, match="not writable"):
        check_writable(tmp_path / "file" / "sub" / "r.h5")
    with pytest.raises(BadInput, match="directory"):
        check_writable(tmp_path)
    assert check_writable(tmp_path / "new" / "r.h5") == tmp_path / "new" / "r.h5"


def test_reader_rejects_foreign_corrupt_and_future(tmp_path):
    with pytest.raises(ReportError, match="no report"):
        read_report(tmp_path / "missing.h5")
    (tmp_path / "junk.h5").write_bytes(b"not hdf5 at all")
    with pytest.raises(ReportError, match="corrupt"):
        read_report(tmp_path / "junk.h5")
    with h5py.File(tmp_path / "other.h5", "w") as f:
        f.attrs["x"] = 1
    with pytest.raises(ReportError, match="not a nacverify report"):
        read_report(tmp_path / "other.h5")
    path = write_report(Report(command="c"), tmp_path / "future.h5")
    with h5py.File(path, "a") as f:
        f.attrs["schema_version"] = "99.0"
    with pytest.raises(ReportError, match="schema version"):
        read_report(path)


def test_check_exception_becomes_error_verdict():
    def broken(ctx):
        raise ZeroDivisionError("boom")

    result = evaluate(Claim("x", "s", "st", "a", Verdict.HOLDS, "r", broken), CheckContext())
    assert result.verdict == Verdict.ERROR and "boom" in result.outcome.message and not result.as_expected


def test_non_ascii_text_evidence_round_trips(tmp_path):
    """Seed 000 writes 'Linear\\u00a0Attention' with a no-break space; text evidence used to be
    stored as ASCII bytes, and such an array crashed the writer (UnicodeEncodeError)."""
    labels = np.array(["Linear\u00a0Attention", "NAC-φ", "plain"])
    kinds = Claim("k.one", "seed.txt", "s", "a", Verdict.HOLDS, "why",
                  lambda ctx: Outcome(Verdict.HOLDS, "msg with φ", Evidence(arrays={"labels": labels})), kind="lemma")
    report = Report(command="nacverify test", results=[evaluate(kinds)], sections={"extra": {"names": labels}})
    data = read_report(write_report(report, tmp_path / "u.h5"))
    assert list(data.claims["k.one"].arrays["labels"]) == list(labels)
    assert list(data.sections["extra"]["names"]) == list(labels)
    assert data.claims["k.one"].kind == "lemma" and data.claims["k.one"].message == "msg with φ"


def test_register_refuses_a_claim_without_kind_or_with_an_unnamed_reading():
    from nacverify.claims import Kind, check_kind

    base = dict(id="x.kindless", source="s", statement="s", assumptions="a", expected=Verdict.HOLDS, expected_reason="r",
                check=lambda ctx: Outcome(Verdict.HOLDS, "m"))
    with pytest.raises(ValueError, match="has no kind"):
        check_kind(Claim(**base))
    with pytest.raises(ValueError, match="names its interpretation"):
        check_kind(Claim(**base, kind=Kind.READING))
    with pytest.raises(ValueError, match="names its interpretation"):
        check_kind(Claim(**base, kind=Kind.LEMMA, reading="some reading"))
    check_kind(Claim(**base, kind=Kind.READING, reading="t read as T"))
    result = evaluate(Claim(**base, kind=Kind.READING, reading="t read as T"))
    assert result.outcome.message.endswith("[reading: t read as T]")
    assert result.outcome.evidence.scalars["reading"] == "t read as T"
