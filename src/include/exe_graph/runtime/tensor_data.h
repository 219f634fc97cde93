// gert::TensorData (CANN metadef inc/external/exe_graph/runtime/tensor_data.h): a tensor's
// address, size and placement, optionally owned through a manager function.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "graph/error_codes.h"

namespace gert {

using TensorAddress = void*;
using ConstTensorAddressPtr = const void*;

enum TensorPlacement : int32_t {
  kOnDeviceHbm,  // device memory (for ascsim: device memory of the simulated grid)
  kOnHost,       // host memory
  kFollowing,    // host memory right after the Tensor object
  kOnDeviceP2p,
  kTensorPlacementEnd
};

class TensorPlacementUtils {
 public:
  static bool IsOnDevice(TensorPlacement placement) {
    return placement == kOnDeviceHbm || placement == kOnDeviceP2p;
  }
  static bool IsOnHost(TensorPlacement placement) {
    return placement == kOnHost || placement == kFollowing;
  }
  static bool IsOnHostFollowing(TensorPlacement placement) { return placement == kFollowing; }
  static bool IsOnHostNotFollowing(TensorPlacement placement) { return placement == kOnHost; }
  static bool IsOnDeviceHbm(TensorPlacement placement) { return placement == kOnDeviceHbm; }
  static bool IsOnDeviceP2p(TensorPlacement placement) { return placement == kOnDeviceP2p; }
};

enum TensorOperateType : int32_t {
  kGetTensorAddress,
  kFreeTensor,
  kPlusShareCount,
  kTensorOperateType
};

using TensorAddrManager = ge::graphStatus (*)(TensorAddress addr, TensorOperateType operate_type,
                                              void** out);

class TensorData {
 public:
  explicit TensorData(TensorAddress addr = nullptr, const TensorAddrManager manager = nullptr)
      : TensorData(addr, manager, 0U, kTensorPlacementEnd) {}
  explicit TensorData(TensorAddress addr, const TensorAddrManager manager, size_t size,
                      TensorPlacement placement)
      : addr_(addr), manager_(manager), size_(size), placement_(placement), reserved_0_(0U) {
    std::memset(reserved_1_, 0, sizeof(reserved_1_));
  }
  TensorData(const TensorData&) = delete;
  TensorData(TensorData&& other) noexcept
      : addr_(other.addr_),
        manager_(other.manager_),
        size_(other.size_),
        placement_(other.placement_),
        reserved_0_(0U) {
    std::memset(reserved_1_, 0, sizeof(reserved_1_));
    other.addr_ = nullptr;
    other.manager_ = nullptr;
    other.size_ = 0U;
    other.placement_ = kTensorPlacementEnd;
  }
  TensorData& operator=(const TensorData& other) = delete;
  TensorData& operator=(TensorData&& other) noexcept {
    if (this != &other) {
      static_cast<void>(Free());
      addr_ = other.addr_;
      manager_ = other.manager_;
      size_ = other.size_;
      placement_ = other.placement_;
      other.addr_ = nullptr;
      other.manager_ = nullptr;
      other.size_ = 0U;
      other.placement_ = kTensorPlacementEnd;
    }
    return *this;
  }
  ~TensorData() noexcept { static_cast<void>(Free()); }

  TensorAddress GetAddr() const {
    if (manager_ == nullptr || addr_ == nullptr) return addr_;
    TensorAddress addr = nullptr;
    if (manager_(addr_, kGetTensorAddress, &addr) != ge::GRAPH_SUCCESS) return nullptr;
    return addr;
  }
  size_t GetSize() const { return size_; }
  void SetSize(const size_t size) { size_ = size; }
  TensorPlacement GetPlacement() const { return placement_; }
  void SetPlacement(const TensorPlacement placement) { placement_ = placement; }
  ge::graphStatus Free() {
    if (manager_ == nullptr) return ge::GRAPH_SUCCESS;
    const ge::graphStatus ret = manager_(addr_, kFreeTensor, nullptr);
    if (ret == ge::GRAPH_SUCCESS) {
      addr_ = nullptr;
      manager_ = nullptr;
    }
    return ret;
  }
  ge::graphStatus SetAddr(const ConstTensorAddressPtr addr, TensorAddrManager manager) {
    const ge::graphStatus ret = Free();
    if (ret != ge::GRAPH_SUCCESS) return ret;
    addr_ = const_cast<TensorAddress>(addr);
    manager_ = manager;
    return ge::GRAPH_SUCCESS;
  }
  bool IsSharedWith(const TensorData& other) const {
    return addr_ == other.addr_ && manager_ == other.manager_ && size_ == other.size_ &&
           placement_ == other.placement_;
  }
  ge::graphStatus ShareFrom(const TensorData& other) {
    if (IsSharedWith(other)) return ge::GRAPH_SUCCESS;
    const ge::graphStatus ret = Free();
    if (ret != ge::GRAPH_SUCCESS) return ret;
    addr_ = other.addr_;
    manager_ = other.manager_;
    size_ = other.size_;
    placement_ = other.placement_;
    if (manager_ != nullptr) return manager_(addr_, kPlusShareCount, nullptr);
    return ge::GRAPH_SUCCESS;
  }
  TensorAddress Release(TensorAddrManager& manager) {
    TensorAddress addr = addr_;
    manager = manager_;
    addr_ = nullptr;
    manager_ = nullptr;
    return addr;
  }

 private:
  TensorAddress addr_;
  TensorAddrManager manager_;
  size_t size_;
  TensorPlacement placement_;
  uint32_t reserved_0_;
  uint8_t reserved_1_[40];
};

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
