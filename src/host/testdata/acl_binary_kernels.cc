// The kernels of the binary acl_binary_test.cpp loads: built like ascendc_fatbin_library builds
// one (ascsim-launch-transform --fatbin-entries, then a shared object named *.o); tests/CMakeLists.txt.
#include "kernel_operator.h"

struct AxpbTiling {
  uint32_t totalLength;
  float a;
  float b;
};

// y[i] = a * x[i] + b over totalLength floats split evenly across the blocks.
extern "C" __global__ __aicore__ void axpb_custom(GM_ADDR x, GM_ADDR y, AxpbTiling tiling) {
  const uint32_t blockLength = tiling.totalLength / AscendC::GetBlockNum();
  AscendC::GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
  yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, blockLength * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::DataCopy(t, xGm, blockLength);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Muls(t, t, tiling.a, blockLength);
  AscendC::Adds(t, t, tiling.b, blockLength);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(yGm, t, blockLength);
}

// out[block] = value + block (int32): a scalar parameter, one element per block.
extern "C" __global__ __aicore__ void fill_index(GM_ADDR out, int32_t value) {
  AscendC::GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out, AscendC::GetBlockNum());
  outGm.SetValue(AscendC::GetBlockIdx(), value + static_cast<int32_t>(AscendC::GetBlockIdx()));
}

// A template kernel: a binary holds entries only for what is instantiated, so none here.
template <int N>
__global__ __aicore__ void templated_kernel(GM_ADDR out) {
  (void)out;
}
