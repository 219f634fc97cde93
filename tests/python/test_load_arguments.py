"""Python arguments of loaded kernels that would corrupt memory or arrive wrong
(bindings/kernel_module_bindings.cpp): read-only and object arrays given as GM memory, dtypes of
GM_ADDR and typed pointers, scalars out of their C++ type's range."""
import mmap

import numpy as np
import pytest

import ascsim

SOURCE = r'''
#include "kernel_operator.h"

// y[i] = 2 * x[i]: x is only read (const), y written.
extern "C" __global__ __aicore__ void twice_custom(const __gm__ float* x, GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    for (uint32_t i = 0; i < n; ++i) {
        yGm.SetValue(i, xGm.GetValue(i) * 2);
    }
}

// Writes through every GM pointer it gets (none is const).
extern "C" __global__ __aicore__ void fill_custom(GM_ADDR z, uint32_t n)
{
    AscendC::GlobalTensor<uint8_t> zGm;
    zGm.SetGlobalBuffer((__gm__ uint8_t *)z, n);
    for (uint32_t i = 0; i < n; ++i) {
        zGm.SetValue(i, 0x5A);
    }
}

extern "C" __global__ __aicore__ void typed_custom(__gm__ float* x, __gm__ half* h, uint32_t n)
{
}

// out[0] = the scalars as the kernel sees them.
extern "C" __global__ __aicore__ void scalar_custom(__gm__ float* out, bfloat16_t b, float f)
{
    AscendC::GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(out, 2);
    outGm.SetValue(0, AscendC::ToFloat(b));
    outGm.SetValue(1, f);
}
'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    work = tmp_path_factory.mktemp("load_arguments")
    (work / "args_custom.cpp").write_text(SOURCE)
    return ascsim.load(str(work / "args_custom.cpp"), build_dir=str(work / "cache"))


def read_only(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


# ---- item 11: read-only memory where the kernel may write ----

@pytest.mark.parametrize("make", [
    lambda: read_only(np.zeros(64, np.uint8)),
    lambda: np.frombuffer(bytes(64), np.uint8),
], ids=["flag", "frombuffer-bytes"])
def test_read_only_array_for_a_gm_pointer_that_is_not_const_is_refused(mod, make):
    z = make()
    before = z.tobytes()
    with pytest.raises(ascsim.InvalidArgumentError,
                       match=r"fill_custom: argument 'z' \(GM_ADDR\): the array is read-only"):
        mod.fill_custom(z, 64, block_dim=1)
    assert z.tobytes() == before


def test_read_only_mmap_is_refused_without_a_crash(mod, tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(4096))
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        z = np.frombuffer(m, np.uint8)
        with pytest.raises(ascsim.InvalidArgumentError, match="read-only"):
            mod.fill_custom(z, 4096, block_dim=1)
        del z
    assert path.read_bytes() == bytes(4096)


def test_read_only_array_for_a_const_gm_pointer_is_read(mod):
    x = read_only(np.arange(16, dtype=np.float32))
    y = np.zeros(16, np.float32)
    mod.twice_custom(x, y, 16, block_dim=1)
    np.testing.assert_array_equal(y, 2 * np.arange(16, dtype=np.float32))
    assert x.tolist() == list(range(16))
    raw = bytes(np.arange(8, dtype=np.float32).tobytes())
    y8 = np.zeros(8, np.float32)
    mod.twice_custom(np.frombuffer(raw, np.float32), y8, 8, block_dim=1)
    assert y8.tolist() == [2.0 * i for i in range(8)]
    # ... but not for the written one.
    with pytest.raises(ascsim.InvalidArgumentError, match=r"argument 'y' \(GM_ADDR\).*read-only"):
        mod.twice_custom(np.zeros(16, np.float32), read_only(np.zeros(16, np.float32)), 16,
                         block_dim=1)


# ---- item 12: object arrays ----

@pytest.mark.parametrize("make", [
    lambda: np.array([object()] * 8, dtype=object),
    lambda: np.zeros(4, dtype=[("a", np.float32), ("o", object)]),
], ids=["object", "struct-with-object"])
def test_arrays_holding_python_objects_are_refused(mod, make):
    z = make()
    with pytest.raises(ascsim.InvalidArgumentError,
                       match=r"'z' \(GM_ADDR\): dtype .* holds Python objects"):
        mod.fill_custom(z, z.nbytes, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match="holds Python objects"):
        mod.twice_custom(make(), np.zeros(8, np.float32), 0, block_dim=1)


# ---- item 6: dtypes ----

def test_typed_pointers_check_the_dtype(mod):
    with pytest.raises(ascsim.InvalidArgumentError,
                       match=r"'x' \(__gm__ float\*\): dtype float64 does not match.*float32"):
        mod.typed_custom(np.zeros(4), np.zeros(4, np.float16), 4, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match=r"'h' \(__gm__ half\*\): dtype float32"):
        mod.typed_custom(np.zeros(4, np.float32), np.zeros(4, np.float32), 4, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match=r"'x' .*dtype float64"):
        mod.twice_custom(np.zeros(4), np.zeros(4, np.float32), 4, block_dim=1)


def test_gm_addr_says_it_takes_the_bytes_of_any_dtype(mod):
    # GM_ADDR is CANN's `__gm__ uint8_t*`: the kernel decides what the bytes are, so any dtype is
    # accepted (as on the device), and the kernel's description says so.
    doc = mod.fill_custom.__doc__
    assert "z: GM_ADDR (GM bytes: any dtype, not checked" in doc
    assert "x: const __gm__ float* (GM float32, read only" in mod.twice_custom.__doc__
    assert "y: GM_ADDR (GM bytes: any dtype, not checked" in mod.twice_custom.__doc__
    z = np.zeros(4, np.float64)
    mod.fill_custom(z, 32, block_dim=1)
    assert z.tobytes() == bytes([0x5A]) * 32


# ---- item 7: scalars out of their type's range ----

@pytest.mark.parametrize("value", [3.3999e38, -3.3999e38, 3.4e38, 1e39])
def test_bfloat16_scalars_that_would_round_to_inf_are_refused(mod, value):
    out = np.zeros(2, np.float32)
    with pytest.raises(ascsim.InvalidArgumentError,
                       match=r"'b' \(bfloat16_t\): .* is out of range \(largest finite bfloat16 "
                             r"magnitude is 3.3895313892515355e\+38\)"):
        mod.scalar_custom(out, value, 0.0, block_dim=1)


def test_bfloat16_largest_finite_arrives(mod):
    out = np.zeros(2, np.float32)
    mod.scalar_custom(out, 3.3895313892515355e38, 1.5, block_dim=1)
    assert out[0] == np.float32(3.3895313892515355e38) and out[1] == 1.5
    mod.scalar_custom(out, -1.0, float("inf"), block_dim=1)  # inf itself is a value
    assert out[0] == -1.0 and np.isinf(out[1])


@pytest.mark.parametrize("value", [10**400, -(10**400)], ids=["10**400", "-10**400"])
def test_huge_python_ints_for_float_parameters_name_the_parameter(mod, value):
    out = np.zeros(2, np.float32)
    with pytest.raises(ascsim.InvalidArgumentError, match=r"scalar_custom: argument 'f' \(float\): "
                                                          r".* is out of range"):
        mod.scalar_custom(out, 0.0, value, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match=r"argument 'b' \(bfloat16_t\)"):
        mod.scalar_custom(out, value, 0.0, block_dim=1)
