#include "merge.hpp"

#include <stdexcept>

#include "run_info.hpp"

namespace haloflag::model::calibration {

namespace {

// The concurrent fit at the largest size on one side of the threshold, if any.
const ConcurrentFit::AtSize* largest_on_side(const ConcurrentFit& fit, std::int64_t threshold,
                                             bool eager) {
  const ConcurrentFit::AtSize* chosen = nullptr;
  for (const ConcurrentFit::AtSize& size : fit.sizes) {
    const bool is_eager = size.bytes <= threshold;
    if (is_eager == eager && (chosen == nullptr || size.bytes > chosen->bytes)) chosen = &size;
  }
  return chosen;
}

ProtocolParams<KModelParams> kmodel_sets(const MergeInputs& inputs, std::vector<std::string>& notes) {
  const std::int64_t threshold = inputs.pingpong.threshold_bytes;
  if (inputs.concurrent.sizes.empty()) {
    throw std::invalid_argument(inputs.concurrent.source + ": holds no fitted size");
  }
  const ConcurrentFit::AtSize* eager = largest_on_side(inputs.concurrent, threshold, true);
  const ConcurrentFit::AtSize* rendezvous = largest_on_side(inputs.concurrent, threshold, false);
  if (eager == nullptr) {
    notes.push_back("no concurrent measurement at an eager size (<= " + std::to_string(threshold) +
                    " B): eager R_Cb/R_Ci are those measured at " +
                    std::to_string(rendezvous->bytes) + " B");
    eager = rendezvous;
  }
  if (rendezvous == nullptr) {
    notes.push_back("no concurrent measurement at a rendezvous size (> " +
                    std::to_string(threshold) + " B): rendezvous R_Cb/R_Ci are those measured at " +
                    std::to_string(eager->bytes) + " B");
    rendezvous = eager;
  }
  const ProtocolParams<PostalParams>& postal = inputs.pingpong.postal;
  return {KModelParams{postal.eager.alpha, eager->r_cb, eager->r_ci},
          KModelParams{postal.rendezvous.alpha, rendezvous->r_cb, rendezvous->r_ci}};
}

}  // namespace

TargetClass parse_target_class(const std::string& name) {
  if (name == "all") return TargetClass::all;
  if (name == "intra_socket") return TargetClass::intra_socket;
  if (name == "inter_socket") return TargetClass::inter_socket;
  if (name == "inter_node") return TargetClass::inter_node;
  throw std::invalid_argument("link class \"" + name +
                              "\": must be all, intra_socket, inter_socket or inter_node");
}

MachineParams merge_calibration(const MergeInputs& inputs) {
  if (!inputs.base && inputs.target != TargetClass::all) {
    throw std::invalid_argument(
        "a single link class can only be replaced in a base parameter file (give --base), "
        "otherwise the other classes would have no values");
  }
  if (!inputs.base && !inputs.pack_unpack) {
    throw std::invalid_argument("no pack/unpack table: give one (or a base parameter file)");
  }

  MachineParams params = inputs.base.value_or(MachineParams{});
  std::vector<std::string> notes;
  const ProtocolParams<KModelParams> kmodel = kmodel_sets(inputs, notes);
  const bool all = inputs.target == TargetClass::all;
  if (all || inputs.target == TargetClass::intra_socket) params.intra_socket = inputs.pingpong.postal;
  if (all || inputs.target == TargetClass::inter_socket) params.inter_socket = kmodel;
  if (all || inputs.target == TargetClass::inter_node) params.inter_node = kmodel;
  params.eager_threshold_bytes = inputs.pingpong.threshold_bytes;
  if (inputs.pack_unpack) params.pack_unpack = inputs.pack_unpack->table;
  if (inputs.node) params.node_transport = inputs.node->params;
  if (inputs.mapping) params.mapping = inputs.mapping;

  const std::string target = all ? "all" : inputs.target == TargetClass::intra_socket ? "intra_socket"
                                         : inputs.target == TargetClass::inter_socket ? "inter_socket"
                                                                                      : "inter_node";
  Provenance provenance;
  provenance.source = "haloflag_calibrate_merge: ping-pong " + inputs.pingpong.source +
                      ", concurrent " + inputs.concurrent.source +
                      (inputs.pack_unpack ? ", pack/unpack " + inputs.pack_unpack_source : "") +
                      (inputs.node ? ", node " + inputs.node->source : "") +
                      (inputs.base ? ", base " + inputs.base_source : "");
  provenance.machine = !inputs.machine.empty()                     ? inputs.machine
                       : inputs.base && !all                       ? inputs.base->provenance.machine
                       : !inputs.pingpong.host.empty()             ? inputs.pingpong.host
                                                                   : "unknown";
  provenance.date = utc_now_iso8601() + " (written); ping-pong measured " + inputs.pingpong.date;
  provenance.units = std::string(kStandardUnits);
  if (all) {
    provenance.notes.push_back(
        "every link class (intra_socket, inter_socket, inter_node) set from the one measured "
        "link: a stand-in for the classes the run did not cross");
  } else {
    provenance.notes.push_back("class " + target + " measured; the others kept from " +
                               inputs.base_source + " (" + inputs.base->provenance.source + ")");
  }
  provenance.notes.push_back("eager threshold from the ping-pong (" + inputs.pingpong.method + ")");
  if (!inputs.pack_unpack) {
    provenance.notes.push_back("pack/unpack table kept from " + inputs.base_source);
  } else if (!inputs.pack_unpack->provenance.source.empty()) {
    provenance.notes.push_back("pack/unpack table: " + inputs.pack_unpack->provenance.source +
                               " on " + inputs.pack_unpack->provenance.machine);
  }
  if (inputs.node) {
    provenance.notes.push_back("node_transport: haloflag_calibrate_node on " + inputs.node->gpu +
                               ", " + inputs.node->date);
    provenance.notes.insert(provenance.notes.end(), inputs.node->notes.begin(),
                            inputs.node->notes.end());
  } else if (params.node_transport) {
    provenance.notes.push_back("node_transport kept from " + inputs.base_source);
  }
  for (const std::vector<std::string>* list :
       {&inputs.pingpong.notes, &inputs.concurrent.notes,
        static_cast<const std::vector<std::string>*>(&notes)}) {
    provenance.notes.insert(provenance.notes.end(), list->begin(), list->end());
  }
  params.provenance = std::move(provenance);
  return params;
}

}  // namespace haloflag::model::calibration
