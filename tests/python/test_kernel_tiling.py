"""The kernel side of the custom-operator format from Python: one kernel source built once per
dtype combination with the defines a custom-operator build passes (-DDTYPE_X=<type>
-DORIG_DTYPE_X=DT_<TYPE> -DFORMAT_X=FORMAT_ND), reading its tiling with GET_TILING_DATA from a
plain C++ struct registered with REGISTER_TILING_DEFAULT; checked against NumPy in float64."""
import textwrap

import numpy as np
import pytest

import ascsim

KERNEL = textwrap.dedent(r'''
    #include "kernel_operator.h"

    struct AxpbTilingData {
        uint32_t totalLength;
        uint32_t blockLength;
        float alpha;
    };

    // y = alpha * x + beta, where beta tells which dtype branch the build selected.
    extern "C" __global__ __aicore__ void axpb_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
    {
        REGISTER_TILING_DEFAULT(AxpbTilingData);
        GET_TILING_DATA(tilingData, tiling);
    #if ORIG_DTYPE_X == DT_FLOAT16
        const float beta = 1.0f;
    #elif ORIG_DTYPE_X == DT_FLOAT
        const float beta = 2.0f;
    #else
        const float beta = -100.0f;
    #endif
    #if FORMAT_X != FORMAT_ND
        return;
    #endif
        AscendC::GlobalTensor<DTYPE_X> xGm;
        AscendC::GlobalTensor<DTYPE_Y> yGm;
        const uint32_t begin = tilingData.blockLength * AscendC::GetBlockIdx();
        uint32_t end = begin + tilingData.blockLength;
        if (end > tilingData.totalLength) end = tilingData.totalLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x, tilingData.totalLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y, tilingData.totalLength);
        for (uint32_t i = begin; i < end; ++i) {
            const float v = static_cast<float>(xGm.GetValue(i));
            yGm.SetValue(i, static_cast<DTYPE_Y>(tilingData.alpha * v + beta));
        }
    }
''')

VARIANTS = {
    np.float16: ("half", "DT_FLOAT16", 1.0),
    np.float32: ("float", "DT_FLOAT", 2.0),
}


def _variant(tmp_path, dtype):
    ctype, orig, _ = VARIANTS[dtype]
    source = tmp_path / "axpb_custom.cpp"
    source.write_text(KERNEL)
    flags = [f"-DDTYPE_X={ctype}", f"-DDTYPE_Y={ctype}", f"-DORIG_DTYPE_X={orig}",
             f"-DORIG_DTYPE_Y={orig}", "-DFORMAT_X=FORMAT_ND", "-DFORMAT_Y=FORMAT_ND"]
    return ascsim.load(str(source), build_dir=str(tmp_path / "cache"), extra_cflags=flags)


def _tiling(total, blocks, alpha):
    block_length = -(-total // blocks)
    return np.frombuffer(np.array([(total, block_length, alpha)],
                                  dtype=[("t", "<u4"), ("b", "<u4"), ("a", "<f4")]).tobytes(),
                         dtype=np.uint8).copy()


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("total,blocks", [(1, 1), (37, 4), (1000, 7)])
def test_dtype_variant_reads_its_tiling(tmp_path, rng, dtype, total, blocks):
    mod = _variant(tmp_path, dtype)
    x = rng.uniform(-4, 4, total).astype(dtype)
    y = np.zeros(total, dtype)
    alpha = 0.75
    mod.axpb_custom(x, y, None, _tiling(total, blocks, alpha), block_dim=blocks)
    beta = VARIANTS[dtype][2]
    # The kernel computes in float and rounds once to the output type.
    expected = (np.float32(alpha) * x.astype(np.float32) + np.float32(beta)).astype(dtype)
    np.testing.assert_array_equal(y, expected)
    reference = alpha * x.astype(np.float64) + beta
    tol = 2e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(y.astype(np.float64), reference, rtol=tol, atol=tol)


def test_short_tiling_buffer_faults_naming_the_macro(tmp_path):
    mod = _variant(tmp_path, np.float32)
    x = np.ones(8, np.float32)
    y = np.zeros(8, np.float32)
    with pytest.raises(ascsim.KernelError, match=r"GET_TILING_DATA: the default tiling struct "
                       r"needs 12 B of tiling data but the tiling buffer at 0x[0-9a-f]+ holds 8 B"):
        mod.axpb_custom(x, y, None, _tiling(8, 1, 1.0)[:8].copy(), block_dim=1)
    # The module stays usable.
    mod.axpb_custom(x, y, None, _tiling(8, 1, 1.0), block_dim=1)
    assert (y == 3).all()
