"""ascsim.load_op: the custom-operator projects of tests/customop (the official layout) built
from Python and called with NumPy arrays, against float64 references."""
import inspect
import os
import shutil

import numpy as np
import pytest

import ascsim

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "customop")


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("load_op_cache"))


@pytest.fixture(scope="module")
def squared_diff(build_dir):
    return ascsim.load_op(os.path.join(PROJECTS, "SquaredDiff", "SquaredDiffCustom"),
                          build_dir=build_dir)


@pytest.fixture(scope="module")
def scale_shift(build_dir):
    return ascsim.load_op(os.path.join(PROJECTS, "ScaleShift", "ScaleShiftCustom"),
                          build_dir=build_dir)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-6), (np.float16, 2e-3)])
# Sizes the TilingFunc splits into whole 32-byte units per core (odd core counts among them).
@pytest.mark.parametrize("shape", [(8, 2048), (3, 48), (1008,)])
def test_squared_diff_matches_numpy(squared_diff, dtype, tol, shape):
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    y = rng.uniform(-1, 1, shape).astype(dtype)
    z = squared_diff(x, y)
    assert z.shape == shape and z.dtype == dtype  # InferShape / InferDataType
    ref = (x.astype(np.float64) - y.astype(np.float64)) ** 2
    np.testing.assert_allclose(z.astype(np.float64), ref, rtol=tol, atol=tol)


def test_signature_shows_inputs_and_attrs(squared_diff, scale_shift):
    assert list(inspect.signature(squared_diff).parameters) == ["x", "y", "out", "stream"]
    params = inspect.signature(scale_shift).parameters
    assert list(params) == ["x", "bias", "scale", "relu", "out", "stream"]
    assert params["bias"].default is None  # an optional input
    assert params["scale"].default == 1.0 and params["relu"].default is False
    assert params["scale"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["scale"].annotation is float and params["relu"].annotation is bool
    assert "input bias (optional): float32" in scale_shift.__doc__


@pytest.mark.parametrize("bias,scale,relu", [(True, 0.5, True), (False, 2.0, False),
                                             (True, -1.5, False), (False, 0.25, True)])
def test_scale_shift_attrs_optional_input_and_tiling_keys(scale_shift, bias, scale, relu):
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (16, 256)).astype(np.float32)
    b = rng.uniform(-1, 1, (16, 256)).astype(np.float32) if bias else None
    y = scale_shift(x, b, scale=scale, relu=relu)
    ref = x.astype(np.float64) * scale + (b.astype(np.float64) if bias else 0.0)
    if relu:
        ref = np.maximum(ref, 0)
    np.testing.assert_allclose(y, ref, rtol=1e-6, atol=1e-6)


def test_scale_shift_defaults_and_out(scale_shift):
    x = np.linspace(-2, 2, 4096, dtype=np.float32).reshape(16, 256)
    out = np.zeros_like(x)
    y = scale_shift(x, out=out)  # scale 1.0, relu false
    assert y is out or np.shares_memory(y, out)
    np.testing.assert_allclose(out, x.astype(np.float64), rtol=0, atol=0)


def test_matmul_bias_with_workspace(build_dir):
    op = ascsim.load_op(os.path.join(PROJECTS, "MatmulBias", "MatmulBiasCustom"),
                        build_dir=build_dir)
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (128, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 96)).astype(np.float16)
    bias = rng.uniform(-1, 1, (96,)).astype(np.float32)
    c = op(a, b, bias)
    assert c.shape == (128, 96) and c.dtype == np.float32
    ref = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(c, ref, rtol=1e-3, atol=1e-3)


def test_cached_and_installed_package(squared_diff, build_dir):
    again = ascsim.load_op(os.path.join(PROJECTS, "SquaredDiff", "SquaredDiffCustom"),
                           build_dir=build_dir)
    assert again is squared_diff  # no rebuild, the same operator
    package = squared_diff._package  # a package laid out as the .run installs it
    op = ascsim.load_op(package)
    x = np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(op(x, x + 1), np.ones(64, np.float32))


def test_bad_arguments_name_the_parameter(squared_diff, scale_shift):
    x = np.ones(64, np.float32)
    with pytest.raises(ascsim.InvalidArgumentError, match="takes no"):
        squared_diff(x, x.astype(np.float16))  # no dtype combination
    with pytest.raises(ascsim.InvalidArgumentError, match="input x has dtype complex128"):
        squared_diff(x.astype(np.complex128), x)
    with pytest.raises(ascsim.InvalidArgumentError, match="input y must be a numpy.ndarray"):
        squared_diff(x, [1.0] * 64)
    with pytest.raises(ascsim.InvalidArgumentError, match="missing a required argument: 'y'"):
        squared_diff(x)
    with pytest.raises(ascsim.InvalidArgumentError, match="attribute relu must be bool, not str"):
        scale_shift(np.ones((16, 256), np.float32), relu="yes")
    with pytest.raises(ascsim.InvalidArgumentError, match="TilingFunc failed"):
        scale_shift(np.ones((3, 5), np.float32))  # a shape its TilingFunc refuses
    # Still usable after the errors.
    np.testing.assert_array_equal(squared_diff(x, x), np.zeros(64, np.float32))


def test_bad_paths(tmp_path):
    with pytest.raises(ascsim.InvalidArgumentError, match="no such folder"):
        ascsim.load_op(str(tmp_path / "missing"))
    with pytest.raises(ascsim.InvalidArgumentError, match="neither a custom-operator project"):
        ascsim.load_op(str(tmp_path))


def test_build_errors_are_one_clear_error(tmp_path, build_dir):
    project = tmp_path / "SquaredDiffCustom"
    shutil.copytree(os.path.join(PROJECTS, "SquaredDiff", "SquaredDiffCustom"), project,
                    ignore=shutil.ignore_patterns("build_out"))
    kernel = project / "op_kernel" / "squared_diff_custom.cpp"
    kernel.write_text(kernel.read_text() + "\nint broken = ;\n")
    with pytest.raises(ascsim.BuildError, match="compiling the kernel of SquaredDiffCustom"):
        ascsim.load_op(str(project), build_dir=build_dir)
    host = project / "op_host" / "squared_diff_custom.cpp"
    host.write_text(host.read_text().replace("OP_ADD(SquaredDiffCustom);", ""))
    with pytest.raises(ascsim.BuildError, match="registers no operator"):
        ascsim.load_op(str(project), build_dir=build_dir)


def test_calls_queued_on_a_stream_run_in_order(squared_diff, scale_shift):
    rng = np.random.default_rng(13)
    x = rng.uniform(-2, 2, (3, 48)).astype(np.float32)
    y = rng.uniform(-2, 2, (3, 48)).astype(np.float32)
    big = rng.uniform(-3, 3, (16, 256)).astype(np.float32)
    with ascsim.Stream() as s:
        z = squared_diff(x, y, stream=s)
        w = scale_shift(big, scale=-0.5, relu=True, stream=s)
        out = np.full_like(x, 7.0)
        z2 = squared_diff(y, x, out=out, stream=s)
        s.synchronize()
        assert s.pending == 0
    ref = (x.astype(np.float64) - y.astype(np.float64)) ** 2
    np.testing.assert_allclose(z, ref, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(z2, ref, rtol=1e-6, atol=1e-6)
    assert np.shares_memory(z2, out)
    np.testing.assert_allclose(w, np.maximum(big.astype(np.float64) * -0.5, 0), rtol=1e-6,
                               atol=1e-6)


def test_stream_argument_errors(squared_diff):
    x = np.ones((3, 48), np.float32)
    with pytest.raises(ascsim.InvalidArgumentError, match="stream must be an"):
        squared_diff(x, x, stream=5)
    s = ascsim.Stream()
    s.close()
    with pytest.raises(ascsim.InvalidArgumentError, match="the stream is closed"):
        squared_diff(x, x, stream=s)
    # A bad input raises at the call, before anything is queued.
    with ascsim.Stream() as s2:
        with pytest.raises(ascsim.InvalidArgumentError):
            squared_diff(x, np.ones((3, 48), np.int32), stream=s2)
        assert s2.pending == 0


def test_template_tiling_kernel_instances(build_dir):
    """TplAddRelu (tests/customop): the tiling key picks a template instance per data type,
    tile count and ReLU (Tiling模板编程)."""
    op = ascsim.load_op(os.path.join(PROJECTS, "TplAddRelu", "TplAddReluCustom"),
                        build_dir=build_dir)
    rng = np.random.default_rng(17)
    for dtype, shape, relu, tol in ((np.float16, (8, 1024), True, 1e-3),
                                    (np.float16, (4, 256), False, 1e-3),
                                    (np.float32, (8, 4096), False, 1e-6),
                                    (np.float32, (3, 16), True, 1e-6)):
        x = rng.uniform(-4, 4, shape).astype(dtype)
        y = rng.uniform(-4, 4, shape).astype(dtype)
        ref = x.astype(np.float64) + y.astype(np.float64)
        if relu:
            ref = np.maximum(ref, 0)
        z = op(x, y, relu=relu)
        np.testing.assert_allclose(z.astype(np.float64), ref, rtol=tol, atol=tol)
