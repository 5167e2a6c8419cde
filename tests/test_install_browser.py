"""scripts/install-browser.sh, run with stand-ins for id, dpkg-query and apt-get on PATH: as
root it installs what is missing; otherwise it says what to install and exits 1."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "install-browser.sh"


def _run(tmp_path: Path, *, uid: int, installed: set[str]) -> tuple[subprocess.CompletedProcess,
                                                                    list[str]]:
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "apt.log"
    stand_ins = {
        "id": f'#!/bin/sh\necho {uid}\n',
        "dpkg-query": ("#!/bin/sh\nfor p; do :; done\n"  # the package is the last argument
                       f'case " {" ".join(sorted(installed))} " in\n'
                       '  *" $p "*) printf "install ok installed" ;;\n  *) exit 1 ;;\nesac\n'),
        "apt-get": f'#!/bin/sh\necho "$*" >> {log}\n',
    }
    for name, body in stand_ins.items():
        (bin_ / name).write_text(body, encoding="utf-8")
        (bin_ / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}:/usr/bin:/bin"}
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True,
                          check=False)
    return done, log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_without_root_it_says_what_to_install(tmp_path: Path) -> None:
    done, apt = _run(tmp_path, uid=1000, installed={"fonts-dejavu-core"})
    assert done.returncode == 1 and apt == []
    assert "apt-get install -y chromium chromium-driver" in done.stderr


def test_as_root_it_installs_what_is_missing(tmp_path: Path) -> None:
    done, apt = _run(tmp_path, uid=0, installed={"chromium"})
    assert done.returncode == 0, done.stderr
    assert apt == ["update -qq", "install -y -qq chromium-driver fonts-dejavu-core"]


def test_nothing_to_do_when_installed(tmp_path: Path) -> None:
    done, apt = _run(tmp_path, uid=1000,
                     installed={"chromium", "chromium-driver", "fonts-dejavu-core"})
    assert done.returncode == 0 and apt == [] and done.stderr == ""
