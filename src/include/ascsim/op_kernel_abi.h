// The entry of one compiled kernel variant of a custom operator, as the aclnn runtime finds it in
// the variant's library (`ascsim_op_kernel()`, defined by ASCSIM_OP_KERNEL_ENTRY in
// ascsim/op_kernel_entry.h). C and C++11.
#ifndef ASCSIM_OP_KERNEL_ABI_H_
#define ASCSIM_OP_KERNEL_ABI_H_

#include <stdint.h>

#define ASCSIM_OP_KERNEL_ABI 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t abi;             // ASCSIM_OP_KERNEL_ABI
  const char* kernel_name;  // "add_custom"
  uint32_t num_params;      // of the kernel: inputs, outputs, workspace, tiling
  int arch;                 // the __NPU_ARCH__ it was compiled for
  // Launches on `stream` (an aclrtStream; nullptr: at once) and returns the aclError of issuing
  // it. `args` are the kernel's GM_ADDR parameters in order.
  int (*launch)(void* const* args, uint32_t num_args, uint32_t block_dim, uint64_t tiling_key,
                void* stream);
} AscsimOpKernel;

typedef const AscsimOpKernel* (*AscsimOpKernelFunc)(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_OP_KERNEL_ABI_H_
