// The headers under ascsim/aicore/ implement kernel_operator.h: kernel code includes
// "kernel_operator.h" (or "tikicpulib.h"), never these directly. ascsim's own layers and white-box
// tests define ASCSIM_INTERNAL_INCLUDE (CMake does it for them).
#pragma once

#if !defined(ASCSIM_KERNEL_OPERATOR_INCLUDED) && !defined(ASCSIM_INTERNAL_INCLUDE)
#error "ascsim/aicore/*.h are internal to ascsim: #include \"kernel_operator.h\" instead"
#endif
