// MmadCompute for avx512 x86-64 (see mmad_kernel.inc; compile flags in src/CMakeLists.txt).
#define Eigen ascsim_eigen_avx512
#define ASCSIM_MMAD_FN MmadComputeAvx512
#include "aicore/cube/mmad_kernel.inc"
