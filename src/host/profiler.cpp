// Profiler: a launch observer that keeps the records; estimates are computed on demand (so the
// launches themselves only pay for recording) and cached.
#include "ascsim/profile.h"
#include "ascsim/runtime.h"

namespace ascsim {

Profiler::Profiler() : state_(std::make_shared<State>()) {
  std::weak_ptr<State> weak = state_;
  observer_id_ = AddLaunchObserver([weak](const LaunchRecord& record) {
    if (auto state = weak.lock()) {
      std::lock_guard<std::mutex> lock(state->mu);
      state->records.push_back(record);
    }
  });
}

Profiler::~Profiler() { Stop(); }

void Profiler::Stop() {
  if (observer_id_ != 0) {
    RemoveLaunchObserver(observer_id_);
    observer_id_ = 0;
  }
}

std::vector<LaunchEstimate> Profiler::Summary() const {
  std::vector<LaunchRecord> records;
  std::vector<std::shared_ptr<const LaunchEstimate>> cached;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    records = state_->records;
    cached = state_->estimates;
  }
  std::vector<LaunchEstimate> out;
  out.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    if (i >= cached.size())
      cached.push_back(std::make_shared<LaunchEstimate>(EstimateLaunch(records[i])));
    out.push_back(*cached[i]);
  }
  std::lock_guard<std::mutex> lock(state_->mu);
  if (cached.size() > state_->estimates.size()) state_->estimates = cached;
  return out;
}

std::string Profiler::ToTable() const { return FormatEstimateTable(Summary()); }

void Profiler::SaveTrace(const std::string& path) const { WriteChromeTrace(Summary(), path); }

void Profiler::SaveOpSummary(const std::string& path) const { WriteOpSummary(Summary(), path); }

}  // namespace ascsim
