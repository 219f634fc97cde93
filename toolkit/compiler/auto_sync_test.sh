#!/bin/bash
# ascsim-cc (bisheng) with and without --cce-auto-sync on a kernel whose scalar read of a vector
# result has no V_S flag in the source, run with ASCSIM_SANITIZE=all: built with the flag it passes
# (the compiler inserts the flag), built without it the sanitizer reports the missing flag and says
# the kernel was built without --cce-auto-sync.
#   auto_sync_test.sh PREFIX     (an installed toolkit)
set -u
prefix="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cat > "${work}/scalar_after_vector.asc" <<'SRC'
#include "acl/acl.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scalar_after_vector(GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z, 8);
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::Duplicate(v, 2.0f, 8);
    zGm.SetValue(0, v.GetValue(0) * 3);  // V -> S: no flag written here
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    void *z = nullptr;
    aclrtMalloc(&z, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    scalar_after_vector<<<1, nullptr, nullptr>>>((uint8_t *)z);
    const aclError ret = aclrtSynchronizeStream(nullptr);
    aclrtFree(z);
    aclFinalize();
    return ret == ACL_SUCCESS ? 0 : 1;
}
SRC
cc="${prefix}/compiler/ccec_compiler/bin/bisheng"
failures=0
"${cc}" --npu-arch=dav-2201 --cce-auto-sync -o "${work}/with" "${work}/scalar_after_vector.asc" ||
  { echo "FAIL: compiling with --cce-auto-sync"; failures=$((failures + 1)); }
"${cc}" --npu-arch=dav-2201 -o "${work}/without" "${work}/scalar_after_vector.asc" ||
  { echo "FAIL: compiling without --cce-auto-sync"; failures=$((failures + 1)); }
if ! out="$(ASCSIM_SANITIZE=all "${work}/with" 2>&1)"; then
  echo "FAIL: built with --cce-auto-sync, the sanitizer still reports: ${out}"
  failures=$((failures + 1))
fi
if out="$(ASCSIM_SANITIZE=all "${work}/without" 2>&1)"; then
  echo "FAIL: built without --cce-auto-sync, the missing V_S flag was not reported"
  failures=$((failures + 1))
else
  case "${out}" in
    *"V_S"*"the kernel was built without --cce-auto-sync"*) ;;
    *) echo "FAIL: unexpected report: ${out}"; failures=$((failures + 1)) ;;
  esac
fi
[ "${failures}" -eq 0 ] && echo "ascsim-cc --cce-auto-sync: ok"
exit "${failures}"
