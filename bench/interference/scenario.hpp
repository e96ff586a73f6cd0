// The cases of the paper's §4.3: where the sender's GPU writes while its CPU sends one buffer
// with MPI_Send, and how the GPU's threads are organised while they write.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace haloflag::bench::interference {

enum class Scenario {
  none,    // baseline: no GPU access at all, the host filled the buffer once
  ssb,     // Sequential, Single Buffer: the GPU writes the buffer, its kernel ends, then the send
  psb,     // Parallel, Single Buffer: the GPU writes the buffer, notifies, and keeps writing it
           // during the send (outside the MPI standard: the buffer changes while it is sent)
  pcb,     // Parallel, Consecutive Buffers: after notifying, the GPU writes the buffer right
           // after the send buffer
  p2ab,    // Parallel, 2 MiB Apart Buffers: as PCB with a gap between the two buffers
  copies,  // no kernel: large host<->device copies run on other streams during the send
};

// stream: one block of the most threads a block can have (the stream approach, §4.1);
// stacked: every block that can be resident, one cooperative grid with grid barriers (§4.2).
enum class AccessForm { stream, stacked };

std::string_view to_string(Scenario scenario);  // "none", "SSB", "PSB", "PCB", "P2AB", "copies"
std::string_view to_string(AccessForm form);    // "stream", "stacked"
// One line on what the GPU and the CPU do in the scenario.
std::string_view describe(Scenario scenario);

// Scenarios in which a kernel writes pinned host memory (and so an access form applies).
bool kernel_writes(Scenario scenario);
// Scenarios in which the kernel keeps writing while MPI_Send runs.
bool writes_during_send(Scenario scenario);

// Comma-separated names, any case; "all" for every one. The baseline (none) is always measured
// and cannot be chosen. Throws std::invalid_argument naming the bad entry and the choices.
std::vector<Scenario> parse_scenario_list(std::string_view text);
std::vector<AccessForm> parse_access_list(std::string_view text);

// One measured case: a scenario, its access form (none for the baseline and copies), a size.
struct CaseKey {
  Scenario scenario = Scenario::none;
  std::optional<AccessForm> access;
  std::size_t bytes = 0;
};

// The cases of one size in measuring order: the baseline first, then per access form SSB, PSB,
// PCB, P2AB (those chosen), then copies, so each ratio divides times taken moments apart.
std::vector<CaseKey> cases_of_size(std::size_t bytes, const std::vector<Scenario>& scenarios,
                                   const std::vector<AccessForm>& forms);

}  // namespace haloflag::bench::interference
