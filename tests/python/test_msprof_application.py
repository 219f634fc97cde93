"""The toolkit's msprof runs --application="NAME" from the working directory, as the
operator_contrib samples' run.sh use it (`cd output; msprof --application="execute_op"`)."""
import os
import stat
import subprocess

import pytest

MSPROF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "toolkit", "msprof",
                      "msprof")


def write_app(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def test_a_bare_name_in_the_working_directory_runs(tmp_path):
    write_app(tmp_path / "execute_op", 'echo "$@" > ran.txt\n')
    r = subprocess.run(["bash", MSPROF, '--application=execute_op a1 a2', f"--output={tmp_path}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "ran.txt").read_text().strip() == "a1 a2"


def test_a_missing_program_is_one_clear_error(tmp_path):
    r = subprocess.run(["bash", MSPROF, "--application=no_such_program", f"--output={tmp_path}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "cannot run no_such_program: not found or not executable" in r.stderr


@pytest.mark.parametrize("mode", [0o644])
def test_a_file_that_is_not_executable_is_not_run(tmp_path, mode):
    (tmp_path / "execute_op").write_text("#!/bin/sh\ntouch ran.txt\n")
    os.chmod(tmp_path / "execute_op", mode)
    r = subprocess.run(["bash", MSPROF, "--application=execute_op", f"--output={tmp_path}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert not (tmp_path / "ran.txt").exists()
