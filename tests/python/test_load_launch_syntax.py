"""ascsim.load() on sources in the official kernel-launch style: a kernel file ending with a
`<<<>>>` host wrapper (`scale_custom_do`), rewritten by the toolkit's ascsim-launch-transform
before g++ sees it (python/ascsim/_loader.py, _launch_syntax)."""
import numpy as np
import pytest

import ascsim

KERNEL = r'''
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 256;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, float factor)
    {
        blockLength = totalLength / AscendC::GetBlockNum();
        this->factor = factor;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / TILE; i++) {
            AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE], TILE);
            inQueueX.EnQue(xLocal);
            AscendC::LocalTensor<float> in = inQueueX.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
            AscendC::Muls(yLocal, in, factor, TILE);
            outQueueY.EnQue(yLocal);
            inQueueX.FreeTensor(in);
            AscendC::LocalTensor<float> out = outQueueY.DeQue<float>();
            AscendC::DataCopy(yGm[i * TILE], out, TILE);
            outQueueY.FreeTensor(out);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t blockLength;
    float factor;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength, float factor)
{
    KernelScale op;
    op.Init(x, y, totalLength, factor);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void scale_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t totalLength,
                     float factor)
{
    scale_custom<<<blockDim, nullptr, stream>>>(x, y, totalLength, factor);
}
#endif
'''


def test_a_kernel_file_with_a_launch_wrapper_loads_and_runs(tmp_path):
    path = tmp_path / "scale_custom.cpp"
    path.write_text(KERNEL)
    mod = ascsim.load(str(path), build_dir=str(tmp_path / "cache"))
    assert mod.__all__ == ["scale_custom"]  # the wrapper is host code, not a kernel
    x = np.random.default_rng(0).uniform(-4, 4, 8 * 1024).astype(np.float32)
    y = np.zeros_like(x)
    mod.scale_custom(x, y, x.size, 1.5, block_dim=8)
    np.testing.assert_array_equal(y, (x.astype(np.float64) * 1.5).astype(np.float32))


def test_errors_in_a_rewritten_file_name_the_original_line(tmp_path):
    path = tmp_path / "broken_custom.cpp"
    # Line 5 of the user's file holds the mistake, after the <<<>>> wrapper.
    path.write_text('#include "kernel_operator.h"\n'
                    'extern "C" __global__ __aicore__ void broken_custom(GM_ADDR x) {}\n'
                    'void broken_custom_do(uint32_t blockDim, void *stream, uint8_t *x)\n'
                    '{ broken_custom<<<blockDim, nullptr, stream>>>(x); }\n'
                    'int oops = undeclared_name;\n')
    with pytest.raises(ascsim.BuildError) as info:
        ascsim.load(str(path), build_dir=str(tmp_path / "cache"))
    assert f"{path}:5" in str(info.value) + info.value.output


def test_a_malformed_launch_is_a_build_error_naming_the_file(tmp_path):
    path = tmp_path / "bad_launch.cpp"
    path.write_text('#include "kernel_operator.h"\n'
                    'extern "C" __global__ __aicore__ void bad_custom(GM_ADDR x) {}\n'
                    'void bad_do(void *stream, uint8_t *x) { bad_custom<<<1, nullptr, stream(x); }\n')
    with pytest.raises(ascsim.BuildError, match="bad_launch.cpp"):
        ascsim.load(str(path), build_dir=str(tmp_path / "cache"))
