#include <fstream>
#include <ostream>
#include <string>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/errors.hpp"

namespace haloflag::halo {

namespace {

void write_comment(std::ostream& out, std::string_view comment) {
  while (!comment.empty()) {
    const std::size_t end = comment.find('\n');
    const std::string_view line = comment.substr(0, end);
    out << (line.empty() ? "#" : "# ") << line << '\n';
    if (end == std::string_view::npos) break;
    comment.remove_prefix(end + 1);
  }
}

void write_message(std::ostream& out, const char* keyword, const Message& m) {
  out << keyword << " peer=" << m.peer << " tag=" << m.tag << " bytes=" << m.bytes;
  for (const kernels::Box& box : m.boxes) {
    out << " box=" << box.begin[0] << ',' << box.begin[1] << ',' << box.begin[2] << ':'
        << box.extent[0] << ',' << box.extent[1] << ',' << box.extent[2];
  }
  out << '\n';
}

}  // namespace

void write_config(std::ostream& out, const ExchangeConfig& config, std::string_view comment) {
  write_comment(out, comment);
  out << kConfigMagic << ' ' << kConfigFormatVersion << '\n';
  out << "ranks " << config.ranks << '\n';
  if (config.data) {
    out << "data vars=" << config.data->vars << " element_bytes=";
    if (config.data->variable_bytes.empty()) {
      out << config.data->element_bytes;
    } else {
      for (std::size_t v = 0; v < config.data->variable_bytes.size(); ++v) {
        out << (v == 0 ? "" : ",") << config.data->variable_bytes[v];
      }
    }
    out << '\n';
  }
  if (config.geometry) {
    const GeometryRecord& g = *config.geometry;
    out << "geometry size=" << format_triple(g.global_size) << " divide=" << format_triple(g.divide)
        << " periodic=" << format_triple(g.periodic) << " ghost=" << format_triple(g.ghost)
        << " stencil=" << stencil_points(g.stencil);
    if (g.reduced_from_rank) out << " reduced_from_rank=" << *g.reduced_from_rank;
    // Two ranks, the first reduction, go without the field: their files stay as they were.
    if (g.reduced_from_rank && g.reduced_ranks != 2) out << " reduced_ranks=" << g.reduced_ranks;
    out << '\n';
  }
  for (std::size_t rank = 0; rank < config.rank_messages.size(); ++rank) {
    const RankMessages& messages = config.rank_messages[rank];
    out << "\nrank " << rank;
    if (messages.field_extent) out << " field=" << format_triple(*messages.field_extent);
    out << '\n';
    for (const Message& m : messages.sends) write_message(out, "send", m);
    for (const Message& m : messages.recvs) write_message(out, "recv", m);
  }
}

void write_config_file(const std::filesystem::path& path, const ExchangeConfig& config,
                       std::string_view comment) {
  std::ofstream out(path);
  if (!out) throw ConfigError(path.string() + ": cannot open for writing");
  write_config(out, config, comment);
  out.flush();
  if (!out) throw ConfigError(path.string() + ": writing failed");
}

}  // namespace haloflag::halo
