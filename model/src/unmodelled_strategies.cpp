// The strategies the model says nothing about, and why: their time is not made of the terms it
// measures (docs/model.md).
#include "haloflag/model/strategy_prediction.hpp"

namespace haloflag::model {

std::string unmodelled_reason(halo::Strategy strategy) {
  switch (strategy) {
    case halo::Strategy::embedded:
      return "strategy embedded: its pack and unpack are the caller's kernel; no prediction";
    case halo::Strategy::nccl:
      return "strategy nccl: its transfers are NCCL's (NVLink, PCIe or the network, by NCCL's "
             "own protocols), which no term of the model describes; no bound and no prediction";
    default:
      return {};
  }
}

}  // namespace haloflag::model
