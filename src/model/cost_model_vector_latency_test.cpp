// Vector instruction latency in the replay: an instruction's head is the time from issue to its
// result, so independent instructions pipeline (the next issues once this one's repeats have
// gone in), a read of a buffer whose vector write is still in flight waits for that result, and
// PipeBarrier<PIPE_V> waits for every result. Repeat reductions have their own head
// (vector_reduce_head_cycles), block reductions the ordinary one.
#include <gtest/gtest.h>

#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"
#include "model/cost_model_test_traces.h"

namespace {

using ascsim::trace::ApiCall;
using ascsim::trace::CallKind;
using ascsim::trace::Pipe;
using ascsim::trace::VectorClass;

const ascsim::SocProfile& Soc() { return ascsim::FindSocProfile("Ascend910B1"); }
double Us(double cycles) { return cycles / (Soc().clock_ghz * 1e3); }

// A half vector instruction of `repeats` repeats (256 B each) writing buffer `dst` from `src`.
ApiCall Vector(const char* name, VectorClass cls, uint32_t repeats, uint32_t dst, uint32_t src) {
  ApiCall c{};
  c.name = name;
  c.kind = CallKind::kVector;
  c.pipe = Pipe::kV;
  c.vector_class = cls;
  c.dtype_bytes = 2;
  c.elements = uint64_t{128} * repeats;
  c.bytes = c.elements * 2;
  c.dst_buffer = dst;
  c.src_buffers[0] = src;
  return c;
}
ApiCall Add(uint32_t repeats, uint32_t dst, uint32_t src) {
  return Vector("Add", VectorClass::kSimple, repeats, dst, src);
}
ApiCall BarrierV() {
  ApiCall c{};
  c.name = "PipeBarrier";
  c.kind = CallKind::kPipeBarrier;
  c.pipe = Pipe::kV;
  return c;
}

ascsim::CoreEstimate Replay(const std::vector<ApiCall>& calls) {
  std::vector<ascsim::trace::CoreTrace> traces(1);
  traces[0].calls = calls;
  const ascsim::LaunchEstimate e = cost_model_test::Estimate(traces, Soc());
  EXPECT_EQ(e.cores.size(), 1u);
  return e.cores.at(0);
}

TEST(CostModelVectorLatency, IndependentInstructionsPipeline) {
  const double head = Soc().vector_head_cycles;
  ASSERT_GT(head, 1);
  // Four Adds of 2 repeats into four buffers from one source: one head in all.
  const ascsim::CoreEstimate e = Replay({Add(2, 1, 0), Add(2, 2, 0), Add(2, 3, 0), Add(2, 4, 0)});
  EXPECT_NEAR(e.busy_us.at("V"), Us(4 * 2 + head), 1e-9);
  EXPECT_NEAR(e.end_us, Us(4 * 2 + head), 1e-9);
}

TEST(CostModelVectorLatency, AReadOfAResultInFlightWaitsForIt) {
  const double head = Soc().vector_head_cycles;
  // Each Add reads the buffer the previous one wrote: four heads.
  const ascsim::CoreEstimate chain =
      Replay({Add(2, 1, 0), Add(2, 2, 1), Add(2, 3, 2), Add(2, 4, 3)});
  EXPECT_NEAR(chain.busy_us.at("V"), Us(4 * (2 + head)), 1e-9);
  // A write after a write to the same buffer does not wait (the pipe keeps their order).
  const ascsim::CoreEstimate waw = Replay({Add(2, 1, 0), Add(2, 1, 0)});
  EXPECT_NEAR(waw.busy_us.at("V"), Us(2 * 2 + head), 1e-9);
}

TEST(CostModelVectorLatency, PipeBarrierWaitsForEveryResult) {
  const double head = Soc().vector_head_cycles;
  const ascsim::CoreEstimate e = Replay({Add(2, 1, 0), BarrierV(), Add(2, 2, 0)});
  EXPECT_NEAR(e.busy_us.at("V"), Us(2 * (2 + head)), 1e-9);
}

TEST(CostModelVectorLatency, RepeatReductionsHaveTheirOwnHead) {
  const ascsim::SocProfile& soc = Soc();
  ASSERT_GT(soc.vector_reduce_head_cycles, soc.vector_head_cycles);
  const ascsim::CoreEstimate whole =
      Replay({Vector("RepeatReduceSum", VectorClass::kReduce, 1, 1, 0), BarrierV(),
              Vector("WholeReduceSum", VectorClass::kReduce, 1, 2, 1)});
  EXPECT_NEAR(whole.busy_us.at("V"), Us(2 * (1 + soc.vector_reduce_head_cycles)), 1e-9);
  const ascsim::CoreEstimate block =
      Replay({Vector("BlockReduceSum", VectorClass::kReduce, 1, 1, 0), BarrierV(),
              Vector("BlockReduceMax", VectorClass::kReduce, 1, 2, 1)});
  EXPECT_NEAR(block.busy_us.at("V"), Us(2 * (1 + soc.vector_head_cycles)), 1e-9);
}

}  // namespace
