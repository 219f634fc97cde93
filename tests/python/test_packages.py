"""The two packages' faces: one runtime behind both, typed signatures, __all__, versions, the
settings and sanitize context managers (python/ascsim, python/add_custom)."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import add_custom
import ascsim


def test_both_packages_share_one_runtime():
    assert add_custom.KernelError is ascsim.KernelError
    assert add_custom.Error is ascsim.Error
    assert add_custom.Stream is ascsim.Stream
    assert add_custom.profile is ascsim.profile
    assert add_custom.SimulatorWarning is ascsim.SimulatorWarning
    add_custom.set_soc("Ascend910B3")
    assert ascsim.get_soc()["name"] == "Ascend910B3"
    ascsim.set_strict(True)
    assert add_custom.get_strict()


def test_profile_of_one_package_sees_launches_of_the_other():
    x = np.ones(2048, np.float16)
    with ascsim.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=1)
    assert [s["kernel"] for s in prof.summary()] == ["add_custom"]


def test_versions_come_from_cmake():
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "CMakeLists.txt")) as f:
        text = f.read()
    version = text.split("project(ascsim VERSION ")[1].split()[0]
    assert ascsim.__version__ == add_custom.__version__ == version


@pytest.mark.parametrize("module", [ascsim, add_custom])
def test_all_names_exist(module):
    assert module.__all__
    for name in module.__all__:
        assert hasattr(module, name), name


def test_signatures_show_real_parameter_names_and_types():
    sig = inspect.signature(add_custom.run_add_custom)
    assert list(sig.parameters) == ["x", "y", "block_dim", "stream"]
    assert sig.parameters["block_dim"].default == 8
    assert sig.parameters["stream"].default is None
    assert list(inspect.signature(add_custom.run_gelu_custom).parameters) == [
        "x", "block_dim", "stream"]
    sig = inspect.signature(ascsim.load)
    assert list(sig.parameters) == ["sources", "name", "extra_cflags", "build_dir", "verbose"]
    assert all(sig.parameters[p].kind is inspect.Parameter.KEYWORD_ONLY
               for p in ["name", "extra_cflags", "build_dir", "verbose"])
    hints = add_custom.run_add_custom.__annotations__
    assert "int" in str(hints["block_dim"]) and "Stream" in str(hints["stream"])


def test_help_shows_the_parameters():
    import pydoc
    text = pydoc.render_doc(add_custom.run_add_custom, renderer=pydoc.plaintext)
    assert "run_add_custom(x: 'Any', y: 'Any', block_dim: 'int' = 8" in text
    assert "float16 or float32" in text


def test_typed_package_markers_are_there():
    for module in (ascsim, add_custom):
        assert os.path.exists(os.path.join(os.path.dirname(module.__file__), "py.typed"))
    assert os.path.exists(os.path.join(os.path.dirname(ascsim.__file__), "_core.pyi"))


def test_errors_show_as_ascsim_classes():
    assert ascsim.KernelError.__module__ == "ascsim"
    assert issubclass(ascsim.BuildError, ascsim.Error)
    assert issubclass(ascsim.InvalidArgumentError, ValueError)


def test_settings_context_manager_restores_everything():
    before = ascsim.get_settings()
    with ascsim.settings(soc="Ascend310P3", strict=True, serial=True, timeout=5,
                         sanitize="race,sync") as now:
        assert now == {"soc": "Ascend310P3", "strict": True, "serial": True, "timeout": 5.0,
                       "sanitize": "race,sync"}
        assert add_custom.get_soc()["name"] == "Ascend310P3"
    assert ascsim.get_settings() == before
    with pytest.raises(RuntimeError):
        with ascsim.settings(strict=True):
            raise RuntimeError("boom")
    assert ascsim.get_settings() == before


def test_invalid_settings_change_nothing():
    before = ascsim.get_settings()
    with pytest.raises(ascsim.InvalidArgumentError, match="Ascend999"):
        with ascsim.settings(strict=True, soc="Ascend999"):
            pass
    with pytest.raises(ascsim.InvalidArgumentError, match="timeout"):
        with ascsim.settings(strict=True, timeout=-1):
            pass
    assert ascsim.get_settings() == before


def test_sanitize_switches():
    ascsim.set_sanitize("init,race")
    assert ascsim.get_sanitize() == "race,init"
    ascsim.set_sanitize("all")
    assert ascsim.get_sanitize() == "race,init,sync"
    ascsim.set_sanitize(None)
    assert ascsim.get_sanitize() == ""
    ascsim.set_sanitize(True)
    assert ascsim.get_sanitize() == "race,init,sync"
    ascsim.set_sanitize(False)
    assert ascsim.get_sanitize() == ""
    with pytest.raises(ascsim.InvalidArgumentError, match="bogus"):
        ascsim.set_sanitize("race,bogus")
    with pytest.raises(ascsim.InvalidArgumentError):
        ascsim.set_sanitize(3)
    with ascsim.sanitize("sync") as on:
        assert on == "sync" and add_custom.get_sanitize() == "sync"
        with ascsim.sanitize() as inner:
            assert inner == "race,init,sync"
        assert ascsim.get_sanitize() == "sync"
    assert ascsim.get_sanitize() == ""


def test_sanitize_from_the_environment():
    env = dict(os.environ, ASCSIM_SANITIZE="race")
    out = subprocess.run([sys.executable, "-c", "import ascsim; print(ascsim.get_sanitize())"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "race"


def test_testing_module_is_there_in_the_build_tree():
    from add_custom import testing
    assert "run_dequeue_empty" in testing.__all__
    assert add_custom.testing is testing
