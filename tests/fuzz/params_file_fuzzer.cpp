// Fuzz target: the model parameter-file reader (model::parse_params) on arbitrary text.
// Accepted files must come back from params_to_json -> parse_params equal (pack/unpack times
// to the writer's 12 significant digits) and the written text must be a fixed point of
// write(read(...)); rejections must be ParamsErrors whose every problem names "fuzz-input".
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_contract.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"
#include "same_pack_unpack_table.hpp"

namespace {

using haloflag::fuzz::must_accept;
using haloflag::fuzz::require;
using haloflag::model::MachineParams;
using haloflag::model::ParamsError;

const std::string kSource(haloflag::fuzz::kSourceName);

MachineParams parse_text(const std::string& text) {
  return haloflag::model::parse_params(text, kSource);
}

void check_accepted(const MachineParams& params) {
  const std::string written = haloflag::model::params_to_json(params);
  const MachineParams again =
      must_accept([&] { return parse_text(written); }, "reading back the written parameter file");
  const std::string rewritten = haloflag::model::params_to_json(again);
  require(rewritten == written, "writing the read-back parameters gave other text:\n" + written +
                                    "\nthen:\n" + rewritten);
  require(haloflag::fuzz::same_pack_unpack_table(again.pack_unpack, params.pack_unpack),
          "the pack/unpack table changed on write -> read:\n" + written);
  MachineParams comparable = again;
  comparable.pack_unpack = params.pack_unpack;
  require(comparable == params, "params_to_json -> parse_params changed the parameters:\n" + written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(haloflag::fuzz::as_text(data, size));
  haloflag::fuzz::check_reader<ParamsError>([&] { return parse_text(text); }, check_accepted);
  return 0;
}
