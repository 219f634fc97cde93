#!/usr/bin/python3
"""The "your own kernel from Python" scenario, end to end, as a new user runs it.

    python load_scenario.py WORKDIR

Writes a kernel the project has never seen (official Ascend C style, with GM, scalar and struct
parameters) into WORKDIR, loads it with ascsim.load, and checks: bit-exact against NumPy, runs on
an add_custom.Stream, appears in ascsim.profile(), obeys add_custom.set_soc (its UB error names
the chosen SoC), raises add_custom.KernelError, a struct of the wrong size raises ValueError, a
second load does not recompile; plus the packages' faces (inspect.signature of
add_custom.run_add_custom, __version__, shared objects). Standard library + NumPy only, so it
runs in a pip-installed venv from any directory (tests/python/test_pip_install.py) as well as
from the build tree (tests/python/test_load.py). Prints one line per check.
"""
import inspect
import os
import sys
import time
import warnings

import numpy as np

KERNEL = r'''
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;  // tensor num for each queue

struct AxpyTilingData {
    uint32_t blockLength;  // elements per core
    uint32_t tileLength;   // elements per tile
};

class KernelAxpy {
public:
    __aicore__ inline KernelAxpy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, const AxpyTilingData &tiling)
    {
        this->alpha = alpha;
        this->blockLength = tiling.blockLength;
        this->tileLength = tiling.tileLength;
        uint32_t offset = this->blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t loopCount = this->blockLength / this->tileLength;
        for (uint32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        AscendC::DataCopy(yLocal, yGm[progress * this->tileLength], this->tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        AscendC::Muls(xLocal, xLocal, this->alpha, this->tileLength);
        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);
        outQueueZ.EnQue<float>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    float alpha;
    uint32_t blockLength;
    uint32_t tileLength;
};

// z = alpha * x + y
extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, AxpyTilingData tiling)
{
    KernelAxpy op;
    op.Init(x, y, z, alpha, tiling);
    op.Process();
}
'''

TILING = np.dtype([("blockLength", "<u4"), ("tileLength", "<u4")])


def tiling(block_length, tile_length):
    return np.array([(block_length, tile_length)], dtype=TILING)[0]


def check(label, condition, detail=""):
    if not condition:
        raise AssertionError(f"{label}: {detail}")
    print(f"ok  {label}")


def expect(label, exc_type, fn, match):
    try:
        fn()
    except exc_type as e:
        check(label, match in str(e), f"message {str(e)!r} lacks {match!r}")
        return e
    raise AssertionError(f"{label}: no {exc_type.__name__} raised")


def run(workdir):
    import add_custom
    import ascsim

    source = os.path.join(workdir, "axpy_custom.cpp")
    with open(source, "w", encoding="utf-8") as f:
        f.write(KERNEL)
    build_dir = os.path.join(workdir, "build")

    start = time.perf_counter()
    mod = ascsim.load(source, build_dir=build_dir)
    first = time.perf_counter() - start
    check("load compiles the kernel into a module", callable(mod.axpy_custom), repr(mod))
    print(f"    first load {first:.1f} s")

    blocks, tile = 8, 256
    n = blocks * 4 * tile
    rng = np.random.default_rng(7)
    x = rng.uniform(-4, 4, n).astype(np.float32)
    y = rng.uniform(-4, 4, n).astype(np.float32)
    alpha = 0.7
    z = np.zeros_like(x)
    mod.axpy_custom(x, y, z, alpha, tiling(n // blocks, tile), block_dim=blocks)
    expected = x * np.float32(alpha) + y  # Muls then Add, each rounded to float32
    check("bit-exact against NumPy", np.array_equal(z.view(np.uint32), expected.view(np.uint32)))

    # Bytes work as the struct too.
    z2 = np.zeros_like(x)
    mod.axpy_custom(x, y, z2, alpha, tiling(n // blocks, tile).tobytes(), block_dim=blocks)
    check("struct as bytes", np.array_equal(z2, expected))

    # On a stream: returns at once; the arrays stay alive until the launch has run.
    stream = add_custom.Stream()
    xs, ys, zs = x.copy(), y.copy(), np.zeros_like(x)
    mod.axpy_custom(xs, ys, zs, alpha, tiling(n // blocks, tile), block_dim=blocks, stream=stream)
    del xs, ys
    stream.synchronize()
    check("runs on an add_custom.Stream", np.array_equal(zs, expected))

    with ascsim.profile() as prof:
        mod.axpy_custom(x, y, z, alpha, tiling(n // blocks, tile), block_dim=blocks)
        add_custom.run_add_custom(x, y)
    kernels = [s["kernel"] for s in prof.summary()]
    check("appears in ascsim.profile() beside add_custom", kernels == ["axpy_custom", "add_custom"],
          str(kernels))

    # One settings table: add_custom.set_soc applies to the loaded kernel. A tile of 64 KiB per
    # buffer (3 queues x 2 buffers = 384 KiB) overflows the Unified Buffer.
    previous = ascsim.get_soc()["name"]
    add_custom.set_soc("Ascend310P3")
    try:
        with warnings.catch_warnings():
            # Compiled for Ascend910B1's __NPU_ARCH__ (2201), launched on 2002: warned, known.
            warnings.filterwarnings("ignore", "axpy_custom: compiled for",
                                    ascsim.SimulatorWarning)
            big = np.zeros(8 * 16384, np.float32)
            error = expect("UB error names the SoC chosen with add_custom.set_soc",
                           add_custom.KernelError,
                           lambda: mod.axpy_custom(big, big, big, 1.0, tiling(big.size, 16384),
                                                   block_dim=1),
                           "Ascend310P3")
        check("it is add_custom.KernelError, kind UB overflow",
              isinstance(error, ascsim.KernelError) and error.kind == "UB overflow", error.kind)
    finally:
        add_custom.set_soc(previous)

    # A fault inside the kernel: reading past x (tiling says more than the arrays hold).
    expect("out-of-bounds read raises add_custom.KernelError", add_custom.KernelError,
           lambda: mod.axpy_custom(x, y, z, alpha, tiling(n, tile), block_dim=blocks),
           "axpy_custom: block")

    err = expect("a struct of the wrong size raises ValueError naming the parameter", ValueError,
                 lambda: mod.axpy_custom(x, y, z, alpha, b"\0" * 12, block_dim=blocks),
                 "'tiling'")
    check("... an ascsim.InvalidArgumentError", isinstance(err, ascsim.InvalidArgumentError))
    expect("a wrong argument count names the parameters", ValueError,
           lambda: mod.axpy_custom(x, y, z, alpha, block_dim=blocks), "(x, y, z, alpha, tiling)")

    # Not a timing: the same module comes back and its library file was not rewritten (a time
    # bound failed under ASan on a loaded machine, where the first build hit ccache).
    stamp = os.stat(mod.__file__).st_mtime_ns
    start = time.perf_counter()
    again = ascsim.load(source, build_dir=build_dir)
    check("a second load does not recompile",
          again is mod and os.stat(mod.__file__).st_mtime_ns == stamp,
          f"{time.perf_counter() - start:.2f} s, same module: {again is mod}")

    params = list(inspect.signature(add_custom.run_add_custom).parameters)
    check("inspect.signature(add_custom.run_add_custom)",
          params == ["x", "y", "block_dim", "stream"], str(params))
    check("both packages have __version__",
          isinstance(ascsim.__version__, str) and ascsim.__version__ == add_custom.__version__
          and ascsim.__version__.count(".") == 2, ascsim.__version__)
    check("add_custom.KernelError is ascsim.KernelError",
          add_custom.KernelError is ascsim.KernelError and add_custom.Stream is ascsim.Stream
          and add_custom.profile is ascsim.profile and add_custom.set_soc is ascsim.set_soc)
    return mod


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run(sys.argv[1])
    print("scenario passed")
