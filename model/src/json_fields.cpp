#include "json_fields.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "haloflag/model/errors.hpp"

namespace haloflag::model::detail {

void Problems::add(const std::string& path, const std::string& reason) {
  messages_.push_back(source_ + ": " + (path.empty() ? std::string("(top level)") : path) + ": " +
                      reason);
}

void Problems::throw_if_any() const {
  if (!messages_.empty()) throw ParamsError(messages_);
}

Json parse_json(std::string_view text, const std::string& source) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& error) {  // a syntax error, or a number out of double's range
    throw ParamsError(source + ": not valid JSON: " + error.what());
  }
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParamsError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string describe(const Json& value) {
  if (value.is_string()) return "string \"" + value.get<std::string>() + "\"";
  if (value.is_number() || value.is_boolean() || value.is_null()) return value.dump();
  return value.is_array() ? "an array" : "an object";
}

ObjectReader::ObjectReader(const Json& value, std::string path, Problems& problems)
    : path_(std::move(path)), problems_(&problems) {
  if (value.is_object()) {
    object_ = &value;
  } else {
    problems.add(path_, "must be an object (got " + describe(value) + ")");
  }
}

std::string ObjectReader::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool ObjectReader::has(std::string_view key) {
  expected_.emplace(key);
  return object_ != nullptr && object_->contains(key);
}

const Json* ObjectReader::get(std::string_view key, bool required) {
  expected_.emplace(key);
  if (object_ == nullptr) return nullptr;
  const auto found = object_->find(key);
  if (found == object_->end()) {
    if (required) problems_->add(path_of(key), "missing key");
    return nullptr;
  }
  return &*found;
}

std::optional<double> ObjectReader::positive_number(std::string_view key, bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return std::nullopt;
  return positive_number_at(*value, path_of(key), *problems_);
}

std::optional<std::int64_t> ObjectReader::integer(std::string_view key, std::int64_t min,
                                                  bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return std::nullopt;
  return integer_at(*value, path_of(key), min, *problems_);
}

std::optional<bool> ObjectReader::boolean(std::string_view key, bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) {
    problems_->add(path_of(key), "must be true or false (got " + describe(*value) + ")");
    return std::nullopt;
  }
  return value->get<bool>();
}

std::optional<std::string> ObjectReader::string(std::string_view key, bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) {
    problems_->add(path_of(key), "must be a string (got " + describe(*value) + ")");
    return std::nullopt;
  }
  return value->get<std::string>();
}

void ObjectReader::expect_string(std::string_view key, std::string_view expected) {
  const auto value = string(key);
  if (value && *value != expected) {
    problems_->add(path_of(key),
                   "must be \"" + std::string(expected) + "\" (got \"" + *value + "\")");
  }
}

std::optional<std::vector<std::string>> ObjectReader::string_list(std::string_view key,
                                                                  bool required) {
  const Json* value = array(key, required);
  if (value == nullptr) return std::nullopt;
  std::vector<std::string> strings;
  bool ok = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_string()) {
      problems_->add(path_of(key) + "[" + std::to_string(i) + "]",
                     "must be a string (got " + describe(item) + ")");
      ok = false;
      continue;
    }
    strings.push_back(item.get<std::string>());
  }
  if (!ok) return std::nullopt;
  return strings;
}

std::optional<ObjectReader> ObjectReader::object(std::string_view key, bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return std::nullopt;
  ObjectReader reader(*value, path_of(key), *problems_);
  if (!reader.valid()) return std::nullopt;
  return reader;
}

const Json* ObjectReader::array(std::string_view key, bool required) {
  const Json* value = get(key, required);
  if (value == nullptr) return nullptr;
  if (!value->is_array()) {
    problems_->add(path_of(key), "must be an array (got " + describe(*value) + ")");
    return nullptr;
  }
  return value;
}

std::vector<std::pair<std::string, const Json*>> ObjectReader::members() {
  std::vector<std::pair<std::string, const Json*>> found;
  if (object_ == nullptr) return found;
  for (const auto& [key, value] : object_->items()) {
    expected_.insert(key);
    found.emplace_back(key, &value);
  }
  return found;
}

void ObjectReader::finish() {
  if (object_ == nullptr) return;
  std::string expected;
  for (const std::string& key : expected_) expected += (expected.empty() ? "" : ", ") + key;
  for (const auto& [key, value] : object_->items()) {
    if (expected_.find(key) == expected_.end()) {
      problems_->add(path_of(key), "unknown key (expected: " + expected + ")");
    }
  }
}

std::optional<double> positive_number_at(const Json& value, const std::string& path,
                                         Problems& problems) {
  if (!value.is_number()) {
    problems.add(path, "must be a number (got " + describe(value) + ")");
    return std::nullopt;
  }
  const double number = value.get<double>();
  if (!(number > 0.0)) {
    problems.add(path, "must be > 0 (got " + value.dump() + ")");
    return std::nullopt;
  }
  return number;
}

std::optional<std::int64_t> integer_at(const Json& value, const std::string& path,
                                       std::int64_t min, Problems& problems) {
  if (!value.is_number_integer()) {
    problems.add(path, "must be an integer (got " + describe(value) + ")");
    return std::nullopt;
  }
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    problems.add(path, "is too large (got " + value.dump() + ")");
    return std::nullopt;
  }
  const auto number = value.get<std::int64_t>();
  if (number < min) {
    problems.add(path, "must be >= " + std::to_string(min) + " (got " + value.dump() + ")");
    return std::nullopt;
  }
  return number;
}

}  // namespace haloflag::model::detail
