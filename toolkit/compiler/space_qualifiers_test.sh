#!/bin/bash
# ascsim-cc (ccec) in npu mode on a kernel in the 2023 CCE samples' style: its tiling header
# defines __aicore__ as bisheng's [aicore] when __CCE_KT_TEST__ is not defined and reads the tiling
# through get_imm(0) / copy_gm_to_ubuf / pipe_barrier and a __ubuf__ pointer. It must compile as
# one `ccec -x cce kernel.cpp -x c++ main.cpp -o prog` command and give the right result; an error
# in such a file must still name the user's file and line; -MD/-MF must list the tiling header.
#   space_qualifiers_test.sh PREFIX     (an installed toolkit)
set -u
prefix="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cat > "${work}/scale_tiling.h" <<'SRC'
#ifndef SCALE_TILING_H
#define SCALE_TILING_H
#ifdef __CCE_KT_TEST__
#define __aicore__
#else
#define __aicore__ [aicore]
#endif
inline __aicore__ int32_t AlignDiv32(int32_t n) { return ((n + 31) & ~31) / 32; }
struct ScaleTilingData {
    uint32_t blockLength;
    uint32_t scale;
    uint32_t offset;
};
#define GET_SCALE_TILING(t, tilingPointer)                                                   \
    __ubuf__ uint8_t* tilingUb = (__ubuf__ uint8_t*)get_imm(0);                              \
    copy_gm_to_ubuf(((__ubuf__ uint8_t*)(tilingUb)), ((__gm__ uint8_t*)(tilingPointer)), 0, 1, \
        AlignDiv32(sizeof(ScaleTilingData)), 0, 0);                                          \
    __ubuf__ ScaleTilingData* t = reinterpret_cast<__ubuf__ ScaleTilingData*>(tilingUb);     \
    pipe_barrier(PIPE_ALL);
#endif
SRC
cat > "${work}/scale_custom.cpp" <<'SRC'
#include "kernel_operator.h"
#include "scale_tiling.h"
using namespace tik2;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t len, int32_t scale, int32_t offset)
    {
        len_ = len;
        scale_ = scale;
        offset_ = offset;
        xGm.SetGlobalBuffer((__gm__ int32_t*)ParamOffset<int32_t>(x, len), len);
        zGm.SetGlobalBuffer((__gm__ int32_t*)ParamOffset<int32_t>(z, len), len);
        pipe.InitBuffer(buf, len * sizeof(int32_t));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<int32_t> v = buf.Get<int32_t>();
        DataCopy(v, xGm, len_);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        Muls(v, v, scale_, len_);
        Adds(v, v, offset_, len_);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        DataCopy(zGm, v, len_);
    }
private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    GlobalTensor<int32_t> xGm, zGm;
    uint32_t len_ = 0;
    int32_t scale_ = 0, offset_ = 0;
};

extern "C" __global__ __aicore__ void scale_custom(__gm__ uint8_t* x, __gm__ uint8_t* z, __gm__ uint8_t* tiling)
{
    GET_SCALE_TILING(t, tiling);
    auto pick = [t](uint32_t i) { return i == 0 ? t->scale : t->offset; };  // a lambda stays one
    uint32_t fields[2] = {0, 1};
    KernelScale op;
    op.Init(x, z, t->blockLength, static_cast<int32_t>(pick(fields[0])), static_cast<int32_t>(pick(fields[1])));
    op.Process();
}

void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* z, uint8_t* tiling)
{
    scale_custom<<<blockDim, l2ctrl, stream>>>(x, z, tiling);
}
SRC
cat > "${work}/main.cpp" <<'SRC'
#include <cstdio>
#include <cstdint>
#include "acl/acl.h"
extern void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* z, uint8_t* tiling);

int main()
{
    const uint32_t blockDim = 3, len = 24;
    const uint32_t n = blockDim * len;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    int32_t x[n], z[n];
    for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<int32_t>(i) - 30;
    const uint32_t tiling[3] = {len, 3, 7};
    uint8_t *xd, *zd, *td;
    aclrtMalloc((void**)&xd, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&zd, sizeof z, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&td, sizeof tiling, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xd, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(td, sizeof tiling, tiling, sizeof tiling, ACL_MEMCPY_HOST_TO_DEVICE);
    scale_custom_do(blockDim, nullptr, stream, xd, zd, td);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::printf("launch failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    aclrtMemcpy(z, sizeof z, zd, sizeof z, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += z[i] != x[i] * 3 + 7;
    std::printf("%s\n", bad == 0 ? "scale ok" : "scale wrong");
    aclrtFree(xd);
    aclrtFree(zd);
    aclrtFree(td);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
SRC
cc="${prefix}/compiler/ccec_compiler/bin/ccec"
failures=0
(cd "${work}" && "${cc}" -x cce scale_custom.cpp -x c++ main.cpp --cce-aicore-arch=dav-m200 \
  -mllvm -cce-aicore-function-stack-size=16000 -O2 -std=c++17 -lruntime -lascendcl -lstdc++ \
  -o scale_custom_npu) 2> "${work}/build.log" ||
  { echo "FAIL: ccec did not build the [aicore] kernel:"; cat "${work}/build.log"; failures=$((failures + 1)); }
if [ -x "${work}/scale_custom_npu" ]; then
  out="$("${work}/scale_custom_npu" 2>&1)" || { echo "FAIL: the program failed: ${out}"; failures=$((failures + 1)); }
  case "${out}" in *"scale ok"*) ;; *) echo "FAIL: unexpected output: ${out}"; failures=$((failures + 1)) ;; esac
fi
# Dependencies of an object compiled from the blanked text: the object and the tiling header.
(cd "${work}" && "${cc}" -c -x cce scale_custom.cpp --cce-aicore-arch=dav-m200 -std=c++17 -MD \
  -MF scale.d -o scale.o) 2> "${work}/deps.log" ||
  { echo "FAIL: ccec -c -MD:"; cat "${work}/deps.log"; failures=$((failures + 1)); }
if ! grep -q "^scale.o:" "${work}/scale.d" 2>/dev/null || ! grep -q "scale_tiling.h" "${work}/scale.d"; then
  echo "FAIL: scale.d does not name scale.o and scale_tiling.h"; failures=$((failures + 1))
fi
# An error in a file with [aicore] names the user's file and line.
sed 's/op.Process();/op.Process(); undeclared_name = 1;/' "${work}/scale_custom.cpp" > "${work}/broken.cpp"
line="$(grep -n undeclared_name "${work}/broken.cpp" | cut -d: -f1)"
if (cd "${work}" && "${cc}" -c -x cce broken.cpp --cce-aicore-arch=dav-m200 -o broken.o) 2> "${work}/broken.log"; then
  echo "FAIL: the broken kernel compiled"; failures=$((failures + 1))
elif ! grep -q "broken.cpp:${line}:.*undeclared_name" "${work}/broken.log"; then
  echo "FAIL: the error does not name broken.cpp:${line}:"; cat "${work}/broken.log"; failures=$((failures + 1))
fi
[ "${failures}" -eq 0 ] && echo "ascsim-cc [aicore] and get_imm tiling: ok"
exit "${failures}"
