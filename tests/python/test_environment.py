"""Settings read from the environment at import, and process exit with work still queued.
Each case runs a fresh interpreter, since the runtime reads the environment once."""
import os
import subprocess
import sys

import pytest


def run_python(code, **env):
    full_env = dict(os.environ)
    for key in ("ASCSIM_STRICT", "ASCSIM_SOC", "ASCSIM_SERIAL"):
        full_env.pop(key, None)
    full_env.update(env)
    return subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True,
                          text=True, timeout=120)


def test_environment_variables_set_the_defaults():
    code = "import add_custom as a; print(a.get_strict(), a.get_serial(), a.get_soc()['name'])"
    assert run_python(code).stdout.split() == ["False", "False", "Ascend910B1"]
    out = run_python(code, ASCSIM_STRICT="1", ASCSIM_SERIAL="1", ASCSIM_SOC="Ascend310P3")
    assert out.stdout.split() == ["True", "True", "Ascend310P3"], out.stderr


def test_strict_from_environment_fails_an_unaligned_copy():
    code = ("import numpy as np, add_custom as a\n"
            "try:\n"
            "    a.testing.run_unaligned_copy(np.ones(64, np.float16), 7)\n"
            "except a.KernelError as e:\n"
            "    print(e.kind)\n")
    out = run_python(code, ASCSIM_STRICT="1")
    assert out.stdout.strip() == "strict-mode warning", out.stderr


def test_exit_with_queued_work_and_unreported_errors_is_clean():
    code = ("import numpy as np, add_custom as a\n"
            "s = a.Stream()\n"
            "x = np.ones(1 << 22, np.float32)\n"
            "for _ in range(4): a.run_gelu_custom(x, stream=s)\n"
            "a.testing.run_dequeue_empty(stream=s)\n"
            "t = a.Stream()\n"
            "a.testing.run_unaligned_copy(np.ones(64, np.float16), 7, stream=t)\n"
            "print('done')\n")
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


@pytest.mark.parametrize("name,profile,arch,note", [
    ("Ascend310P1", "Ascend310P3", 2002, "the 310P1 has the 310P3's AI cores"),
    ("Ascend910B4", "Ascend910B3", 2201, "the 910B4 has the 910B3's 20 AI cores"),
    ("ascend910b3", "Ascend910B3", 2201, None),
    ("Ascend310P3", "Ascend310P3", 2002, None),
])
def test_ascsim_soc_takes_the_toolkits_names_mapped_the_same_way(name, profile, arch, note):
    code = "import ascsim; s = ascsim.get_soc(); print(s['name'], s['arch'])"
    out = run_python(code, ASCSIM_SOC=name)
    assert out.stdout.split() == [profile, str(arch)], out.stderr
    if note:
        assert (f"ascsim: ASCSIM_SOC={name} is not modelled; simulating it as {profile} ({note})"
                in out.stderr)
    else:
        assert "ascsim" not in out.stderr, out.stderr


def test_an_unknown_ascsim_soc_is_said_not_silently_replaced():
    out = run_python("import ascsim; print(ascsim.get_soc()['name'])", ASCSIM_SOC="Ascend999")
    assert "ASCSIM_SOC: unknown SoC 'Ascend999'" in out.stderr
    assert "using Ascend910B1" in out.stderr
