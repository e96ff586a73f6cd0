// The JSON files the calibration tools write (raw measurements beside the fitted values), and
// reading back the parts the merge needs. Formats: docs/model.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bulk_exchange.hpp"
#include "concurrent_bandwidth.hpp"
#include "haloflag/model/link_params.hpp"
#include "node_transport_calibration.hpp"
#include "pingpong.hpp"

namespace haloflag::model::calibration {

inline constexpr std::string_view kPingPongFormat = "haloflag-calibration-pingpong";
inline constexpr std::string_view kConcurrentFormat = "haloflag-calibration-concurrent";
inline constexpr std::string_view kNodeFormat = "haloflag-calibration-node";
inline constexpr std::string_view kBulkExchangeFormat = "haloflag-calibration-bulk-exchange";
inline constexpr int kCalibrationFormatVersion = 1;

std::string pingpong_to_json(const PingPongResult& result);
std::string concurrent_to_json(const ConcurrentResult& result);
std::string bulk_exchange_to_json(const BulkExchangeResult& result);
// Holds the measurements, the fit and, as "node_transport", the parameter file's object.
std::string node_calibration_to_json(const NodeCalibration& calibration,
                                     const NodeTransportFit& fit);
void write_text(const std::filesystem::path& path, const std::string& text);

// What the merge takes from a ping-pong file.
struct PingPongFit {
  std::string source;  // the file
  std::string host;    // host of the timing rank
  std::string date;
  std::int64_t threshold_bytes = 0;
  std::string method;
  ProtocolParams<PostalParams> postal;
  std::vector<std::string> notes;  // clamped or borrowed fits
};

// What the merge takes from a concurrent-bandwidth file: one fit per measured size.
struct ConcurrentFit {
  struct AtSize {
    std::int64_t bytes = 0;
    double r_cb = 0.0;
    double r_ci = 0.0;
  };
  std::string source;
  bool flows_emulated = false;
  std::vector<AtSize> sizes;
  std::vector<std::string> notes;
};

// What the merge takes from a node calibration file: its "node_transport" object.
struct NodeFit {
  std::string source;  // the file
  std::string gpu;
  std::string date;
  NodeTransportParams params;
  std::vector<std::string> notes;  // a clamped copy fit
};

// All throw ParamsError naming the file and key path of whatever is missing or out of range.
PingPongFit read_pingpong_fit(const std::filesystem::path& path);
ConcurrentFit read_concurrent_fit(const std::filesystem::path& path);
NodeFit read_node_fit(const std::filesystem::path& path);

// What the merge takes from a bulk exchange file: the fit, the prediction's MPI copy term.
struct BulkExchangeFit {
  std::string source;
  PostalParams copy;  // alpha: latency, beta: seconds per byte sent or received
  std::vector<std::string> notes;  // a clamped fit
};
BulkExchangeFit read_bulk_exchange_fit(const std::filesystem::path& path);

}  // namespace haloflag::model::calibration
