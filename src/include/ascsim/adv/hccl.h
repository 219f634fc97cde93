// HCCL, the MC2 communication API of asc-devkit include/adv_api/hccl/hccl.h (class Hccl) with the
// names of hccl_common.h and impl/adv_api/detail/hccl/common/hccl_inner_def.h that MC2 kernels
// use (HCCL_GROUP_ID_0, HcclHandle, HcclDataType, HcclReduceOp, HcclServerType, MemDetails,
// HCCL_MAX_RANK_NUM, HcclCombineOpParam in its Atlas A2/A3 layout).
//
// Not simulated: ascsim runs one device and no AICPU communication server, so there are no peer
// ranks, windows or collective results to model. The names exist so that MC2 kernels compile
// (ops-transformer mc2/*), and every Hccl call, like GetHcclContext, is a one-line error naming
// it (hccl.cpp): a launch fails at the kernel's first communication step instead of computing
// with invented data.
#pragma once

// asc-devkit's include/adv_api/hccl/hccl.h guards its whole body with LIB_HCCL_HCCL_H, and the
// kernel UTs of ops-transformer rely on that: their mc2/common/inc/hccl_stub.h defines the same
// guard and its own HcclHandle / HCCL_GROUP_ID_0 / Hccl stand-ins, -include'd (through the tiling
// header) ahead of kernel_operator.h so that CANN's HCCL header drops out. Keeping the guard lets
// such a stub replace these names here as it does there.
#ifndef LIB_HCCL_HCCL_H
#define LIB_HCCL_HCCL_H

#include <cstdint>

#include "ascsim/aicore/hccl_context.h"
#include "ascsim/aicore/types.h"

// The message-area constants MC2 kernels name unqualified (asc-devkit
// include/adv_api/hccl/internal/hccl_msg.h, namespace HcclApi, which
// impl/adv_api/detail/hccl/common/hccl_inner_def.h opens with a global using-directive).
namespace HcclApi {
constexpr int8_t INVALID_HANDLE_ID = static_cast<int8_t>(-1);
constexpr int8_t HCCL_MAX_HANDLE_ID = 63;
}  // namespace HcclApi
using namespace HcclApi;  // NOLINT(build/namespaces): as CANN's hccl_inner_def.h

namespace AscendC {

constexpr uint32_t HCCL_GROUP_ID_0 = 0;
using HcclHandle = int8_t;

enum class HcclCMDType {
  HCCL_CMD_INVALID = 0,
  HCCL_CMD_BROADCAST = 1,
  HCCL_CMD_ALLREDUCE,
  HCCL_CMD_REDUCE,
  HCCL_CMD_SEND,
  HCCL_CMD_RECEIVE,
  HCCL_CMD_ALLGATHER,
  HCCL_CMD_REDUCE_SCATTER,
  HCCL_CMD_ALLTOALLV,
  HCCL_CMD_ALLTOALLVC,
  HCCL_CMD_ALLTOALL,
  HCCL_CMD_GATHER,
  HCCL_CMD_SCATTER,
  HCCL_CMD_BATCH_SEND_RECV,
  HCCL_CMD_BATCH_PUT,
  HCCL_CMD_BATCH_GET,
  HCCL_CMD_ALLGATHER_V,
  HCCL_CMD_REDUCE_SCATTER_V,
  HCCL_CMD_BATCH_WRITE,
  HCCL_CMD_HALF_ALLTOALLV = 20,
  HCCL_CMD_ALL
};
enum HcclReduceOp {
  HCCL_REDUCE_SUM = 0,
  HCCL_REDUCE_PROD = 1,
  HCCL_REDUCE_MAX = 2,
  HCCL_REDUCE_MIN = 3,
  HCCL_REDUCE_RESERVED
};
enum HcclServerType { HCCL_SERVER_TYPE_AICPU = 0, HCCL_SERVER_TYPE_CCU = 5, HCCL_SERVER_TYPE_END };
enum class CoreType : uint8_t { DEFAULT, ON_AIV, ON_AIC };
struct HcclServerConfig {
  CoreType type;
  int64_t blockId;
};
enum HcclDataType {
  HCCL_DATA_TYPE_INT8 = 0,
  HCCL_DATA_TYPE_INT16 = 1,
  HCCL_DATA_TYPE_INT32 = 2,
  HCCL_DATA_TYPE_FP16 = 3,
  HCCL_DATA_TYPE_FP32 = 4,
  HCCL_DATA_TYPE_INT64 = 5,
  HCCL_DATA_TYPE_UINT64 = 6,
  HCCL_DATA_TYPE_UINT8 = 7,
  HCCL_DATA_TYPE_UINT16 = 8,
  HCCL_DATA_TYPE_UINT32 = 9,
  HCCL_DATA_TYPE_FP64 = 10,
  HCCL_DATA_TYPE_BFP16 = 11,
  HCCL_DATA_TYPE_INT128 = 12,
  HCCL_DATA_TYPE_HIF8 = 14,
  HCCL_DATA_TYPE_FP8E4M3 = 15,
  HCCL_DATA_TYPE_FP8E5M2 = 16,
  HCCL_DATA_TYPE_FP8E8M0 = 17,
  HCCL_DATA_TYPE_MXFP8 = 18,
  HCCL_DATA_TYPE_RESERVED = 255
};
enum class ScopeType : uint8_t { ALL, QUEUE, BLOCK, INVALID_TYPE };

struct MemDetails {
  uint64_t size;
  uint64_t addr;
  uint32_t key;
};
struct IbVerbsData {
  MemDetails remoteInput;
  MemDetails remoteOutput;
  MemDetails localInput;
  MemDetails localOutput;
  uint8_t res[24];
};
constexpr uint32_t HCCL_MAX_RANK_NUM = 32U;
struct HcclCombineOpParam {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;
  uint32_t rankNum;
  uint64_t winSize;
  uint64_t windowsIn[HCCL_MAX_RANK_NUM];
  uint64_t windowsOut[HCCL_MAX_RANK_NUM];
  uint8_t res[8328];
  uint8_t multiFlag;
  IbVerbsData* data;
};

static constexpr HcclServerConfig DEFAULT_CFG = {CoreType::DEFAULT, 0};

template <HcclServerType serverType = HcclServerType::HCCL_SERVER_TYPE_AICPU,
          const auto& config = DEFAULT_CFG>
class Hccl {
 public:
  template <bool commit = false>
  HcclHandle AllReduce(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, HcclReduceOp, uint8_t = 1) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::AllReduce");
  }
  template <bool commit = false>
  HcclHandle AllGather(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, uint64_t, uint8_t = 1) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::AllGather");
  }
  template <bool commit = false>
  HcclHandle ReduceScatter(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, HcclReduceOp, uint64_t,
                           uint8_t = 1) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::ReduceScatter");
  }
  template <bool commit = false>
  HcclHandle AlltoAll(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, uint64_t = 0, uint8_t = 1) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::AlltoAll");
  }
  template <bool commit = false>
  HcclHandle AlltoAllV(GM_ADDR, void*, void*, HcclDataType, GM_ADDR, void*, void*, HcclDataType,
                       uint8_t = 1) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::AlltoAllV");
  }
  template <bool commit = false>
  HcclHandle BatchWrite(GM_ADDR, uint32_t, uint16_t = 0U) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::BatchWrite");
  }
  template <bool commit = false>
  HcclHandle AlltoAllvWrite(GM_ADDR, GM_ADDR, GM_ADDR, uint64_t, uint64_t) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::AlltoAllvWrite");
  }
  int32_t SetCcTiling(void*) { ascsim::aicore::FaultHcclNotSimulated("Hccl::SetCcTiling"); }
  int32_t SetCcTilingV2(uint64_t) { ascsim::aicore::FaultHcclNotSimulated("Hccl::SetCcTilingV2"); }
  void Init(GM_ADDR, void* = nullptr) { ascsim::aicore::FaultHcclNotSimulated("Hccl::Init"); }
  void InitV2(GM_ADDR, const void*) { ascsim::aicore::FaultHcclNotSimulated("Hccl::InitV2"); }
  void Commit(HcclHandle) { ascsim::aicore::FaultHcclNotSimulated("Hccl::Commit"); }
  int32_t Wait(HcclHandle) { ascsim::aicore::FaultHcclNotSimulated("Hccl::Wait"); }
  int32_t Query(HcclHandle) { ascsim::aicore::FaultHcclNotSimulated("Hccl::Query"); }
  void InterHcclGroupSync(int8_t, HcclHandle) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::InterHcclGroupSync");
  }
  template <ScopeType type = ScopeType::ALL>
  void QueueBarrier(uint16_t) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::QueueBarrier");
  }
  template <bool sync = true>
  int32_t Iterate(HcclHandle, uint16_t*, uint16_t) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::Iterate");
  }
  template <bool sync = true>
  void Finalize() {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::Finalize");
  }
  GM_ADDR GetWindowsInAddr(uint32_t) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::GetWindowsInAddr");
  }
  GM_ADDR GetWindowsOutAddr(uint32_t) {
    ascsim::aicore::FaultHcclNotSimulated("Hccl::GetWindowsOutAddr");
  }
  uint32_t GetRankId() { ascsim::aicore::FaultHcclNotSimulated("Hccl::GetRankId"); }
  uint32_t GetRankDim() { ascsim::aicore::FaultHcclNotSimulated("Hccl::GetRankDim"); }
  uint16_t GetQueueNum() { ascsim::aicore::FaultHcclNotSimulated("Hccl::GetQueueNum"); }
};

}  // namespace AscendC

#endif  // LIB_HCCL_HCCL_H
