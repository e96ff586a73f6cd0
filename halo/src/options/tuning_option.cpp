#include "haloflag/halo/tuning.hpp"

#include <stdexcept>

#include "parse_named.hpp"

namespace haloflag::halo {

std::string_view to_string(Tuning tuning) {
  return tuning == Tuning::automatic ? "auto" : "fixed";
}

Tuning parse_tuning(std::string_view name) {
  constexpr Tuning kTunings[] = {Tuning::fixed, Tuning::automatic};
  return detail::parse_named<Tuning>(name, kTunings, "tuning");
}

std::string WorkOrder::describe() const {
  std::string text = long_receives_on_arrival ? "long receives on arrival" : "receives first";
  text += long_sends_in_turn ? ", long sends in turn" : ", long sends at once";
  text += ", " + std::to_string(long_receive_blocks) +
          (long_receive_blocks == 1 ? " block" : " blocks") + " per long receive";
  if (mpi_piece_bytes == 0) text += ", MPI messages whole";
  if (mpi_piece_bytes > 0) text += ", MPI pieces of " + std::to_string(mpi_piece_bytes) + " B";
  if (node_piece_bytes > 0) {
    text += ", node pieces of " + std::to_string(node_piece_bytes) + " B by blocks of " +
            std::to_string(node_threads) + " threads";
  }
  return text;
}

std::string TuningReport::summary() const {
  if (!tuned) return reason;
  return "auto: " + chosen.describe() + " (fastest of " + std::to_string(candidates.size()) +
         " by more than " + std::to_string(static_cast<int>(kTuningMargin * 100)) +
         "%, else the given one; " + std::to_string(exchanges_per_candidate) + " exchanges each)";
}

}  // namespace haloflag::halo
