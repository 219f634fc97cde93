"""The seeds' PyTorch flows, as shipped in examples/torch/, run as a user runs them: the
torch.library `ascendc_add` sample, the pybind sample's unittest with torch.allclose, test_gelu
three ways, and the LLaMA block whose RMSNorm is the ascsim operator (eager and compiled, with its
profile)."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "examples", "torch")


def run(script, *args, timeout=1200):
    import ascsim
    # The packages this test imported (the build tree, or an install), found from any folder.
    env = dict(os.environ)
    packages = os.path.dirname(os.path.dirname(os.path.abspath(ascsim.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([packages] + [p for p in
                                         env.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=EXAMPLES, env=env)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{script} exited with {proc.returncode}:\n{output[-6000:]}"
    return output


@pytest.mark.parametrize("script,tests", [("ascendc_add.py", 4), ("test_add_custom.py", 2),
                                          ("test_gelu.py", 6)])
def test_unittest_examples(script, tests):
    output = run(script)
    assert f"Ran {tests} tests" in output and "\nOK" in output, output


def test_llama_block_eager_compiled_and_profiled():
    output = run("llama_block.py", "--backend", "inductor", "--dim", "128", "--seq", "32")
    assert "eager: ascsim RMSNorm vs PyTorch RMSNorm" in output
    assert "compiled (inductor, fullgraph) vs eager" in output
    assert "rms_norm_custom: 2 launches, estimated" in output
    assert output.rstrip().endswith("llama block: passed"), output
