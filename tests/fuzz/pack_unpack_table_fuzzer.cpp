// Fuzz target: the pack/unpack table file reader (model::parse_pack_unpack_table) on arbitrary
// text. Accepted files must come back from pack_unpack_table_to_json -> parse equal (times to the
// writer's 12 significant digits), the written text must be a fixed point of write(read(...)),
// and every lookup must give a finite time > 0; rejections must be ParamsErrors whose every
// problem names "fuzz-input".
#include <cmath>
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
using haloflag::model::PackUnpackPoint;
using haloflag::model::PackUnpackTable;
using haloflag::model::PackUnpackTableFile;
using haloflag::model::ParamsError;

const std::string kSource(haloflag::fuzz::kSourceName);

PackUnpackTableFile parse_text(const std::string& text) {
  return haloflag::model::parse_pack_unpack_table(text, kSource);
}

// Lookups below, at and between the measured sizes (extrapolation beyond the last size is a
// model choice, not the reader's: it is left out).
void check_lookups(const PackUnpackTable& table) {
  const auto check = [&](std::int64_t bytes) {
    for (const double seconds : {table.pack_time(bytes).seconds, table.unpack_time(bytes).seconds}) {
      require(std::isfinite(seconds) && seconds > 0.0,
              "lookup of " + std::to_string(bytes) + " B gave " + std::to_string(seconds) + " s");
    }
  };
  check(0);
  const auto& points = table.points();
  for (std::size_t i = 0; i < points.size(); ++i) {
    check(points[i].bytes);
    if (i + 1 < points.size()) check(points[i].bytes + (points[i + 1].bytes - points[i].bytes) / 2);
  }
}

void check_accepted(const PackUnpackTableFile& file) {
  check_lookups(file.table);
  const std::string written = haloflag::model::pack_unpack_table_to_json(file);
  const PackUnpackTableFile again =
      must_accept([&] { return parse_text(written); }, "reading back the written table file");
  const std::string rewritten = haloflag::model::pack_unpack_table_to_json(again);
  require(rewritten == written, "writing the read-back table gave other text:\n" + written +
                                    "\nthen:\n" + rewritten);
  require(again.provenance == file.provenance, "the provenance changed on write -> read");
  require(haloflag::fuzz::same_pack_unpack_table(again.table, file.table),
          "the table changed on write -> read:\n" + written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(haloflag::fuzz::as_text(data, size));
  haloflag::fuzz::check_reader<ParamsError>([&] { return parse_text(text); }, check_accepted);
  return 0;
}
