// MmadCompute for baseline x86-64 (see mmad_kernel.inc; compile flags in src/CMakeLists.txt).
#define Eigen ascsim_eigen_baseline
#define ASCSIM_MMAD_FN MmadComputeBaseline
#include "aicore/cube/mmad_kernel.inc"
