// aclrtMemcpy2d / aclrtMemcpy2dAsync: `height` rows of `width` bytes between pitched buffers.
// Parameter rules as CANN checks them (hicann/runtime src/acl/aclrt_impl/memory.cpp,
// CheckMemcpy2dParam): width or height 0 copies nothing and succeeds; null pointers, a width
// larger than either pitch, and a kind other than HOST_TO_DEVICE, DEVICE_TO_HOST,
// DEVICE_TO_DEVICE or DEFAULT are ACL_ERROR_INVALID_PARAM. Beyond CANN, the device side's whole
// pitched extent must lie inside one device allocation (else ACL_ERROR_RT_AICORE_TRAP_EXCEPTION,
// the code an out-of-bounds device access gets), so a bad pitch cannot scribble over the heap.
#include <cstring>
#include <limits>
#include <string>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "host/acl_state.h"
#include "runtime/device_memory_internal.h"

namespace ascsim::acl {
namespace {

struct Copy2d {
  void* dst;
  size_t dpitch;
  const void* src;
  size_t spitch;
  size_t width;
  size_t height;
  aclrtMemcpyKind kind;
};

// Bytes from the first row's start to the last row's end.
size_t Extent(size_t pitch, size_t width, size_t height) { return (height - 1) * pitch + width; }

void CheckDeviceSide(const char* api, const char* role, const void* p, size_t pitch, size_t width,
                     size_t height) {
  if (height - 1 > (std::numeric_limits<size_t>::max() - width) / pitch) {
    throw InvalidArgument(std::string(api) + ": " + role + " extent overflows (pitch " +
                          std::to_string(pitch) + " x height " + std::to_string(height) + ")");
  }
  const size_t extent = Extent(pitch, width, height);
  const auto* begin = static_cast<const uint8_t*>(p);
  GmRange range;
  if (!runtime::FindDeviceMemory(begin, &range) || begin == range.end ||
      extent > static_cast<size_t>(range.end - begin)) {
    throw OutOfBounds(std::string(api) + ": " + role + " rows span " + std::to_string(extent) +
                      " B (" + std::to_string(height) + " rows of " + std::to_string(width) +
                      " B, pitch " + std::to_string(pitch) +
                      ") which is not inside one device allocation");
  }
}

// Validates like CANN; returns false when there is nothing to copy.
bool Validate(const char* api, const Copy2d& c) {
  if (c.width == 0 || c.height == 0) return false;
  if (c.dst == nullptr || c.src == nullptr) {
    throw InvalidArgument(std::string(api) + ": dst or src is null");
  }
  if (c.width > c.spitch || c.width > c.dpitch) {
    throw InvalidArgument(std::string(api) + ": width " + std::to_string(c.width) +
                          " must not exceed spitch " + std::to_string(c.spitch) + " or dpitch " +
                          std::to_string(c.dpitch));
  }
  bool dst_device = false, src_device = false;
  switch (c.kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE:
      dst_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      src_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      dst_device = src_device = true;
      break;
    case ACL_MEMCPY_DEFAULT:  // the runtime works out where each side lives
      dst_device = IsDeviceMemory(c.dst);
      src_device = IsDeviceMemory(c.src);
      break;
    default:
      throw InvalidArgument(std::string(api) + ": kind " + std::to_string(c.kind) +
                            " is not ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST, "
                            "ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEFAULT");
  }
  if (dst_device) CheckDeviceSide(api, "destination", c.dst, c.dpitch, c.width, c.height);
  if (src_device) CheckDeviceSide(api, "source", c.src, c.spitch, c.width, c.height);
  return true;
}

void Run(const Copy2d& c) {
  auto* d = static_cast<uint8_t*>(c.dst);
  const auto* s = static_cast<const uint8_t*>(c.src);
  for (size_t row = 0; row < c.height; ++row) {
    std::memmove(d + row * c.dpitch, s + row * c.spitch, c.width);
  }
}

}  // namespace
}  // namespace ascsim::acl

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
  const ascsim::acl::Copy2d c{dst, dpitch, src, spitch, width, height, kind};
  return ascsim::acl::Guard("aclrtMemcpy2d", [&] {
    if (ascsim::acl::Validate("aclrtMemcpy2d", c)) ascsim::acl::Run(c);
  });
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  const ascsim::acl::Copy2d c{dst, dpitch, src, spitch, width, height, kind};
  return ascsim::acl::Guard("aclrtMemcpy2dAsync", [&] {
    const auto s = ascsim::acl::ToStream(stream);  // the reference keeps it alive meanwhile
    if (!ascsim::acl::Validate("aclrtMemcpy2dAsync", c)) return;
    if (s == nullptr) {
      ascsim::acl::Run(c);
    } else {
      // Checked again when the copy runs: an allocation freed in between fails the stream.
      s->Enqueue([c] {
        if (ascsim::acl::Validate("aclrtMemcpy2dAsync", c)) ascsim::acl::Run(c);
      });
    }
  });
}
