#include "scenario.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace haloflag::bench::interference {

namespace {

constexpr std::array kChoosable{Scenario::ssb, Scenario::psb, Scenario::pcb, Scenario::p2ab,
                                Scenario::copies};
constexpr std::array kForms{AccessForm::stream, AccessForm::stacked};

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

// Splits "a,b,c" and maps each entry with `parse`; duplicates collapse, `order` decides the order.
template <class T, std::size_t N, class Parse>
std::vector<T> parse_list(std::string_view text, const std::array<T, N>& order, Parse parse) {
  if (lowercase(text) == "all") return {order.begin(), order.end()};
  std::array<bool, N> chosen{};
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const T value = parse(text.substr(begin, end - begin));
    chosen[static_cast<std::size_t>(std::find(order.begin(), order.end(), value) - order.begin())] =
        true;
    begin = end + 1;
  }
  std::vector<T> result;
  for (std::size_t i = 0; i < N; ++i) {
    if (chosen[i]) result.push_back(order[i]);
  }
  return result;
}

}  // namespace

std::string_view to_string(Scenario scenario) {
  switch (scenario) {
    case Scenario::none: return "none";
    case Scenario::ssb: return "SSB";
    case Scenario::psb: return "PSB";
    case Scenario::pcb: return "PCB";
    case Scenario::p2ab: return "P2AB";
    case Scenario::copies: return "copies";
  }
  return "?";
}

std::string_view to_string(AccessForm form) {
  return form == AccessForm::stream ? "stream" : "stacked";
}

std::string_view describe(Scenario scenario) {
  switch (scenario) {
    case Scenario::none: return "baseline: no GPU access; the host filled the send buffer once";
    case Scenario::ssb:
      return "sequential, single buffer: the GPU writes the send buffer, its kernel ends, then "
             "MPI_Send";
    case Scenario::psb:
      return "parallel, single buffer: the GPU writes the send buffer, notifies, and keeps writing "
             "it during MPI_Send (outside the MPI standard)";
    case Scenario::pcb:
      return "parallel, consecutive buffers: after notifying, the GPU keeps writing the buffer "
             "right after the send buffer";
    case Scenario::p2ab:
      return "parallel, buffers apart: after notifying, the GPU keeps writing a buffer that starts "
             "a gap (2 MiB unless --p2ab-gap-bytes says otherwise) after the send buffer";
    case Scenario::copies:
      return "no kernel: host->device and device->host copies of a large pinned buffer run on "
             "two other streams during MPI_Send";
  }
  return "?";
}

bool kernel_writes(Scenario scenario) {
  return scenario == Scenario::ssb || writes_during_send(scenario);
}

bool writes_during_send(Scenario scenario) {
  return scenario == Scenario::psb || scenario == Scenario::pcb || scenario == Scenario::p2ab;
}

std::vector<Scenario> parse_scenario_list(std::string_view text) {
  return parse_list(text, kChoosable, [](std::string_view name) {
    const std::string wanted = lowercase(name);
    for (const Scenario scenario : kChoosable) {
      if (lowercase(to_string(scenario)) == wanted) return scenario;
    }
    throw std::invalid_argument("unknown scenario '" + std::string(name) +
                                "'; choose from ssb, psb, pcb, p2ab, copies or all (the "
                                "baseline 'none' is always measured)");
  });
}

std::vector<AccessForm> parse_access_list(std::string_view text) {
  return parse_list(text, kForms, [](std::string_view name) {
    const std::string wanted = lowercase(name);
    for (const AccessForm form : kForms) {
      if (to_string(form) == wanted) return form;
    }
    throw std::invalid_argument("unknown access form '" + std::string(name) +
                                "'; choose from stream, stacked or all");
  });
}

std::vector<CaseKey> cases_of_size(std::size_t bytes, const std::vector<Scenario>& scenarios,
                                   const std::vector<AccessForm>& forms) {
  std::vector<CaseKey> cases{{Scenario::none, std::nullopt, bytes}};
  for (const AccessForm form : forms) {
    for (const Scenario scenario : scenarios) {
      if (kernel_writes(scenario)) cases.push_back({scenario, form, bytes});
    }
  }
  if (std::find(scenarios.begin(), scenarios.end(), Scenario::copies) != scenarios.end()) {
    cases.push_back({Scenario::copies, std::nullopt, bytes});
  }
  return cases;
}

}  // namespace haloflag::bench::interference
