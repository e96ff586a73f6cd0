#include "transports/node/node_memory_sharing.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "deadline_collectives.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::halo::detail {
namespace {

struct HandleEntry {
  kernels::IpcHandle handle;
  std::int32_t valid = 0;
  std::int32_t unused = 0;
};

// A rank's FieldSet (the first, or one given to map_fields) as its node peers open it: a handle
// per distinct allocation, and where each variable lies in its allocation, with its strides and
// element size (its base is this rank's address, which means nothing to the peer).
struct FieldExport {
  std::array<kernels::IpcHandle, kernels::kMaxVariables> handles{};
  std::array<std::int64_t, kernels::kMaxVariables> offsets{};
  std::array<kernels::VariableView, kernels::kMaxVariables> views{};
  std::array<std::int32_t, kernels::kMaxVariables> handle_of{};
  std::int32_t handle_count = 0;
  std::int32_t variable_count = 0;
  std::int32_t valid = 0;
  std::int32_t unused = 0;
  std::array<char, 160> failure{};
};

FieldExport export_fields_of(const kernels::FieldSet& fields) {
  FieldExport exported;
  try {
    std::vector<const void*> bases;
    for (int v = 0; v < fields.variable_count; ++v) {
      const kernels::VariableView& view = fields.variables[v];
      const void* base = kernels::allocation_base(view.base);
      auto found = std::find(bases.begin(), bases.end(), base);
      if (found == bases.end()) {
        exported.handles[bases.size()] = kernels::export_ipc_handle(base);
        bases.push_back(base);
        found = bases.end() - 1;
      }
      exported.handle_of[static_cast<std::size_t>(v)] =
          static_cast<std::int32_t>(found - bases.begin());
      exported.offsets[static_cast<std::size_t>(v)] =
          view.base - static_cast<const std::byte*>(base);
      exported.views[static_cast<std::size_t>(v)] = view;
    }
    exported.handle_count = static_cast<std::int32_t>(bases.size());
    exported.variable_count = fields.variable_count;
    exported.valid = 1;
  } catch (const std::exception& error) {
    std::snprintf(exported.failure.data(), exported.failure.size(), "%s", error.what());
  }
  return exported;
}

}  // namespace

// GPU: the device region, its IPC handle, and the handles of this rank's node peers. The region
// is in device memory when every node peer could map it.
void NodeMemorySharing::place_region(const std::vector<int>& node_peers,
                                     const ExchangeOptions& options, std::int64_t region_bytes) {
  const bool any_peer = !node_peers.empty();
  try_device_ = node_.gpu() && options.advanced.node_mapping == NodeMapping::automatic;
  if (node_.gpu()) {
    sharing_ = share_device_memory(node_peers, options.backend, try_device_ && any_peer,
                                   region_bytes, try_device_);
  }
  const auto opened_by = [&](int q, int p) {
    return sharing_.opened_by.empty() ||
           sharing_.opened_by[static_cast<std::size_t>(q * node_.node_size() + p)] != 0;
  };
  in_device_ = try_device_ && sharing_.exported;
  for (int peer : node_peers) {
    if (!opened_by(node_.node_rank_of(peer), node_.node_rank())) in_device_ = false;
  }
  host_region_needed_ = any_peer && !in_device_;
}

NodeMemorySharing::DeviceSharing NodeMemorySharing::share_device_memory(
    const std::vector<int>& node_peers, notify::Backend backend, bool export_region,
    std::int64_t region_bytes, bool open_handles) {
  const int node_size = node_.node_size();
  DeviceSharing sharing;
  HandleEntry mine;
  if (export_region) {
    try {
      device_region_ = std::make_unique<kernels::DeviceMemory>(
          backend, static_cast<std::size_t>(region_bytes));
      mine.handle = kernels::export_ipc_handle(device_region_->data());
      mine.valid = 1;
      sharing.exported = true;
    } catch (const std::exception& error) {
      sharing.export_failure = error.what();
    }
  }
  const std::vector<HandleEntry> handles =
      all_gather(mine, node_.comm(), timeout_, "exchanging IPC handles");
  std::vector<std::int32_t> opened(static_cast<std::size_t>(node_size), 1);
  mappings_.resize(static_cast<std::size_t>(node_size));
  for (int peer : node_peers) {
    const int q = node_.node_rank_of(peer);
    const HandleEntry& entry = handles[static_cast<std::size_t>(q)];
    std::string why;
    if (!open_handles) {
      why = "host mapping forced";
    } else if (!entry.valid) {
      why = "peer " + std::to_string(peer) + " has no IPC handle to give";
    } else {
      try {
        mappings_[static_cast<std::size_t>(q)] = kernels::IpcMapping(entry.handle);
      } catch (const std::exception& error) {
        why = error.what();
        std::fprintf(stderr,
                     "node rank %d: node transport: the IPC handle of peer %d did not open (%s); "
                     "its messages go through pinned host memory\n",
                     node_.node_rank(), peer, error.what());
      }
    }
    if (!why.empty()) {
      opened[static_cast<std::size_t>(q)] = 0;
      sharing.refused[peer] = why;
    }
  }
  sharing.opened_by.assign(static_cast<std::size_t>(node_size * node_size), 1);
  MPI_Request request = MPI_REQUEST_NULL;
  check_node_step(MPI_Iallgather(opened.data(), node_size, MPI_INT32_T, sharing.opened_by.data(),
                                 node_size, MPI_INT32_T, node_.comm(), &request),
                  "gathering which IPC handles opened");
  wait_with_deadline(request, timeout_, "gathering which IPC handles opened");
  return sharing;
}

std::map<int, kernels::FieldSet> NodeMemorySharing::share_fields(
    const kernels::FieldSet& fields, const std::vector<int>& send_peers, bool export_fields,
    std::map<int, std::string>& why_not) {
  FieldExport mine;
  if (export_fields) {
    mine = export_fields_of(fields);
  } else {
    std::snprintf(mine.failure.data(), mine.failure.size(), "%s",
                  "no field mapping on this backend or with a forced host mapping");
  }
  const std::vector<FieldExport> exports =
      all_gather(mine, node_.comm(), timeout_, "exchanging field handles");
  std::map<int, kernels::FieldSet> mapped;
  for (int peer : send_peers) {
    const int q = node_.node_rank_of(peer);
    kernels::FieldSet target{};
    if (const FieldExport& theirs = exports[static_cast<std::size_t>(q)]; !theirs.valid) {
      why_not[peer] = std::string("its fields are not shared: ") + theirs.failure.data();
    } else {
      try {
        std::vector<void*> bases;
        for (int h = 0; h < theirs.handle_count; ++h) {
          field_mappings_.emplace_back(theirs.handles[static_cast<std::size_t>(h)]);
          bases.push_back(field_mappings_.back().data());
        }
        target.variable_count = theirs.variable_count;
        for (int v = 0; v < theirs.variable_count; ++v) {
          const auto i = static_cast<std::size_t>(v);
          target.variables[v] = theirs.views[i];
          target.variables[v].base =
              static_cast<std::byte*>(bases[static_cast<std::size_t>(theirs.handle_of[i])]) +
              theirs.offsets[i];
        }
        target.alignment = kernels::alignment_of(target);
      } catch (const std::exception& error) {
        target = {};
        why_not[peer] = std::string("its fields did not open here: ") + error.what();
      }
    }
    mapped[peer] = target;
  }
  return mapped;
}

// The shared segment: this rank's mailbox lines, then its region where it is not on the GPU.
void NodeMemorySharing::create_segments(std::int64_t my_mailbox_bytes, std::int64_t region_bytes) {
  // Every segment puts its region after the same mailbox size, so that a peer finds a rank's
  // region without knowing its receive count (which differs at a non-periodic boundary).
  mailbox_bytes_ = 0;
  for (const std::int64_t bytes :
       all_gather(my_mailbox_bytes, node_.comm(), timeout_, "agreeing on the mailbox size")) {
    mailbox_bytes_ = std::max(mailbox_bytes_, bytes);
  }
  const std::int64_t segment_bytes = mailbox_bytes_ + (host_region_needed_ ? region_bytes : 0);
  segments_ = std::make_unique<SharedSegments>(node_.comm(),
                                               static_cast<std::size_t>(segment_bytes), timeout_);
  if (host_region_needed_) host_region_ = segment(node_.node_rank()) + mailbox_bytes_;
}

bool NodeMemorySharing::register_segments(bool needed, std::vector<std::string>& problems) {
  if (!needed) return true;
  try {
    for (int q = 0; q < node_.node_size(); ++q) {
      registrations_.emplace_back(segments_->segment(q), segments_->bytes(q));
    }
  } catch (const std::exception& error) {
    problems.push_back(std::string("the node's shared memory cannot be registered for the "
                                   "GPU, so the pinned-host fallback is unavailable: ") +
                       error.what());
    return false;
  }
  return true;
}

std::byte* NodeMemorySharing::region_of(int q, bool peer_in_device) const {
  const auto device_view = [&](std::byte* host) -> std::byte* {
    if (!node_.gpu()) return host;
    return static_cast<std::byte*>(
        registrations_[static_cast<std::size_t>(q)].device_address(host));
  };
  if (q == node_.node_rank()) {
    return in_device_ ? static_cast<std::byte*>(device_region_->data())
                      : device_view(segment(q) + mailbox_bytes_);
  }
  if (peer_in_device) return static_cast<std::byte*>(mappings_[static_cast<std::size_t>(q)].data());
  return device_view(segment(q) + mailbox_bytes_);
}

std::uint64_t NodeMemorySharing::read_word(std::int64_t offset) const {
  std::uint64_t value = 0;
  if (host_region_ != nullptr) {
    value = notify::load_acquire_system(
        reinterpret_cast<const std::uint64_t*>(host_region_ + offset));
  } else if (device_region_) {
    device_region_->copy_to_host(&value, sizeof value, static_cast<std::size_t>(offset));
  }
  return value;
}

void NodeMemorySharing::close_mappings() {
  mappings_.clear();
  field_mappings_.clear();
  registrations_.clear();
}

}  // namespace haloflag::halo::detail
