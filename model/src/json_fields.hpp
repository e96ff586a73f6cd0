// Reading JSON documents field by field with the key path of every problem, shared by the
// parameter file readers and the calibration tools (internal: not installed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace haloflag::model::detail {

using Json = nlohmann::json;

// Problems of one document, each "<source>: <key.path>: reason".
class Problems {
 public:
  explicit Problems(std::string source) : source_(std::move(source)) {}

  void add(const std::string& path, const std::string& reason);
  bool empty() const noexcept { return messages_.empty(); }
  // Throws ParamsError with every problem collected, if any.
  void throw_if_any() const;
  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
  std::vector<std::string> messages_;
};

// Parses `text`, throwing ParamsError "<source>: not valid JSON: ..." when it is not JSON.
Json parse_json(std::string_view text, const std::string& source);
// Reads a whole file as text, throwing ParamsError "<path>: cannot open" when it cannot.
std::string read_text_file(const std::string& path);

// A short description of a value for messages: `string "abc"`, `-1`, `array`, `null`.
std::string describe(const Json& value);

// One JSON object being read. Every key asked about is remembered, so that finish() can report
// the others as unknown and list the expected ones.
class ObjectReader {
 public:
  // Reports "<path>: must be an object" when `value` is not one; reads then find nothing.
  ObjectReader(const Json& value, std::string path, Problems& problems);

  bool valid() const noexcept { return object_ != nullptr; }
  const std::string& path() const noexcept { return path_; }
  std::string path_of(std::string_view key) const;

  bool has(std::string_view key);
  // nullptr when absent; reports "missing key" when `required`.
  const Json* get(std::string_view key, bool required = true);

  std::optional<double> positive_number(std::string_view key, bool required = true);
  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min,
                                      bool required = true);
  std::optional<bool> boolean(std::string_view key, bool required = true);
  std::optional<std::string> string(std::string_view key, bool required = true);
  // The string `key` must be `expected` (a file's "format", a report's "tool"); a different value
  // is reported as `must be "expected" (got "value")`.
  void expect_string(std::string_view key, std::string_view expected);
  std::optional<std::vector<std::string>> string_list(std::string_view key, bool required = true);
  // A reader over the member object (invalid when absent or not an object).
  std::optional<ObjectReader> object(std::string_view key, bool required = true);
  // The member when it is an array, else nullptr (reporting a missing key or wrong type).
  const Json* array(std::string_view key, bool required = true);

  // Every member, each counted as asked about: for objects keyed by names, not fixed fields.
  std::vector<std::pair<std::string, const Json*>> members();

  // Reports every key not asked about as unknown.
  void finish();

  Problems& problems() noexcept { return *problems_; }

 private:
  const Json* object_ = nullptr;
  std::string path_;
  Problems* problems_;
  std::set<std::string, std::less<>> expected_;
};

// A whole document being read: its parsed root, the problems found in it and a reader over the
// root object. The reader refers to the other two, so a document is read where it was made.
struct JsonDocument {
  // `text` parsed (ParamsError when it is not JSON); `source` names it in problems.
  JsonDocument(std::string_view text, const std::string& source)
      : root(parse_json(text, source)), problems(source), top(root, "", problems) {}
  // The file at `path` (ParamsError when it cannot be read), named by its path.
  explicit JsonDocument(const std::filesystem::path& path)
      : JsonDocument(read_text_file(path.string()), path.string()) {}
  JsonDocument(const JsonDocument&) = delete;
  JsonDocument& operator=(const JsonDocument&) = delete;

  const std::string& source() const noexcept { return problems.source(); }

  Json root;
  Problems problems;
  ObjectReader top;
};

// Checks for the same value type outside objects (array elements).
std::optional<double> positive_number_at(const Json& value, const std::string& path,
                                         Problems& problems);
std::optional<std::int64_t> integer_at(const Json& value, const std::string& path,
                                       std::int64_t min, Problems& problems);

}  // namespace haloflag::model::detail
