"""ascsim.load(): a user's own kernel source as a Python module (python/ascsim/_loader.py,
bindings/kernel_module_bindings.cpp, python/ascsim/_codegen.py)."""
import inspect
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import add_custom
import ascsim
from ascsim import _codegen
import load_scenario

# Scalar parameters of every kind, for the conversions: z[i] = value for i < count, and a flag
# written to out[0] from the other scalars (so each must arrive exactly).
SCALARS = r'''
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void fill_custom(GM_ADDR z, half value, uint16_t count)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<half> zGm;
    zGm.SetGlobalBuffer((__gm__ half *)z, count);
    pipe.InitBuffer(buf, count * sizeof(half));
    AscendC::LocalTensor<half> local = buf.Get<half>();
    AscendC::Duplicate(local, value, count);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);  // the sanitizer insists, rightly
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, local, count);
}

extern "C" __global__ __aicore__ void scalars_custom(__gm__ int64_t *out, int8_t a, uint64_t b, double c, bool d,
                                                     int32_t /* unnamed in the next kernel */ e)
{
    AscendC::GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer(out, 4);
    outGm.SetValue(0, a);
    outGm.SetValue(1, static_cast<int64_t>(b >> 1));
    outGm.SetValue(2, static_cast<int64_t>(c * 4));
    outGm.SetValue(3, d ? e : -e);
}

extern "C" __global__ __aicore__ void unnamed_custom(GM_ADDR, uint32_t)
{
}
'''


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("ascsim_load_cache"))


@pytest.fixture(scope="module")
def axpy(tmp_path_factory, build_dir):
    work = tmp_path_factory.mktemp("axpy")
    path = work / "axpy_custom.cpp"
    path.write_text(load_scenario.KERNEL)
    return ascsim.load(str(path), build_dir=build_dir)


@pytest.fixture(scope="module")
def scalars(tmp_path_factory, build_dir):
    path = tmp_path_factory.mktemp("scalars") / "scalars_custom.cpp"
    path.write_text(SCALARS)
    return ascsim.load(str(path), build_dir=build_dir)


def test_the_whole_scenario(tmp_path):
    load_scenario.run(str(tmp_path))


def test_every_kernel_of_the_source_is_a_callable_with_a_signature(scalars):
    assert scalars.__all__ == ["fill_custom", "scalars_custom", "unnamed_custom"]
    sig = inspect.signature(scalars.scalars_custom)
    assert list(sig.parameters) == ["out", "a", "b", "c", "d", "e", "block_dim", "stream"]
    assert sig.parameters["out"].annotation is np.ndarray
    assert sig.parameters["c"].annotation is float
    assert sig.parameters["block_dim"].kind is inspect.Parameter.KEYWORD_ONLY
    assert list(inspect.signature(scalars.unnamed_custom).parameters)[:2] == ["arg0", "arg1"]
    assert "__gm__ int64_t* out" in scalars.scalars_custom.__doc__
    assert "int8_t a" in scalars.scalars_custom.cpp_signature


def test_scalars_arrive_exactly(scalars):
    out = np.zeros(4, np.int64)
    scalars.scalars_custom(out, -128, 2**64 - 2, 2.25, True, -7, block_dim=1)
    assert out.tolist() == [-128, 2**63 - 1, 9, -7]
    scalars.scalars_custom(out, np.int8(5), np.uint64(6), np.float32(0.5), np.bool_(False), 3,
                           block_dim=1)
    assert out.tolist() == [5, 3, 2, -3]


def test_half_scalar_is_rounded_like_numpy(scalars):
    z = np.zeros(64, np.float16)
    scalars.fill_custom(z, 0.1, 48, block_dim=1)
    assert (z[:48] == np.float16(0.1)).all() and (z[48:] == 0).all()


@pytest.mark.parametrize("args,match", [
    ((np.zeros(4, np.int64), 128, 0, 0.0, True, 0), r"'a' \(int8_t\): expected an int in \[-128, 127\], got 128"),
    ((np.zeros(4, np.int64), 0, -1, 0.0, True, 0), r"'b' \(uint64_t\): expected an int in \[0, 18446744073709551615\]"),
    ((np.zeros(4, np.int64), 0, 2**64, 0.0, True, 0), r"'b'"),
    ((np.zeros(4, np.int64), 1.5, 0, 0.0, True, 0), r"'a' \(int8_t\): expected an int .* got float 1.5"),
    ((np.zeros(4, np.int64), True, 0, 0.0, True, 0), r"'a'.*got bool"),
    ((np.zeros(4, np.int64), 0, 0, "x", True, 0), r"'c' \(double\): expected a float"),
    ((np.zeros(4, np.int64), 0, 0, 0.0, 1, 0), r"'d' \(bool\): expected a bool"),
    ((np.zeros(4, np.int32), 0, 0, 0.0, True, 0), r"'out' \(__gm__ int64_t\*\): dtype int32 does not match.*int64"),
    ((np.zeros((4, 2), np.int64)[:, 0], 0, 0, 0.0, True, 0), r"'out'.*C-contiguous"),
    (([0, 0, 0, 0], 0, 0, 0.0, True, 0), r"'out'.*expected a NumPy array .* got list"),
])
def test_bad_arguments_raise_invalid_argument_naming_the_parameter(scalars, args, match):
    with pytest.raises(ascsim.InvalidArgumentError, match=match) as info:
        scalars.scalars_custom(*args, block_dim=1)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("scalars_custom: ")


def test_half_out_of_range_and_block_dim(scalars):
    with pytest.raises(ValueError, match=r"'value' \(half\): 70000.0 is out of range"):
        scalars.fill_custom(np.zeros(16, np.float16), 70000.0, 16, block_dim=1)
    with pytest.raises(ValueError, match=r"'count' \(uint16_t\): expected an int in \[0, 65535\]"):
        scalars.fill_custom(np.zeros(16, np.float16), 1.0, 65536, block_dim=1)
    with pytest.raises(ValueError, match="block_dim must be an int in"):
        scalars.fill_custom(np.zeros(16, np.float16), 1.0, 16, block_dim=0)
    with pytest.raises(TypeError):
        scalars.fill_custom(np.zeros(16, np.float16), 1.0, 16)  # block_dim is required


def test_none_is_a_null_gm_pointer_and_struct_as_structured_array(axpy):
    n = 8 * 256
    x = np.ones(n, np.float32)
    z = np.zeros_like(x)
    t = np.zeros(1, load_scenario.TILING)
    t["blockLength"], t["tileLength"] = n // 8, 256
    axpy.axpy_custom(x, x, z, 2.0, t, block_dim=8)  # a one-element structured array is 8 bytes
    assert (z == 3).all()
    with pytest.raises(ascsim.KernelError, match="GlobalTensor has no buffer"):
        axpy.axpy_custom(x, None, z, 2.0, t, block_dim=8)


def test_kernel_writes_land_in_views_of_a_bigger_buffer(axpy):
    n = 8 * 256
    base = np.zeros(3 * n, np.float32)
    x, y, z = base[:n], base[n:2 * n], base[2 * n:]
    x[:] = 1.0
    y[:] = 2.0
    axpy.axpy_custom(x, y, z, 3.0, load_scenario.tiling(n // 8, 256), block_dim=8)
    assert (base[2 * n:] == 5).all()


def test_second_load_reuses_the_build_and_a_header_change_rebuilds(tmp_path):
    header = tmp_path / "scale.h"
    header.write_text("constexpr float SCALE = 2.0f;\n")
    source = tmp_path / "scale_custom.cpp"
    source.write_text(textwrap.dedent(r'''
        #include "kernel_operator.h"
        #include "scale.h"
        extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, uint32_t n)
        {
            AscendC::TPipe pipe;
            AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
            AscendC::GlobalTensor<float> xGm;
            xGm.SetGlobalBuffer((__gm__ float *)x, n);
            pipe.InitBuffer(buf, n * sizeof(float));
            AscendC::LocalTensor<float> local = buf.Get<float>();
            AscendC::DataCopy(local, xGm, n);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::Muls(local, local, SCALE, n);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(xGm, local, n);
        }
        '''))
    build = str(tmp_path / "cache")
    first = ascsim.load(str(source), build_dir=build)
    library = first.__file__
    stamp = os.stat(library).st_mtime_ns
    assert ascsim.load(str(source), build_dir=build) is first
    assert os.stat(library).st_mtime_ns == stamp
    x = np.ones(64, np.float32)
    first.scale_custom(x, 64, block_dim=1)
    assert (x == 2).all()
    header.write_text("constexpr float SCALE = 3.0f;\n")
    second = ascsim.load(str(source), build_dir=build)
    assert second.__file__ != library
    second.scale_custom(x, 64, block_dim=1)
    assert (x == 6).all()
    # Other flags are another build.
    third = ascsim.load(str(source), build_dir=build, extra_cflags=["-DASCSIM_SOC=Ascend310P3"])
    assert os.path.dirname(third.__file__) != os.path.dirname(second.__file__)


def test_compile_error_raises_build_error_with_the_first_error_lines(tmp_path):
    source = tmp_path / "broken_custom.cpp"
    source.write_text('#include "kernel_operator.h"\n'
                      'extern "C" __global__ __aicore__ void broken_custom(GM_ADDR x)\n'
                      '{\n    AscendC::LocalTensor<float> t = undefined_thing;\n}\n')
    with pytest.raises(ascsim.BuildError) as info:
        ascsim.load(str(source), build_dir=str(tmp_path / "cache"))
    message = str(info.value)
    assert "compiling" in message and "broken_custom.cpp" in message
    assert "undefined_thing" in message and "error" in message
    assert len(message.splitlines()) <= 14
    assert "undefined_thing" in info.value.output and "g++" in info.value.command
    assert isinstance(info.value, ascsim.Error)


def test_a_source_without_kernels_and_missing_files_are_reported(tmp_path):
    source = tmp_path / "helper.cpp"
    source.write_text("int helper() { return 1; }\n")
    with pytest.raises(ascsim.BuildError, match=r"no __global__ __aicore__ kernel \(other than "
                                                 r"templates\) is defined in .*helper.cpp"):
        ascsim.load(str(source), build_dir=str(tmp_path / "cache"))
    with pytest.raises(ascsim.InvalidArgumentError, match="no such file"):
        ascsim.load(str(tmp_path / "missing.cpp"))


def test_two_processes_building_at_once_both_get_the_module(tmp_path):
    source = tmp_path / "twice_custom.cpp"
    source.write_text(load_scenario.KERNEL.replace("axpy_custom", "twice_custom"))
    code = textwrap.dedent(f"""
        import numpy as np, ascsim
        mod = ascsim.load({str(source)!r}, build_dir={str(tmp_path / 'cache')!r})
        print(mod.__file__)
        """)
    env = dict(os.environ)
    children = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    outs = [c.communicate(timeout=300) for c in children]
    for child, (out, err) in zip(children, outs):
        assert child.returncode == 0, err
    assert outs[0][0] == outs[1][0]  # one build, shared
    builds = [d for d in os.listdir(os.path.dirname(outs[0][0].strip())) if d.endswith(".so")]
    assert len(builds) == 1


def test_warnings_of_loaded_kernels_are_simulator_warnings_at_the_callers_line(axpy):
    n = 8 * 256
    x = np.ones(n, np.float32)
    with ascsim.settings(soc="Ascend310P3"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        axpy.axpy_custom(x, x, np.zeros_like(x), 1.0, load_scenario.tiling(n // 8, 256),
                         block_dim=8)
    arch = [w for w in caught if issubclass(w.category, ascsim.SimulatorWarning)]
    # The arch warning is issued once per kernel and process; another test may have seen it.
    for w in arch:
        assert "compiled for __NPU_ARCH__ 2201" in str(w.message)
        assert w.filename == __file__


def test_scanner_reads_official_kernel_signatures(tmp_path):
    source = tmp_path / "official.cpp"
    source.write_text(textwrap.dedent('''
        // extern "C" __global__ __aicore__ void commented_out(GM_ADDR x) {}
        extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                         GM_ADDR workspace, GM_ADDR tiling)
        {
        }
        extern "C" __global__ __aicore__ void declared_only(GM_ADDR x);
        extern "C" __global__ __vector__ void vec_custom(__gm__ half* x, const uint32_t n,
                                                         unsigned int, MyTiling t) {}
        extern "C" void host_helper(int a) {}
        '''))
    kernels = _codegen.scan_kernels(str(source))
    assert [k.name for k in kernels] == ["add_custom", "vec_custom"]
    assert [(p.name, p.type) for p in kernels[0].params][-1] == ("tiling", "GM_ADDR")
    assert [(p.name, p.type) for p in kernels[1].params] == [
        ("x", "__gm__ half*"), ("n", "const uint32_t"), ("arg2", "unsigned int"),
        ("t", "MyTiling")]


def test_source_transform_hook_is_applied_before_scanning(tmp_path, monkeypatch):
    monkeypatch.setattr(_codegen, "_transforms", [])
    _codegen.register_source_transform(lambda text, path: text.replace("RENAMED", "renamed_custom"))
    source = tmp_path / "t.cpp"
    source.write_text('extern "C" __global__ __aicore__ void RENAMED(GM_ADDR x) {}\n')
    generated = _codegen.generate([str(source)], str(tmp_path / "gen"))
    assert [k.name for k in generated.kernels] == ["renamed_custom"]
    wrapper = open(generated.wrappers[0]).read()
    assert "renamed_custom" in wrapper and str(tmp_path / "gen") in wrapper


def test_transformed_source_still_finds_its_local_headers(tmp_path, monkeypatch):
    monkeypatch.setattr(_codegen, "_transforms", [])
    _codegen.register_source_transform(lambda text, path: text.replace("KERNEL_NAME", "twice_k"))
    (tmp_path / "factor.h").write_text("constexpr float FACTOR = 2.0f;\n")
    (tmp_path / "twice.cpp").write_text(textwrap.dedent(r'''
        #include "kernel_operator.h"
        #include "factor.h"
        extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR x)
        {
            AscendC::TPipe pipe;
            AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
            AscendC::GlobalTensor<float> xGm;
            xGm.SetGlobalBuffer((__gm__ float *)x, 8);
            pipe.InitBuffer(buf, 8 * sizeof(float));
            AscendC::LocalTensor<float> local = buf.Get<float>();
            AscendC::DataCopy(local, xGm, 8);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::Muls(local, local, FACTOR, 8);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(xGm, local, 8);
        }
        '''))
    mod = ascsim.load(str(tmp_path / "twice.cpp"), build_dir=str(tmp_path / "cache"))
    x = np.arange(8, dtype=np.float32)
    mod.twice_k(x, block_dim=1)
    assert x.tolist() == [2.0 * i for i in range(8)]
