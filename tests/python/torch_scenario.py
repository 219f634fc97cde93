#!/usr/bin/env python3
"""What the seeds do with PyTorch, on a kernel pair the project has never seen, as a new user
would write it:

    python torch_scenario.py WORKDIR

Writes a forward and a backward Ascend C kernel (a leaky ReLU, float32) into WORKDIR, loads them
with ascsim.load, and
1. registers the forward with torch.library (ascsim.torch.register, a schema, an output
   allocation) and calls it through torch.ops, checked with torch.library.opcheck;
2. pairs forward and backward in a torch.autograd.Function and as the operator's autograd
   (ascsim.torch.register_autograd), both checked with torch.autograd.gradcheck;
3. compiles a model that calls the operator with torch.compile(fullgraph=True) (aot_eager and
   inductor) and compares it with eager, forward and backward.
Needs only torch and the installed packages, so it runs in a pip-installed venv from any folder
(tests/python/test_torch_pip_install.py) and from the build tree (test_torch_register.py).
Prints one line per check and "torch scenario passed".
"""
import os
import sys
import warnings

KERNELS = r'''
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 1024;

// y = x > 0 ? x : slope * x        (forward)
// dx = x > 0 ? dy : slope * dy     (backward), as dy * (relu'(x) + slope * (1 - relu'(x)))
template <bool BACKWARD>
class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR y, float slope, uint32_t totalLength)
    {
        uint32_t per = (totalLength + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
        per = (per + 7) / 8 * 8;
        uint32_t start = per * AscendC::GetBlockIdx();
        start = start < totalLength ? start : totalLength;
        this->length = totalLength - start < per ? totalLength - start : per;
        this->slope = slope;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, this->length);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, this->length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE * sizeof(float));
        if constexpr (BACKWARD) {
            dyGm.SetGlobalBuffer((__gm__ float *)dy + start, this->length);
            pipe.InitBuffer(inQueueDY, BUFFER_NUM, TILE * sizeof(float));
            pipe.InitBuffer(maskBuf, TILE * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < this->length; offset += TILE) {
            uint32_t n = this->length - offset < TILE ? this->length - offset : TILE;
            CopyIn(offset, n);
            Compute(n);
            CopyOut(offset, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n)
    {
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueueX.EnQue(xLocal);
        if constexpr (BACKWARD) {
            AscendC::LocalTensor<float> dyLocal = inQueueDY.AllocTensor<float>();
            AscendC::DataCopyPad(dyLocal, dyGm[offset], params, pad);
            inQueueDY.EnQue(dyLocal);
        }
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        if constexpr (BACKWARD) {
            // relu'(x) as 0/1: min(max(x * 2^100, 0), 1) is 1 for x > 2^-100 and 0 for x <= 0
            AscendC::LocalTensor<float> dyLocal = inQueueDY.DeQue<float>();
            AscendC::LocalTensor<float> mask = maskBuf.Get<float>();
            AscendC::Muls(mask, xLocal, 1.2676506e30f, n);
            AscendC::Maxs(mask, mask, 0.0f, n);
            AscendC::Mins(mask, mask, 1.0f, n);
            AscendC::Muls(mask, mask, 1.0f - this->slope, n);
            AscendC::Adds(mask, mask, this->slope, n);
            AscendC::Mul(yLocal, mask, dyLocal, n);
            inQueueDY.FreeTensor(dyLocal);
        } else {
            AscendC::LeakyRelu(yLocal, xLocal, this->slope, n);
        }
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueDY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
    AscendC::GlobalTensor<float> xGm, yGm, dyGm;
    uint32_t length;
    float slope;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, float slope, uint32_t totalLength)
{
    KernelLeakyRelu<false> op;
    op.Init(nullptr, x, y, slope, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void leaky_relu_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, float slope,
                                                             uint32_t totalLength)
{
    KernelLeakyRelu<true> op;
    op.Init(dy, x, dx, slope, totalLength);
    op.Process();
}
'''


def check(label, ok):
    print(f"{label}: {'ok' if ok else 'FAILED'}", flush=True)
    if not ok:
        raise SystemExit(f"torch scenario failed at: {label}")


def run(workdir):
    import torch
    import torch.nn.functional as F

    import ascsim
    import ascsim.torch

    warnings.filterwarnings("ignore", "Input #0 requires gradient", UserWarning)
    path = os.path.join(workdir, "leaky_relu_pair.cpp")
    with open(path, "w") as f:
        f.write(KERNELS)
    mod = ascsim.load(path, build_dir=os.path.join(workdir, "cache"))

    # 1. torch.library registration, called through torch.ops
    leaky = ascsim.torch.register(
        "scenario::leaky_relu(Tensor x, float slope=0.01) -> Tensor", mod.leaky_relu_custom,
        outputs=lambda x, slope: torch.empty(x.shape, dtype=x.dtype),
        launch_args=lambda x, slope, y: (x, y, slope, x.numel()), block_dim=8)
    x = torch.randn(8, 2048)
    y = torch.ops.scenario.leaky_relu(x, 0.1)
    check("torch.ops.scenario.leaky_relu == F.leaky_relu",
          torch.equal(y, F.leaky_relu(x, 0.1)))
    check("torch.library.opcheck",
          set(torch.library.opcheck(leaky, (torch.randn(3, 33), 0.2)).values()) == {"SUCCESS"})

    # 2. a forward/backward kernel pair: as an autograd.Function, and as the operator's autograd
    class LeakyReluFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, slope):
            ctx.save_for_backward(x)
            ctx.slope = slope
            y = torch.empty_like(x)
            mod.leaky_relu_custom(x, y, slope, x.numel(), block_dim=4)
            return y

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensors
            dx = torch.empty_like(x)
            mod.leaky_relu_grad_custom(dy.contiguous(), x, dx, ctx.slope, x.numel(), block_dim=4)
            return dx, None

    torch.manual_seed(0)
    xs = torch.randn(64)
    xs = (xs.sign() * (xs.abs() + 0.01)).requires_grad_()  # away from the kink at 0
    check("gradcheck of the autograd.Function (float32 kernels)",
          torch.autograd.gradcheck(lambda t: LeakyReluFunction.apply(t, 0.1), (xs,),
                                   eps=1e-3, atol=1e-3, rtol=1e-3))
    ascsim.torch.register_autograd(
        leaky, backward=mod.leaky_relu_grad_custom,
        launch_args=lambda dy, x, slope, dx: (dy, x, dx, slope, x.numel()))
    check("gradcheck of torch.ops.scenario.leaky_relu",
          torch.autograd.gradcheck(lambda t: leaky(t, 0.1), (xs,), eps=1e-3, atol=1e-3,
                                   rtol=1e-3))
    xd = xs.detach().double().requires_grad_()
    F.leaky_relu(xd, 0.1).backward(torch.ones_like(xd))
    xs.grad = None
    leaky(xs, 0.1).backward(torch.ones_like(xs))
    check("gradient == PyTorch's leaky_relu gradient", torch.equal(xs.grad, xd.grad.float()))

    # 3. a model calling the operator, compiled with fullgraph=True
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(64, 64)

        def forward(self, t):
            return torch.ops.scenario.leaky_relu(self.lin(t), 0.2).sum(-1)

    model = Model()
    inp = torch.randn(16, 64, requires_grad=True)
    eager = model(inp)
    eager.sum().backward()
    want = inp.grad.clone()
    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        inp.grad = None
        out = torch.compile(model, fullgraph=True, backend=backend)(inp)
        out.sum().backward()
        check(f"torch.compile(fullgraph=True, backend={backend!r}) == eager, forward and backward",
              torch.allclose(out, eager, rtol=1e-5, atol=1e-5)
              and torch.allclose(inp.grad, want, rtol=1e-5, atol=1e-5))
    with ascsim.profile() as prof:
        model(inp)
    check("the operator's launch is profiled",
          [s["kernel"] for s in prof.summary()] == ["leaky_relu_custom"])
    print("torch scenario passed")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    run(sys.argv[1])
