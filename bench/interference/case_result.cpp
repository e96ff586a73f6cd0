#include "case_result.hpp"

namespace haloflag::bench::interference {

namespace {

const CaseResult* find_case(const std::vector<CaseResult>& results, Scenario scenario,
                            const std::optional<AccessForm>& access, std::size_t bytes) {
  for (const CaseResult& result : results) {
    if (result.key.scenario == scenario && result.key.access == access &&
        result.key.bytes == bytes) {
      return &result;
    }
  }
  return nullptr;
}

}  // namespace

void set_ratios(CaseResult& result, const std::vector<CaseResult>& earlier) {
  const CaseKey& key = result.key;
  const double median = result.summary_us.median;
  if (key.scenario == Scenario::none) {
    result.slowdown_vs_none = 1.0;
  } else if (const CaseResult* none = find_case(earlier, Scenario::none, std::nullopt, key.bytes);
             none != nullptr && none->summary_us.median > 0.0) {
    result.slowdown_vs_none = median / none->summary_us.median;
  }
  if (!kernel_writes(key.scenario)) return;
  if (key.scenario == Scenario::ssb) {
    result.slowdown_vs_ssb = 1.0;
  } else if (const CaseResult* ssb = find_case(earlier, Scenario::ssb, key.access, key.bytes);
             ssb != nullptr && ssb->summary_us.median > 0.0) {
    result.slowdown_vs_ssb = median / ssb->summary_us.median;
  }
}

}  // namespace haloflag::bench::interference
