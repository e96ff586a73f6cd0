// The config parser: validates every line and then the cross-rank consistency, collecting all
// problems as "<source>:<line>: reason" before throwing one ConfigError with all of them.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <istream>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/reduced_peers.hpp"

namespace haloflag::halo {

namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;  // far above any real size

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// The product of non-negative factors, or nothing when it does not fit in 64 bits (values come
// from the file: three extents of up to 2^53 overflow).
std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t product = 1;
  for (const std::int64_t factor : factors) {
    if (__builtin_mul_overflow(product, factor, &product)) return std::nullopt;
  }
  return product;
}

// Problems with their line numbers; reported sorted by line so the output reads top-down.
class Problems {
 public:
  explicit Problems(std::string source) : source_(std::move(source)) {}

  void add(int line, const std::string& reason) { entries_.emplace_back(line, reason); }
  bool empty() const { return entries_.empty(); }

  std::vector<std::string> sorted_messages() const {
    std::vector<std::pair<int, std::string>> entries = entries_;
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> messages;
    for (const auto& [line, reason] : entries) {
      messages.push_back(source_ + ":" + std::to_string(line) + ": " + reason);
    }
    return messages;
  }

 private:
  std::string source_;
  std::vector<std::pair<int, std::string>> entries_;
};

// One line being parsed: where problems go and which line they name.
struct LineContext {
  Problems& problems;
  int line;
  void fail(const std::string& reason) const { problems.add(line, reason); }
};

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  };
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

std::vector<std::string_view> split_on(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

// A decimal number in [min_value, max_value]; every config value is a non-negative integer.
std::optional<std::int64_t> parse_number(std::string_view text, std::string_view field,
                                         const LineContext& ctx, std::int64_t min_value = 0,
                                         std::int64_t max_value = kMaxCount) {
  if (text.empty()) {
    ctx.fail("missing value for " + quoted(field));
    return std::nullopt;
  }
  const bool negative = text.front() == '-';
  const std::string_view digits = negative ? text.substr(1) : text;
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  if (!all_digits) {
    ctx.fail("non-numeric value " + quoted(text) + " for " + quoted(field));
    return std::nullopt;
  }
  if (negative) {
    ctx.fail("negative value " + std::string(text) + " for " + quoted(field));
    return std::nullopt;
  }
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || value > max_value) {
    ctx.fail("value " + std::string(text) + " for " + quoted(field) + " is too large (at most " +
             std::to_string(max_value) + ")");
    return std::nullopt;
  }
  if (value < min_value) {
    ctx.fail(quoted(field) + " must be " + (min_value == 1 ? "positive" : "at least " +
             std::to_string(min_value)) + ", got " + std::string(text));
    return std::nullopt;
  }
  return value;
}

std::optional<int> parse_int(std::string_view text, std::string_view field,
                             const LineContext& ctx, std::int64_t min_value = 0) {
  const auto value = parse_number(text, field, ctx, min_value, kMaxInt);
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

std::optional<Index3> parse_triple(std::string_view text, std::string_view field,
                                   const LineContext& ctx, std::int64_t min_value,
                                   std::int64_t max_value = kMaxCount) {
  const std::vector<std::string_view> parts = split_on(text, ',');
  if (parts.size() != 3) {
    ctx.fail(quoted(field) + " needs three comma-separated values x,y,z, got " + quoted(text));
    return std::nullopt;
  }
  Index3 values{};
  bool ok = true;
  for (int axis = 0; axis < 3; ++axis) {
    const std::string name = std::string(field) + " (" + kAxisNames[axis] + ")";
    const auto value = parse_number(parts[static_cast<std::size_t>(axis)], name, ctx, min_value,
                                    max_value);
    if (value) {
      values[axis] = *value;
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return values;
}

// "BX,BY,BZ:EX,EY,EZ": begin (>= 0) and extent (> 0) in the local field.
std::optional<kernels::Box> parse_box(std::string_view text, const LineContext& ctx) {
  const std::vector<std::string_view> halves = split_on(text, ':');
  if (halves.size() != 2) {
    ctx.fail("box " + quoted(text) + " must read BEGIN_X,BEGIN_Y,BEGIN_Z:EXTENT_X,EXTENT_Y,EXTENT_Z");
    return std::nullopt;
  }
  const auto begin = parse_triple(halves[0], "box begin", ctx, 0);
  const auto extent = parse_triple(halves[1], "box extent", ctx, 1);
  if (!begin || !extent) return std::nullopt;
  kernels::Box box{};
  for (int axis = 0; axis < 3; ++axis) {
    box.begin[axis] = (*begin)[axis];
    box.extent[axis] = (*extent)[axis];
  }
  return box;
}

struct FieldRule {
  std::string_view key;
  bool required;
  bool repeatable;
};

// The key=value fields of one line, checked against the rules of its keyword.
class LineFields {
 public:
  LineFields(std::span<const std::string_view> words, std::string_view keyword,
             std::span<const FieldRule> rules, const LineContext& ctx) {
    std::string expected;
    for (const FieldRule& rule : rules) {
      expected += (expected.empty() ? "" : ", ") + std::string(rule.key);
    }
    for (const std::string_view word : words) {
      const std::size_t eq = word.find('=');
      if (eq == std::string_view::npos) {
        ctx.fail("expected key=value in " + quoted(keyword) + " line, got " + quoted(word));
        continue;
      }
      const std::string_view key = word.substr(0, eq);
      const auto rule = std::find_if(rules.begin(), rules.end(),
                                     [&](const FieldRule& r) { return r.key == key; });
      if (rule == rules.end()) {
        ctx.fail("unknown field " + quoted(key) + " in " + quoted(keyword) + " line (expected " +
                 expected + ")");
        continue;
      }
      const bool seen = std::any_of(values_.begin(), values_.end(),
                                    [&](const auto& kv) { return kv.first == key; });
      if (seen && !rule->repeatable) {
        ctx.fail("extra field: " + quoted(key) + " given twice in " + quoted(keyword) + " line");
        continue;
      }
      values_.emplace_back(key, word.substr(eq + 1));
    }
    for (const FieldRule& rule : rules) {
      if (rule.required && !get(rule.key)) {
        ctx.fail("missing field " + quoted(rule.key) + " in " + quoted(keyword) + " line");
      }
    }
  }

  std::optional<std::string_view> get(std::string_view key) const {
    for (const auto& [k, v] : values_) {
      if (k == key) return v;
    }
    return std::nullopt;
  }

  std::vector<std::string_view> all(std::string_view key) const {
    std::vector<std::string_view> found;
    for (const auto& [k, v] : values_) {
      if (k == key) found.push_back(v);
    }
    return found;
  }

 private:
  std::vector<std::pair<std::string_view, std::string_view>> values_;
};

struct ParsedMessage {
  Message message;
  int line = 0;
  bool bytes_known = false;  // false when the bytes field was invalid: skip size comparisons
};

struct RankSection {
  int line = 0;
  std::optional<Index3> field;
  std::vector<ParsedMessage> sends;
  std::vector<ParsedMessage> recvs;
};

// Keeps a list of rank ranges short: "4, 7-63".
std::string format_rank_ranges(const std::vector<std::pair<int, int>>& ranges) {
  std::string text;
  for (const auto& [first, last] : ranges) {
    if (!text.empty()) text += ", ";
    text += std::to_string(first);
    if (last > first) text += "-" + std::to_string(last);
  }
  return text;
}

class ConfigParser {
 public:
  explicit ConfigParser(std::string source) : problems_(std::move(source)) {}

  void parse_line(int line, std::string_view text) {
    const std::size_t hash = text.find('#');
    if (hash != std::string_view::npos) text = text.substr(0, hash);
    const std::vector<std::string_view> words = split_words(text);
    if (words.empty()) return;
    last_line_ = line;
    const LineContext ctx{problems_, line};
    const std::string_view keyword = words[0];
    const std::span<const std::string_view> rest(words.data() + 1, words.size() - 1);

    if (!any_line_seen_) {
      any_line_seen_ = true;
      first_line_ = line;
      if (keyword != kConfigMagic) {
        ctx.fail("missing header: the first line must be '" + std::string(kConfigMagic) + " " +
                 std::to_string(kConfigFormatVersion) + "', got " + quoted(keyword));
      }
    }
    if (keyword == kConfigMagic) {
      parse_header(rest, ctx);
    } else if (keyword == "ranks") {
      parse_ranks(rest, ctx);
    } else if (keyword == "data") {
      parse_data(rest, ctx);
    } else if (keyword == "geometry") {
      parse_geometry(rest, ctx);
    } else if (keyword == "rank") {
      parse_rank(rest, ctx);
    } else if (keyword == "send" || keyword == "recv") {
      parse_message(keyword, rest, ctx);
    } else {
      ctx.fail("unknown keyword " + quoted(keyword) + " (expected " + std::string(kConfigMagic) +
               ", ranks, data, geometry, rank, send or recv)");
    }
  }

  ExchangeConfig finish() {
    if (!any_line_seen_) {
      problems_.add(1, "empty config: expected the header '" + std::string(kConfigMagic) + " " +
                           std::to_string(kConfigFormatVersion) + "'");
    } else if (!ranks_) {
      if (!ranks_line_) problems_.add(last_line_, "missing 'ranks N' line");
    } else {
      check_sections_present();
      check_unique_tags();
      check_matching();
      check_geometry_ranks();
    }
    if (!problems_.empty()) throw ConfigError(problems_.sorted_messages());

    ExchangeConfig config;
    config.ranks = *ranks_;
    config.data = data_;
    config.geometry = geometry_;
    config.rank_messages.resize(static_cast<std::size_t>(*ranks_));
    for (auto& [rank, section] : sections_) {
      RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
      messages.field_extent = section.field;
      for (ParsedMessage& m : section.sends) messages.sends.push_back(std::move(m.message));
      for (ParsedMessage& m : section.recvs) messages.recvs.push_back(std::move(m.message));
    }
    return config;
  }

 private:
  // Lines that describe the whole config must precede the rank sections that rely on them.
  bool check_before_sections(std::string_view keyword, const LineContext& ctx) const {
    if (first_section_line_ == 0) return true;
    ctx.fail(quoted(keyword) + " must come before the first rank section (line " +
             std::to_string(first_section_line_) + ")");
    return false;
  }

  bool check_once(std::string_view keyword, int& seen_line, const LineContext& ctx) const {
    if (seen_line != 0) {
      ctx.fail("repeated " + quoted(keyword) + " line (first on line " +
               std::to_string(seen_line) + ")");
      return false;
    }
    seen_line = ctx.line;
    return true;
  }

  void parse_header(std::span<const std::string_view> rest, const LineContext& ctx) {
    if (!check_once(kConfigMagic, header_line_, ctx)) return;
    if (ctx.line != first_line_) {
      ctx.fail("the header must be the first line that is not a comment");
    }
    if (rest.size() != 1) {
      ctx.fail("the header takes one field, the format version: '" + std::string(kConfigMagic) +
               " " + std::to_string(kConfigFormatVersion) + "'");
      return;
    }
    const auto version = parse_int(rest[0], "version", ctx);
    if (version && *version != kConfigFormatVersion) {
      ctx.fail("unsupported format version " + std::to_string(*version) + " (this reader knows " +
               std::to_string(kConfigFormatVersion) + ")");
    }
  }

  void parse_ranks(std::span<const std::string_view> rest, const LineContext& ctx) {
    if (!check_before_sections("ranks", ctx) || !check_once("ranks", ranks_line_, ctx)) return;
    if (rest.size() != 1) {
      ctx.fail("'ranks' takes one value, the number of ranks, got " +
               std::to_string(rest.size()));
      return;
    }
    ranks_ = parse_int(rest[0], "ranks", ctx, 1);
  }

  void parse_data(std::span<const std::string_view> rest, const LineContext& ctx) {
    if (!check_before_sections("data", ctx) || !check_once("data", data_line_, ctx)) return;
    static constexpr FieldRule rules[] = {{"vars", true, false}, {"element_bytes", true, false}};
    const LineFields fields(rest, "data", rules, ctx);
    std::optional<int> vars;
    std::optional<int> element_bytes;
    std::vector<int> variable_bytes;  // element_bytes=4,8: one size per variable
    if (const auto v = fields.get("vars")) vars = parse_int(*v, "vars", ctx, 1);
    if (const auto v = fields.get("element_bytes")) {
      const std::vector<std::string_view> sizes = split_on(*v, ',');
      for (const std::string_view size : sizes) {
        const auto bytes = parse_int(size, "element_bytes", ctx, 1);
        if (!bytes) return;
        variable_bytes.push_back(*bytes);
      }
      element_bytes = variable_bytes.front();
      if (variable_bytes.size() == 1) variable_bytes.clear();
    }
    if (vars && !variable_bytes.empty() &&
        variable_bytes.size() != static_cast<std::size_t>(*vars)) {
      ctx.fail("element_bytes gives " + std::to_string(variable_bytes.size()) +
               " sizes for vars=" + std::to_string(*vars) + " variables");
      return;
    }
    if (vars && element_bytes) data_ = MessageData{*vars, *element_bytes, variable_bytes};
  }

  void parse_geometry(std::span<const std::string_view> rest, const LineContext& ctx) {
    if (!check_before_sections("geometry", ctx) || !check_once("geometry", geometry_line_, ctx)) {
      return;
    }
    static constexpr FieldRule rules[] = {
        {"size", true, false},    {"divide", true, false},  {"periodic", true, false},
        {"ghost", true, false},   {"stencil", true, false}, {"reduced_from_rank", false, false},
        {"reduced_ranks", false, false}};
    const LineFields fields(rest, "geometry", rules, ctx);
    GeometryRecord record;
    bool ok = true;
    const auto take_triple = [&](std::string_view key, std::int64_t min_value,
                                 std::int64_t max_value) -> std::optional<Index3> {
      const auto text = fields.get(key);
      if (!text) {
        ok = false;
        return std::nullopt;
      }
      auto value = parse_triple(*text, key, ctx, min_value, max_value);
      if (!value) ok = false;
      return value;
    };
    if (const auto size = take_triple("size", 1, kMaxCount)) record.global_size = *size;
    if (const auto divide = take_triple("divide", 1, kMaxInt)) {
      for (int axis = 0; axis < 3; ++axis) record.divide[axis] = static_cast<int>((*divide)[axis]);
      // A rank grid holds a rank count, an int like any other.
      const auto grid_ranks = checked_product({(*divide)[0], (*divide)[1], (*divide)[2]});
      if (!grid_ranks || *grid_ranks > kMaxInt) {
        ctx.fail("divide=" + format_triple(*divide) + " holds more than " +
                 std::to_string(kMaxInt) + " ranks");
        ok = false;
      }
    }
    if (const auto periodic = take_triple("periodic", 0, 1)) {
      for (int axis = 0; axis < 3; ++axis) record.periodic[axis] = (*periodic)[axis] == 1;
    }
    if (const auto ghost = take_triple("ghost", 1, kMaxCount)) record.ghost = *ghost;
    if (const auto text = fields.get("stencil")) {
      const auto points = parse_number(*text, "stencil", ctx);
      const auto stencil = points ? stencil_from_points(static_cast<long>(*points)) : std::nullopt;
      if (stencil) {
        record.stencil = *stencil;
      } else {
        if (points) ctx.fail("'stencil' must be 26 or 6, got " + std::string(*text));
        ok = false;
      }
    } else {
      ok = false;
    }
    if (const auto text = fields.get("reduced_from_rank")) {
      const auto rank = parse_int(*text, "reduced_from_rank", ctx);
      if (rank) {
        record.reduced_from_rank = *rank;
      } else {
        ok = false;
      }
    }
    if (const auto text = fields.get("reduced_ranks")) {
      const auto ranks = parse_int(*text, "reduced_ranks", ctx);
      if (!fields.get("reduced_from_rank")) {
        ctx.fail("'reduced_ranks' needs 'reduced_from_rank', the rank whose pattern is replayed");
        ok = false;
      } else if (!ranks) {
        ok = false;
      } else if (!is_reduced_rank_count(*ranks)) {
        ctx.fail("'reduced_ranks' must be 2, 4 or 8, got " + std::string(*text));
        ok = false;
      } else {
        record.reduced_ranks = *ranks;
      }
    }
    if (ok) geometry_ = record;
  }

  void parse_rank(std::span<const std::string_view> rest, const LineContext& ctx) {
    current_ = nullptr;
    in_section_ = true;
    if (first_section_line_ == 0) {
      first_section_line_ = ctx.line;
      if (!ranks_line_) ctx.fail("missing 'ranks N' line before the first rank section");
    }
    if (rest.empty() || rest[0].find('=') != std::string_view::npos) {
      ctx.fail("'rank' needs the rank number: 'rank N [field=X,Y,Z]'");
      return;
    }
    static constexpr FieldRule rules[] = {{"field", false, false}};
    const LineFields fields(rest.subspan(1), "rank", rules, ctx);
    const auto rank = parse_int(rest[0], "rank", ctx);
    std::optional<Index3> field;
    bool field_ok = true;
    if (const auto text = fields.get("field")) {
      field = parse_triple(*text, "field", ctx, 1);
      // Readers allocate the field: its cell count must be a count like any other.
      const auto cells = field ? checked_product({(*field)[0], (*field)[1], (*field)[2]})
                               : std::nullopt;
      if (field && (!cells || *cells > kMaxCount)) {
        ctx.fail("field=" + format_triple(*field) + " holds more than " +
                 std::to_string(kMaxCount) + " cells");
        field.reset();
      }
      field_ok = field.has_value();
    }
    if (!rank) return;
    if (ranks_ && *rank >= *ranks_) {
      ctx.fail("rank section " + std::to_string(*rank) + " out of range: 'ranks " +
               std::to_string(*ranks_) + "' allows 0.." + std::to_string(*ranks_ - 1));
      return;
    }
    if (const auto it = sections_.find(*rank); it != sections_.end()) {
      ctx.fail("duplicate rank section " + std::to_string(*rank) + " (first on line " +
               std::to_string(it->second.line) + ")");
      return;
    }
    RankSection& section = sections_[*rank];
    section.line = ctx.line;
    section.field = field;
    current_rank_ = *rank;
    current_ = &section;
    current_field_ok_ = field_ok;
  }

  void parse_message(std::string_view keyword, std::span<const std::string_view> rest,
                     const LineContext& ctx) {
    if (!in_section_) {
      ctx.fail(quoted(keyword) + " line outside a rank section (it must follow a 'rank N' line)");
    }
    static constexpr FieldRule rules[] = {{"peer", true, false},
                                          {"tag", true, false},
                                          {"bytes", true, false},
                                          {"box", false, true}};
    const LineFields fields(rest, keyword, rules, ctx);
    // Peer and tag are never negative once parsed, so -1 stands for "missing or invalid"
    // (std::optional<int> here trips a false -Wmaybe-uninitialized in GCC 12).
    constexpr int kUnknown = -1;
    int peer = kUnknown;
    int tag = kUnknown;
    std::optional<std::int64_t> bytes;
    if (const auto text = fields.get("peer")) peer = parse_int(*text, "peer", ctx).value_or(kUnknown);
    if (const auto text = fields.get("tag")) tag = parse_int(*text, "tag", ctx).value_or(kUnknown);
    if (const auto text = fields.get("bytes")) bytes = parse_number(*text, "bytes", ctx, 1);
    if (peer != kUnknown && ranks_ && peer >= *ranks_) {
      ctx.fail("peer " + std::to_string(peer) + " out of range: 'ranks " +
               std::to_string(*ranks_) + "' allows 0.." + std::to_string(*ranks_ - 1));
      peer = kUnknown;
    }
    if (tag != kUnknown && tag > kMaxPortableTag) {
      ctx.fail("tag " + std::to_string(tag) + " exceeds " + std::to_string(kMaxPortableTag) +
               ", the largest tag every MPI library accepts");
      tag = kUnknown;
    }

    ParsedMessage parsed;
    parsed.line = ctx.line;
    bool boxes_ok = true;
    for (const std::string_view text : fields.all("box")) {
      if (auto box = parse_box(text, ctx)) {
        parsed.message.boxes.push_back(*box);
      } else {
        boxes_ok = false;
      }
    }
    if (boxes_ok && !parsed.message.boxes.empty()) check_boxes(parsed.message.boxes, bytes, ctx);

    if (!current_ || peer == kUnknown || tag == kUnknown) return;  // problems are reported
    parsed.message.peer = peer;
    parsed.message.tag = tag;
    parsed.message.bytes = bytes.value_or(0);
    parsed.bytes_known = bytes.has_value();
    (keyword == "send" ? current_->sends : current_->recvs).push_back(std::move(parsed));
  }

  // Boxes must lie in the rank's field and add up to the declared bytes.
  void check_boxes(const std::vector<kernels::Box>& boxes, std::optional<std::int64_t> bytes,
                   const LineContext& ctx) {
    if (current_ && !current_->field && current_field_ok_) {
      ctx.fail("boxes need the field extent: write 'rank " + std::to_string(current_rank_) +
               " field=X,Y,Z' (line " + std::to_string(current_->line) + ")");
    }
    if (current_ && current_->field) {
      const Index3& field = *current_->field;
      for (const kernels::Box& box : boxes) {
        for (int axis = 0; axis < 3; ++axis) {
          if (box.begin[axis] + box.extent[axis] > field[axis]) {
            ctx.fail(std::string("box reaches past the field along ") + kAxisNames[axis] + ": " +
                     std::to_string(box.begin[axis]) + " + " + std::to_string(box.extent[axis]) +
                     " > " + std::to_string(field[axis]) + " (field=" + format_triple(field) +
                     ")");
          }
        }
      }
    }
    if (!data_) {
      if (data_line_ == 0) {
        ctx.fail("boxes need the 'data vars=V element_bytes=B' line before the rank sections");
      }
      return;
    }
    if (!bytes) return;
    std::optional<std::int64_t> cells = 0;
    for (const kernels::Box& box : boxes) {
      const auto box_cells = checked_product({box.extent[0], box.extent[1], box.extent[2]});
      if (!box_cells || __builtin_add_overflow(*cells, *box_cells, &*cells)) cells.reset();
      if (!cells) break;
    }
    const auto box_bytes =
        cells ? checked_product({*cells, data_->cell_bytes()}) : std::nullopt;
    if (!box_bytes) {
      ctx.fail("box bytes inconsistent with bytes=" + std::to_string(*bytes) +
               ": the boxes hold too many bytes to count in 64 bits");
      return;
    }
    if (*box_bytes != *bytes) {
      ctx.fail("box bytes inconsistent with bytes=" + std::to_string(*bytes) + ": the boxes hold " +
               std::to_string(*cells) + " cells x " + std::to_string(data_->vars) + " vars x " +
               (data_->variable_bytes.empty() ? std::to_string(data_->element_bytes) + " bytes"
                                              : std::to_string(data_->cell_bytes()) +
                                                    " bytes per cell") +
               " = " + std::to_string(*box_bytes));
    }
  }

  // Walks the gaps between the sections: 'ranks' may declare up to 2^31 - 1 ranks.
  void check_sections_present() {
    std::vector<std::pair<int, int>> missing;
    std::int64_t missing_count = 0;
    int next = 0;  // the first rank not yet known to have a section
    const auto add_gap = [&](int first, int last) {
      if (first > last) return;
      missing.emplace_back(first, last);
      missing_count += std::int64_t{last} - first + 1;
    };
    for (const auto& [rank, section] : sections_) {
      if (rank >= *ranks_) break;  // reported where the section starts
      add_gap(next, rank - 1);
      next = rank + 1;
    }
    add_gap(next, *ranks_ - 1);
    if (missing.empty()) return;
    problems_.add(ranks_line_, std::string(missing_count == 1 ? "rank " : "ranks ") +
                                   format_rank_ranges(missing) +
                                   (missing_count == 1 ? " has" : " have") +
                                   " no section (missing 'rank N' section; 'ranks " +
                                   std::to_string(*ranks_) + "' declared here)");
  }

  void check_unique_tags() {
    for (const auto& [rank, section] : sections_) {
      for (const auto* list : {&section.sends, &section.recvs}) {
        const bool sends = list == &section.sends;
        std::map<std::pair<int, int>, int> first_line;
        for (const ParsedMessage& m : *list) {
          const auto key = std::make_pair(m.message.peer, m.message.tag);
          const auto [it, inserted] = first_line.emplace(key, m.line);
          if (!inserted) {
            problems_.add(m.line, "duplicate tag: rank " + std::to_string(rank) +
                                      (sends ? " sends to" : " receives from") + " peer " +
                                      std::to_string(m.message.peer) + " with tag " +
                                      std::to_string(m.message.tag) + " twice (first on line " +
                                      std::to_string(it->second) + ")");
          }
        }
      }
    }
  }

  void check_matching() {
    // (sender, receiver, tag) -> message, from each side.
    using Key = std::tuple<int, int, int>;
    std::map<Key, const ParsedMessage*> sends;
    std::map<Key, const ParsedMessage*> recvs;
    for (const auto& [rank, section] : sections_) {
      for (const ParsedMessage& m : section.sends) {
        sends.emplace(Key{rank, m.message.peer, m.message.tag}, &m);
      }
      for (const ParsedMessage& m : section.recvs) {
        recvs.emplace(Key{m.message.peer, rank, m.message.tag}, &m);
      }
    }
    for (const auto& [key, send] : sends) {
      const auto [from, to, tag] = key;
      if (!sections_.contains(to)) continue;  // reported as a missing section
      const auto it = recvs.find(key);
      if (it == recvs.end()) {
        problems_.add(send->line, "unmatched send: rank " + std::to_string(from) + " sends " +
                                      std::to_string(send->message.bytes) + " bytes to peer " +
                                      std::to_string(to) + " with tag " + std::to_string(tag) +
                                      ", but rank " + std::to_string(to) +
                                      " has no recv peer=" + std::to_string(from) +
                                      " tag=" + std::to_string(tag));
      } else if (send->bytes_known && it->second->bytes_known &&
                 send->message.bytes != it->second->message.bytes) {
        problems_.add(send->line, "bytes mismatch: rank " + std::to_string(from) + " sends " +
                                      std::to_string(send->message.bytes) + " bytes to peer " +
                                      std::to_string(to) + " with tag " + std::to_string(tag) +
                                      ", but rank " + std::to_string(to) + " expects " +
                                      std::to_string(it->second->message.bytes) + " (line " +
                                      std::to_string(it->second->line) + ")");
      }
    }
    for (const auto& [key, recv] : recvs) {
      const auto [from, to, tag] = key;
      if (!sections_.contains(from) || sends.contains(key)) continue;
      problems_.add(recv->line, "unmatched recv: rank " + std::to_string(to) +
                                    " receives from peer " + std::to_string(from) + " with tag " +
                                    std::to_string(tag) + ", but rank " + std::to_string(from) +
                                    " has no send peer=" + std::to_string(to) +
                                    " tag=" + std::to_string(tag));
    }
  }

  void check_geometry_ranks() {
    if (!geometry_) return;
    const RankGrid& divide = geometry_->divide;
    const std::int64_t grid_ranks = std::int64_t{divide[0]} * divide[1] * divide[2];
    if (geometry_->reduced_from_rank) {
      const int reduced_ranks = geometry_->reduced_ranks;
      if (*ranks_ != reduced_ranks) {
        problems_.add(geometry_line_, "a config reduced from one rank's pattern has " +
                                          std::to_string(reduced_ranks) +
                                          " ranks, but 'ranks' declares " +
                                          std::to_string(*ranks_) +
                                          " (reduced_ranks gives the count, 2 when absent)");
      }
      if (*geometry_->reduced_from_rank >= grid_ranks) {
        problems_.add(geometry_line_, "reduced_from_rank " +
                                          std::to_string(*geometry_->reduced_from_rank) +
                                          " is out of range of divide=" +
                                          format_triple(divide) + " (" +
                                          std::to_string(grid_ranks) + " ranks)");
      }
    } else if (grid_ranks != *ranks_) {
      problems_.add(geometry_line_, "divide=" + format_triple(divide) + " holds " +
                                        std::to_string(grid_ranks) + " ranks, but 'ranks' declares " +
                                        std::to_string(*ranks_));
    }
  }

  Problems problems_;
  bool any_line_seen_ = false;
  int first_line_ = 0;
  int last_line_ = 1;
  int header_line_ = 0;
  int ranks_line_ = 0;
  int data_line_ = 0;
  int geometry_line_ = 0;
  int first_section_line_ = 0;
  std::optional<int> ranks_;
  std::optional<MessageData> data_;
  std::optional<GeometryRecord> geometry_;
  std::map<int, RankSection> sections_;
  bool in_section_ = false;
  RankSection* current_ = nullptr;  // null while outside a valid rank section
  int current_rank_ = -1;
  bool current_field_ok_ = true;
};

}  // namespace

ExchangeConfig parse_config(std::istream& in, const std::string& source_name) {
  ConfigParser parser(source_name);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) parser.parse_line(++number, line);
  if (in.bad()) throw ConfigError(source_name + ": read error after line " + std::to_string(number));
  return parser.finish();
}

ExchangeConfig read_config_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path.string() + ": cannot open the config file");
  return parse_config(in, path.string());
}

}  // namespace haloflag::halo
