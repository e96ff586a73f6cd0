// haloflag_gen_config: writes a communication config from Comb-style geometry arguments.
//
//   haloflag_gen_config --size 200 --divide 4,4,4 --periodic 1,1,1 --ghost 1 --vars 3 -o f.cfg
//   haloflag_gen_config --size 200 --ranks 8 --periodic 1 --vars 3
//   haloflag_gen_config --size 200 --divide 4,4,4 --periodic 1 --vars 3 --reduce-to-2-ranks 21
//   haloflag_gen_config --size 200 --divide 4,4,4 --periodic 1 --reduce-to-ranks 8 --reduce-rank 21
//
// Triples take "N" (all axes) or "X,Y,Z" (',' or Comb's '_' or 'x' between values). Bad input
// ends with a message on stderr and exit status 1 (CLI11's own non-zero codes for unknown or
// missing options).
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/reduced_peers.hpp"

namespace {

using haloflag::halo::Index3;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::int64_t parse_integer(const std::string& text, const std::string& option) {
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (text.empty() || error != std::errc() || end != last) {
    throw UsageError("--" + option + ": '" + text + "' is not an integer");
  }
  return value;
}

// "N" or "X,Y,Z" (also "X_Y_Z" and "XxYxZ" as Comb writes them).
Index3 parse_triple(const std::string& given, const std::string& option) {
  std::string text = given;
  for (char& c : text) {
    if (c == '_' || c == 'x') c = ',';
  }
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) parts.push_back(part);
  if (!text.empty() && text.back() == ',') parts.push_back("");
  if (parts.size() == 1) parts.assign(3, parts[0]);
  if (parts.size() != 3) {
    throw UsageError("--" + option + " takes N or X,Y,Z, got '" + given + "'");
  }
  return Index3{parse_integer(parts[0], option), parse_integer(parts[1], option),
                parse_integer(parts[2], option)};
}

int to_int(std::int64_t value, const std::string& option) {
  if (value > 1'000'000'000 || value < -1'000'000'000) {
    throw UsageError("--" + option + " value " + std::to_string(value) + " is too large");
  }
  return static_cast<int>(value);
}

struct Arguments {
  std::string size;
  std::string divide;
  std::string ranks;
  std::string periodic = "0,0,0";
  std::string ghost = "1";
  std::string vars = "1";
  std::string element_bytes = "8";
  bool faces_only = false;
  std::string reduce_to_2_ranks;  // --reduce-to-2-ranks R
  std::string reduce_to_ranks;    // --reduce-to-ranks N, with --reduce-rank R
  std::string reduce_rank;
  std::string output = "-";
};

// A config reduced to `ranks` ranks that all replay `source_rank`'s messages.
struct Reduction {
  int ranks = 2;
  int source_rank = 0;
};

// --reduce-to-2-ranks R, or --reduce-to-ranks N --reduce-rank R (CLI11 enforces the pairing);
// empty without either.
std::optional<Reduction> reduction_of(const Arguments& args) {
  if (!args.reduce_to_2_ranks.empty()) {
    return Reduction{2, to_int(parse_integer(args.reduce_to_2_ranks, "reduce-to-2-ranks"),
                               "reduce-to-2-ranks")};
  }
  if (args.reduce_to_ranks.empty()) return std::nullopt;
  const int ranks =
      to_int(parse_integer(args.reduce_to_ranks, "reduce-to-ranks"), "reduce-to-ranks");
  if (!haloflag::halo::is_reduced_rank_count(ranks)) {
    throw UsageError("--reduce-to-ranks takes 2, 4 or 8 ranks, got " + args.reduce_to_ranks);
  }
  return Reduction{ranks, to_int(parse_integer(args.reduce_rank, "reduce-rank"), "reduce-rank")};
}

haloflag::halo::GeometrySpec make_spec(const Arguments& args) {
  haloflag::halo::GeometrySpec spec;
  spec.global_size = parse_triple(args.size, "size");
  if (!args.divide.empty()) {
    const Index3 divide = parse_triple(args.divide, "divide");
    spec.divide = haloflag::halo::RankGrid{to_int(divide[0], "divide"), to_int(divide[1], "divide"),
                                           to_int(divide[2], "divide")};
  }
  if (!args.ranks.empty()) {
    spec.ranks = to_int(parse_integer(args.ranks, "ranks"), "ranks");
  } else if (spec.divide) {
    // The geometry checks each factor; their product is the number of ranks.
    const auto& d = *spec.divide;
    spec.ranks = (d[0] > 0 && d[1] > 0 && d[2] > 0) ? to_int(std::int64_t{d[0]} * d[1] * d[2], "divide")
                                                     : 1;
  } else {
    throw UsageError("give --divide PX,PY,PZ or --ranks N");
  }
  const Index3 periodic = parse_triple(args.periodic, "periodic");
  for (int axis = 0; axis < 3; ++axis) {
    if (periodic[axis] != 0 && periodic[axis] != 1) {
      throw UsageError("--periodic takes 0 or 1 per axis, got '" + args.periodic + "'");
    }
    spec.periodic[axis] = periodic[axis] == 1;
  }
  spec.ghost = parse_triple(args.ghost, "ghost");
  spec.vars = to_int(parse_integer(args.vars, "vars"), "vars");
  spec.element_bytes = to_int(parse_integer(args.element_bytes, "element-bytes"), "element-bytes");
  spec.stencil = args.faces_only ? haloflag::halo::Stencil::faces6 : haloflag::halo::Stencil::all26;
  return spec;
}

// The arguments in canonical form, recorded in the file so that it can be regenerated exactly.
std::string canonical_arguments(const Arguments& args, const haloflag::halo::GeometrySpec& spec,
                                std::optional<Reduction> reduction) {
  using haloflag::halo::format_triple;
  std::string text = "--size " + format_triple(spec.global_size);
  if (!args.divide.empty()) {
    text += " --divide " + format_triple(*spec.divide);
  } else {
    text += " --ranks " + std::to_string(spec.ranks);
  }
  text += " --periodic " + format_triple(spec.periodic) + " --ghost " + format_triple(spec.ghost) +
          " --vars " + std::to_string(spec.vars) + " --element-bytes " +
          std::to_string(spec.element_bytes);
  if (args.faces_only) text += " --faces-only";
  // Two ranks keep the option they were first written with, so those files stay unchanged.
  if (reduction && reduction->ranks == 2) {
    text += " --reduce-to-2-ranks " + std::to_string(reduction->source_rank);
  } else if (reduction) {
    text += " --reduce-to-ranks " + std::to_string(reduction->ranks) + " --reduce-rank " +
            std::to_string(reduction->source_rank);
  }
  return text;
}

// The header's account of a reduction: who sends to whom, and what an exchange must deliver.
std::string describe_reduction(const Reduction& reduction) {
  const std::string source = std::to_string(reduction.source_rank);
  // Two ranks keep the wording of the files written before the rule had more peers.
  if (reduction.ranks == 2) {
    return "reduced to 2 ranks: both replay the messages of rank " + source +
           ", sending every message to the other rank.\n"
           "Check: a ghost cell at local index L holds the other rank's owned cell at\n"
           "((L - ghost) mod extent) + ghost per axis (a periodic box of one subdomain).";
  }
  const std::string mask = reduction.ranks == 4
                               ? "bit0 = px OR pz, bit1 = py (3 peers per rank)"
                               : "bit0 = px, bit1 = py, bit2 = pz (7 peers per rank: a periodic "
                                 "2x2x2 grid)";
  return "reduced to " + std::to_string(reduction.ranks) + " ranks: each replays the messages of "
         "rank " + source + ", sending the message in\n"
         "direction d = (dx,dy,dz) to rank XOR mask(p), p = (dx!=0, dy!=0, dz!=0), where\n"
         "mask: " + mask + ";\n"
         "d and -d share their peer, so every send meets that peer's receive from -d.\n"
         "Check: a ghost cell at local index L on side d holds the owned cell of the peer of d\n"
         "at ((L - ghost) mod extent) + ghost per axis (a periodic box of one subdomain).";
}

std::string describe(const haloflag::halo::Geometry& geometry, std::optional<Reduction> reduction) {
  using haloflag::halo::format_triple;
  const auto& spec = geometry.spec();
  std::string text = "domain " + format_triple(spec.global_size, 'x') + " cells on rank grid " +
                     format_triple(geometry.rank_grid(), 'x') + ", periodic " +
                     format_triple(spec.periodic) + ", ghost " + format_triple(spec.ghost) + ", " +
                     std::to_string(spec.vars) + " vars of " + std::to_string(spec.element_bytes) +
                     " bytes, " + std::to_string(haloflag::halo::stencil_points(spec.stencil)) +
                     " neighbours";
  if (reduction) text += "\n" + describe_reduction(*reduction);
  return text;
}

int generate(const Arguments& args) {
  const haloflag::halo::GeometrySpec spec = make_spec(args);
  const std::optional<Reduction> reduction = reduction_of(args);
  const haloflag::halo::Geometry geometry(spec);
  const haloflag::halo::ExchangeConfig config =
      reduction ? haloflag::halo::make_reduced_config(geometry, reduction->source_rank,
                                                      reduction->ranks)
                : haloflag::halo::make_exchange_config(geometry);
  const std::string comment =
      "haloflag communication config, written by haloflag_gen_config\narguments: " +
      canonical_arguments(args, geometry.spec(), reduction) + "\n" + describe(geometry, reduction);
  if (args.output == "-") {
    haloflag::halo::write_config(std::cout, config, comment);
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("writing to standard output failed");
  } else {
    haloflag::halo::write_config_file(args.output, config, comment);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes a haloflag communication config (docs/comb_config_format.md) from "
               "Comb-style geometry arguments."};
  Arguments args;
  app.add_option("--size", args.size, "global cells")->type_name("N|NX,NY,NZ")->required();
  app.add_option("--divide", args.divide, "rank grid (default: chosen from --ranks)")
      ->type_name("PX,PY,PZ");
  app.add_option("--ranks", args.ranks, "number of ranks; the grid is chosen automatically "
                                        "unless --divide is given")
      ->type_name("N");
  app.add_option("--periodic", args.periodic, "periodic axes, 0 or 1 each")
      ->type_name("P|PX,PY,PZ")
      ->capture_default_str();
  app.add_option("--ghost", args.ghost, "ghost width in cells")
      ->type_name("G|GX,GY,GZ")
      ->capture_default_str();
  app.add_option("--vars", args.vars, "variables per cell")->type_name("V")->capture_default_str();
  app.add_option("--element-bytes", args.element_bytes, "bytes per variable value")
      ->type_name("B")
      ->capture_default_str();
  app.add_flag("--faces-only", args.faces_only, "exchange with the 6 face neighbours only");
  auto* reduce_two = app.add_option("--reduce-to-2-ranks", args.reduce_to_2_ranks,
                                    "replay this rank's messages on two ranks (the paper's "
                                    "Fig. 14 runs)")
                         ->type_name("RANK");
  auto* reduce_ranks = app.add_option("--reduce-to-ranks", args.reduce_to_ranks,
                                      "replay the messages of --reduce-rank on 2, 4 or 8 ranks, "
                                      "each message to the peer rank XOR mask(direction)")
                           ->type_name("N")
                           ->excludes(reduce_two);
  auto* reduce_rank = app.add_option("--reduce-rank", args.reduce_rank,
                                     "the rank whose messages --reduce-to-ranks replays")
                          ->type_name("RANK")
                          ->excludes(reduce_two);
  reduce_ranks->needs(reduce_rank);
  reduce_rank->needs(reduce_ranks);
  app.add_option("-o,--output", args.output, "output file, - for standard output")
      ->type_name("FILE")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return generate(args);
  } catch (const std::exception& e) {
    std::cerr << "haloflag_gen_config: error: " << e.what() << '\n';
    return 1;
  }
}
