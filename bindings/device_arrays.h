// NumPy <-> device memory for the Python packages: argument checks, inputs registered as device
// memory without a copy, outputs allocated in device memory and handed to NumPy without a copy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"

namespace ascsim_py {

// A checked kernel input: a C-contiguous, aligned float16/float32 array (a copy only when the
// caller's array was not already so).
struct InputArray {
  pybind11::array array;
  ascsim::kernels::ElementType type;
  const void* data;
  size_t bytes;
  uint64_t size;  // elements
  // The byte range registered as device memory: the whole buffer of the NumPy array that owns
  // the memory (np.byte_bounds of the last ndarray in the .base chain). Views of one buffer thus
  // share one registration, so they can be used by launches in flight at the same time.
  uintptr_t owner_begin;
  uintptr_t owner_end;
};

// Converts `obj` with np.asarray and checks its dtype: float16 or float32 only, never cast.
// Non-contiguous, negative-stride or unaligned arrays are copied into a contiguous one.
// `func` and `name` ("run_add_custom", "x") go into the error messages.
InputArray ToInput(pybind11::handle obj, const std::string& func, const char* name);

// The byte range of the buffer that owns `a`'s memory (np.byte_bounds of the last ndarray in the
// .base chain), widened to cover `a` itself.
void OwnerBounds(const pybind11::array& a, uintptr_t* begin, uintptr_t* end);

// Throws InvalidArgument naming both arrays unless `a` and `b` have the same shape and dtype.
void CheckSameShapeAndDtype(const InputArray& a, const char* a_name, const InputArray& b,
                            const char* b_name, const std::string& func);

// A Python int (or NumPy integer; bool is rejected) in [lo, hi]; else InvalidArgument.
// True for a numpy.bool_ scalar. Never imports NumPy (an object cannot be one unless NumPy is
// loaded), so argument checks stay cheap and cannot be interrupted by a first NumPy import.
bool IsNumpyBool(pybind11::handle obj);
int64_t ToInt(pybind11::handle obj, const std::string& func, const char* name, int64_t lo,
              int64_t hi);
// block_dim: an int in [1, 65535].
uint32_t ToBlockDim(pybind11::handle obj, const std::string& func);

// A new array of `shape` and `dtype` whose data is a DeviceMalloc allocation, freed (back to the
// runtime's caching pool) when NumPy drops the array. `*data` receives the device pointer.
pybind11::array NewDeviceArray(const pybind11::dtype& dtype,
                               const std::vector<pybind11::ssize_t>& shape, void** data);

// Registers the inputs' memory as device memory for the duration of a launch. Overlapping inputs
// (x and y views of one buffer) are registered as one range, and a range already registered by
// another in-flight launch (the same array on two streams) shares that registration, so it stays
// registered until the last launch using it lets go.
using Registrations = std::vector<std::shared_ptr<ascsim::ExternalMemory>>;
Registrations RegisterInputs(const std::vector<const InputArray*>& inputs);

}  // namespace ascsim_py
