// The deliberately faulty kernels (kernel/testing) as a kernel module (ascsim/kernel_module.h),
// for the Python tests: python/add_custom/testing.py calls them through _core.KernelLibrary like
// any user module. Built only in the CMake tree (target ascsim_python_testing); never installed
// or put in the pip package. The table is written by hand rather than generated because each
// entry picks the float16 or float32 kernel and keeps the launch name the C++ launchers use
// ("add_custom" for both), so messages read as they do from C++.
#include <cstdint>

#include "ascsim/kernel_module.h"
#include "faulty_kernels.h"

namespace {

namespace am = ascsim::module;
namespace faulty = ascsim::kernels::testing;
using ascsim::kernels::ElementType;

template <class T>
T Arg(const void* const* args, int i) {
  return am::LoadArg<T>(args[i]);
}

template <ElementType kType>
void AddWithLength(const am::KernelInfo*, const void* const* a, uint32_t block_dim,
                   ascsim::Stream* s) {
  faulty::LaunchAddWithLength(kType, Arg<void*>(a, 0), Arg<void*>(a, 1), Arg<void*>(a, 2),
                              Arg<uint32_t>(a, 3), block_dim, s);
}
template <ElementType kType>
void UnalignedCopy(const am::KernelInfo*, const void* const* a, uint32_t block_dim,
                   ascsim::Stream* s) {
  faulty::LaunchUnalignedCopy(kType, Arg<void*>(a, 0), Arg<void*>(a, 1), Arg<uint32_t>(a, 2),
                              block_dim, s);
}
void DequeueEmpty(const am::KernelInfo*, const void* const*, uint32_t block_dim,
                  ascsim::Stream* s) {
  faulty::LaunchDequeueEmpty(block_dim, s);
}
void UbOverflow(const am::KernelInfo*, const void* const*, uint32_t block_dim, ascsim::Stream* s) {
  faulty::LaunchUbOverflow(block_dim, s);
}
void SpinForever(const am::KernelInfo*, const void* const*, uint32_t block_dim, ascsim::Stream* s) {
  faulty::LaunchSpinForever(block_dim, s);
}

constexpr am::ParamInfo kAddParams[] = {
    am::Describe<uint8_t*>("x", "GM_ADDR"),
    am::Describe<uint8_t*>("y", "GM_ADDR"),
    am::Describe<uint8_t*>("z", "GM_ADDR"),
    am::Describe<uint32_t>("total_length", "uint32_t"),
};
constexpr am::ParamInfo kCopyParams[] = {
    am::Describe<uint8_t*>("x", "GM_ADDR"),
    am::Describe<uint8_t*>("z", "GM_ADDR"),
    am::Describe<uint32_t>("count", "uint32_t"),
};

// Names are the entries' (python/add_custom/testing.py looks them up); the launchers name the
// launch itself.
const am::KernelInfo kKernels[] = {
    {"add_with_length_half", 4, kAddParams, &AddWithLength<ElementType::kFloat16>, 0},
    {"add_with_length_float", 4, kAddParams, &AddWithLength<ElementType::kFloat32>, 0},
    {"unaligned_copy_half", 3, kCopyParams, &UnalignedCopy<ElementType::kFloat16>, 0},
    {"unaligned_copy_float", 3, kCopyParams, &UnalignedCopy<ElementType::kFloat32>, 0},
    {"dequeue_empty", 0, nullptr, &DequeueEmpty, 0},
    {"ub_overflow", 0, nullptr, &UbOverflow, 0},
    {"spin_forever", 0, nullptr, &SpinForever, 0},
};

const am::ModuleTable kTable = {am::kAbiVersion, sizeof(am::KernelInfo), ASCSIM_VERSION_STRING,
                                sizeof(kKernels) / sizeof(kKernels[0]), kKernels};

}  // namespace

extern "C" __attribute__((visibility("default"))) const am::ModuleTable*
ascsim_kernel_module_table() {
  return &kTable;
}
