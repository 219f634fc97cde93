// DumpTensor with a ShapeInfo and DumpAccChkPoint (asc-devkit docs 调试接口/上板打印/DumpTensor,
// DumpAccChkPoint; header basic_api/kernel_operator_dump_tensor_intf.h). With a shape the values
// print as nested rows, "[[a,b],\n[c,d]]"; a shape smaller than dumpSize prints only its elements
// after "shape is [7, 8], dumpSize is 64, dumpSize is greater than shapeSize.", a larger one pads
// with "-" after "shape is [9, 8], dumpSize is 64, data is not enough.". DumpAccChkPoint dumps
// from element countOff on. A dump of more than 30 KB prints nothing, as the device's default
// print buffer allows no more.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_print.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/shape_info.h"
#include "ascsim/aicore/tensor_access.h"

namespace ascsim::aicore {

constexpr uint64_t kDumpLimitBytes = 30 * 1024;

template <class T>
std::string DumpValue(const T& v) {
  char buf[64];
  if constexpr (std::is_integral_v<T>) {
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, sizeof(buf), "%f", static_cast<double>(static_cast<float>(v)));
  }
  return buf;
}

// The nested rows of `shape` over `count` values ("-" past them).
template <class T>
std::string DumpShaped(const T* data, uint32_t count, const AscendC::ShapeInfo& shape) {
  std::string out;
  uint64_t next = 0;
  auto level = [&](auto&& self, uint8_t dim) -> void {
    out += '[';
    for (uint32_t i = 0; i < shape.shape[dim]; ++i) {
      if (i) out += dim + 1 == shape.shapeDim ? "," : ",\n";
      if (dim + 1 == shape.shapeDim) {
        out += next < count ? DumpValue(data[next]) : std::string("-");
        ++next;
      } else {
        self(self, static_cast<uint8_t>(dim + 1));
      }
    }
    out += ']';
  };
  if (shape.shapeDim == 0) return DumpValues(data, count);
  level(level, 0);
  return out;
}

// The line before the values when the shape and dumpSize disagree (inline: a std::string never
// crosses into libascsim, whose ABI may differ from the kernel's).
inline std::string ShapeNote(const AscendC::ShapeInfo& shape, uint32_t dump_size) {
  const int64_t size = AscendC::GetShapeSize(shape);
  if (size == static_cast<int64_t>(dump_size)) return "";
  std::string dims;
  for (uint8_t i = 0; i < shape.shapeDim; ++i) {
    dims += (i ? ", " : "") + std::to_string(shape.shape[i]);
  }
  return Str("shape is [", dims, "], dumpSize is ", dump_size,
             size < static_cast<int64_t>(dump_size) ? ", dumpSize is greater than shapeSize.\n"
                                                    : ", data is not enough.\n");
}

template <class T>
void DumpShapedTensor(const char* position, uint64_t addr, const T* data, uint32_t desc,
                      uint32_t dumpSize, const AscendC::ShapeInfo& shape) {
  if (static_cast<uint64_t>(dumpSize) * sizeof(T) > kDumpLimitBytes) return;
  KernelPrint(Str("DumpTensor: desc=", desc, ", addr=", Hex(addr),
                  ", data_type=", DumpTypeName(TypeName<T>()), ", position=", position,
                  ", dump_size=", dumpSize, "\n", ShapeNote(shape, dumpSize),
                  DumpShaped(data, dumpSize, shape), "\n"));
}

}  // namespace ascsim::aicore

namespace AscendC {

template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                const ShapeInfo& shapeInfo) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  const T* p = ai::TensorAccess::Checked(tensor, "DumpTensor", "tensor", 0, dumpSize);
  ai::DumpShapedTensor(ai::MemoryName(ai::TensorAccess::MemoryOf(tensor)),
                       ai::TensorAccess::UbOffset(tensor), p, desc, dumpSize, shapeInfo);
}

template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                const ShapeInfo& shapeInfo) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  const T* p = ai::TensorAccess::CheckedAddress(tensor, "DumpTensor", "read", 0, dumpSize);
  ai::DumpShapedTensor("GM", reinterpret_cast<uintptr_t>(p), p, desc, dumpSize, shapeInfo);
}

template <typename T>
void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  if (static_cast<uint64_t>(dumpSize) * sizeof(T) > ascsim::aicore::kDumpLimitBytes) return;
  DumpTensor(tensor[countOff], index, dumpSize);
}

template <typename T>
void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  if (static_cast<uint64_t>(dumpSize) * sizeof(T) > ascsim::aicore::kDumpLimitBytes) return;
  DumpTensor(tensor[countOff], index, dumpSize);
}

}  // namespace AscendC
