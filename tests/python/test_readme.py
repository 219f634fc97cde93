"""The README's Python snippets run as written, from the repository's root, without a warning (a
snippet that names a kernel that does not ship, or teaches a launch ascsim warns about, fails here)."""
import os
import re

import numpy as np
import pytest

import ascsim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_blocks():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.filterwarnings("error")
def test_the_load_snippet_runs_on_a_kernel_that_ships(tmp_path, monkeypatch):
    blocks = [b for b in python_blocks() if "ascsim.load(" in b]
    assert blocks, "the README has an ascsim.load snippet"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("ASCSIM_CACHE_DIR", str(tmp_path))
    scope = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)  # noqa: S102 - the README's own code
    x, y = scope["x"], scope["y"]
    np.testing.assert_array_equal(y, np.where(x >= 0, x, x * np.float32(0.1)))
    assert "leaky_relu_custom" in scope["prof"].explain()
    assert isinstance(scope["mod"].leaky_relu_custom, ascsim.Kernel)
