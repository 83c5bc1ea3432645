"""A built wheel works outside the repository: data, proofs/, julia/ and the CLI ship with it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    # built from a copy of the sources: setuptools reuses a checkout's build/ folder, whose stale
    # files (a package since dropped from pyproject's list) would otherwise ship in the wheel
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns("build", "dist", ".venv", "reports", "__pycache__", "*.egg-info", ".git", ".pytest_cache"))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp / "dist")],
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0:
        pytest.fail(f"wheel build failed: {build.stderr[-2000:]}")
    wheel = next((tmp / "dist").glob("nacverify-*.whl"))
    site = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)], check=True, timeout=300)
    work = tmp / "elsewhere"
    work.mkdir()
    return site, work


# An editable install of this checkout (the development venv) resolves a submodule the wheel lacks
# from the checkout: its finder is dropped first, so only the wheel's files are imported.
_WHEEL_ONLY = "import sys; sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in str(getattr(f, '__module__', ''))]\n"


def _run(site, work, code, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-c", _WHEEL_ONLY + code], capture_output=True, text=True, cwd=work, env=env, timeout=timeout)


def test_wheel_contents_importable_outside_repo(installed_wheel):
    site, work = installed_wheel
    code = (
        "import nacverify, importlib.resources as r, pkgutil\n"
        f"assert nacverify.__file__.startswith({str(site)!r}), nacverify.__file__\n"
        "assert 'oscillatory' in r.files('nacverify.data').joinpath('paper_table2_frozen_error.csv').read_text()\n"
        "import nacverify.proofs, nacverify.julia, nacverify.cli.app\n"
        "print('ok')\n"
    )
    proc = _run(site, work, code)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr


def test_wheel_cli_runs_main_job(installed_wheel):
    site, work = installed_wheel
    proc = _run(site, work, "from nacverify.cli.app import main; main(['frozen-error', '-r', 'slow', '--out', 'r.h5'])")
    assert proc.returncode == 0, proc.stderr
    assert (work / "r.h5").exists()


def test_wheel_ships_every_package_of_the_source_tree(installed_wheel):
    # `nacverify.checks` was missing from pyproject's package list: editable installs found it on
    # disk, a wheel did not have it, and every command that loads the claim catalog failed there
    site, _ = installed_wheel
    mapping = {"nacverify": ROOT / "nacverify", "nacverify.cli": ROOT / "cli", "nacverify.proofs": ROOT / "proofs", "nacverify.julia": ROOT / "julia"}
    expected = set()
    for name, folder in mapping.items():
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder)
            if ".venv" not in rel.parts and "__pycache__" not in rel.parts:
                expected.add(".".join([name, *rel.parts]))
    shipped = {".".join(init.parent.relative_to(site).parts) for init in (site / "nacverify").rglob("__init__.py")}
    assert expected - shipped == set(), sorted(expected - shipped)


def test_wheel_cli_loads_the_whole_claim_catalog(installed_wheel):
    site, work = installed_wheel
    proc = _run(site, work, "from nacverify.cli.app import main; main(['list', '--only', 'nac.cor1'])")
    assert proc.returncode == 0 and "nac.cor1" in proc.stdout, proc.stderr[-2000:]


def test_wheel_passes_the_quick_gate_from_an_empty_folder(installed_wheel):
    """Issue 22: from a wheel, in a folder with no shared/ anywhere above it, `check --quick --gate`
    exits 0; the parity claim reads the golden file the wheel ships and holds."""
    import h5py

    site, work = installed_wheel
    assert not (work.parent / "shared").exists() and not (work / ".." / ".." / "shared").exists()
    env_code = "import os; os.environ.pop('NACVERIFY_REFERENCE', None); os.environ.pop('NACVERIFY_SEEDS', None)\n"
    proc = _run(site, work, env_code + "from nacverify.cli.app import main; main(['check', '--quick', '--gate', '--jobs', '1', '--out', 'gate.h5'])",
                timeout=1800)  # every claim, serially: about 2 min on an idle 2-core machine, far more on a loaded one
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    with h5py.File(work / "gate.h5", "r") as f:
        parity = f["claims/nac.model.reference_parity"]
        assert parity.attrs["verdict"] == "holds", parity.attrs["message"]
        assert parity["scalars"].attrs["fixture"].startswith(str(site)), parity["scalars"].attrs["fixture"]
