// Which model parameter file a run uses: the one given, else this machine's calibration (per GPU
// model and MPI library: scripts/calibrate_machine.sh caches it, and model/params/ ships some),
// else the paper's Power9 + V100 file, with how to make this machine's.
#pragma once

#include <string>

namespace haloflag::bench {

struct ParamsChoice {
  std::string path;
  std::string machine_key;  // e.g. "nvidia-h100-80gb-hbm3__open-mpi-v4.1.6"; "nvidia-h200-x2__..."
  bool for_this_machine = false;
  std::string how;          // how the file was chosen, for the heading
};

// "nvidia-h100-80gb-hbm3__open-mpi-v4.1.6": the GPU's name ("host" without a GPU), "-x<gpus>"
// when the ranks use several GPUs (one GPU's ranks share it under MPS, several talk over their
// links: different machines to the model), and the MPI library's first words (up to the first
// comma), lower case, runs of other characters as '-'.
std::string machine_params_key(const std::string& gpu_name, int gpus,
                               const std::string& mpi_library);

// `given` empty: looks for <key>.json in $HALOFLAG_PARAMS_DIR, in
// ${XDG_CACHE_HOME:-$HOME/.cache}/haloflag/params and in the source tree's model/params, in that
// order.
ParamsChoice choose_params(const std::string& given, const std::string& gpu_name, int gpus,
                           const std::string& mpi_library);

}  // namespace haloflag::bench
