"""A built wheel works outside the repository: data, proofs/, julia/ and the CLI ship with it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp / "dist")],
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0:
        pytest.fail(f"wheel build failed: {build.stderr[-2000:]}")
    wheel = next((tmp / "dist").glob("nacverify-*.whl"))
    site = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)], check=True, timeout=300)
    work = tmp / "elsewhere"
    work.mkdir()
    return site, work


def _run(site, work, code):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=work, env=env, timeout=300)


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
