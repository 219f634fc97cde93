// MmadCompute for avx2 x86-64 (see mmad_kernel.inc; compile flags in src/CMakeLists.txt).
#define Eigen ascsim_eigen_avx2
#define ASCSIM_MMAD_FN MmadComputeAvx2
#include "aicore/cube/mmad_kernel.inc"
