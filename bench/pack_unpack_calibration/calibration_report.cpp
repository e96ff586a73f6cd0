#include "calibration_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "rates_report.hpp"

namespace haloflag::bench {

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : separator) + word;
  return text;
}

namespace {

using Json = nlohmann::ordered_json;

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Nanosecond precision is all the clocks give; it keeps the raw file small.
double rounded_us(double us) { return std::round(us * 1000.0) / 1000.0; }

std::vector<double> rounded(const std::vector<double>& samples) {
  std::vector<double> out(samples.size());
  std::transform(samples.begin(), samples.end(), out.begin(), rounded_us);
  return out;
}

Json summary_json(const model::calibration::SampleSummary& s) {
  Json json;
  json["count"] = s.count;
  json["mean"] = s.mean;
  json["median"] = s.median;
  json["p10"] = s.p10;
  json["p90"] = s.p90;
  json["min"] = s.min;
  json["max"] = s.max;
  return json;
}

Json work_json(const std::optional<WorkSummary>& work) {
  if (!work) return nullptr;
  Json json;
  json["shapes"] = work->shapes;
  json["block_us"] = summary_json(work->block_us);
  json["launch_us"] = summary_json(work->launch_us);
  json["slowest_shape_block_mean_us"] = work->slowest_block_us;
  json["slowest_shape_launch_mean_us"] = work->slowest_launch_us;
  return json;
}

std::string joined_sides(const std::vector<std::int64_t>& sides) {
  std::string text;
  for (const std::int64_t side : sides) text += (text.empty() ? "" : ", ") + std::to_string(side);
  return text;
}

std::string halo_sets_note(const CalibrationRun& run) {
  const PackUnpackOptions& o = run.options;
  return "fused: whole halos of the periodic cubes of side " + joined_sides(o.halo_cubes) +
         " (" + std::to_string(o.vars) + " vars, 26 sends and 26 receives each) packed and "
         "unpacked in one launch by fused_pack and fused_unpack, the buffer in pinned mapped "
         "host memory and in device memory; per set " + std::to_string(o.warmup) +
         " warm-up and " + std::to_string(o.iterations) + " timed runs " +
         (run.run.ranks == 1 ? std::string("on 1 rank")
                             : "on all " + std::to_string(run.run.ranks) +
                                   " ranks at once, a barrier before each run") +
         ", " + std::to_string(run.gpu_sharers) + " rank(s) per GPU; " + kHaloSetFitMethod;
}

Json fit_json(const FusedFit& fused) {
  Json json;
  json["latency_s"] = fused.latency_s();
  json["bytes_per_s"] = fused.bytes_per_s();
  json["ranks_per_gpu"] = fused.sharers;
  json["points"] = fused.fit.points;
  json["min_bytes"] = fused.fit.min_bytes;
  json["max_bytes"] = fused.fit.max_bytes;
  json["rms_relative_residual"] = fused.fit.rms_relative_residual;
  json["clamped"] = fused.fit.clamped;
  if (fused.fit.clamped) json["clamp_reason"] = fused.fit.clamp_reason;
  return json;
}

bool emulated(const CalibrationRun& run) { return run.backend == notify::Backend::host; }

std::string machine_of(const CalibrationRun& run) {
  const std::string host = run.run.hosts.empty() ? "unknown host" : run.run.hosts.front();
  if (emulated(run)) {
    return host + ": host backend (CPU threads emulate the GPU; CPU times, not GPU times)";
  }
  std::vector<std::string> names = run.gpu_names;
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return host + ": " + joined(names, ", ") + " (" + std::to_string(run.gpu_names.size()) +
         " GPUs, one per rank, " + std::string(notify::to_string(run.backend)) + ")";
}

std::string method_of(const CalibrationRun& run) {
  const PackUnpackOptions& o = run.options;
  return "stream-approach block programs (notify_pack, notify_unpack): one block of " +
         std::to_string(emulated(run) ? 1 : o.message_threads) +
         (emulated(run) ? " CPU thread" : " threads") +
         " per message, one message per launch; per message shape " + std::to_string(o.warmup) +
         " warm-up and " + std::to_string(o.iterations) + " timed runs; table = mean of the " +
         (o.table_time == TableTime::block ? "block's own time (its clock stamps)"
                                           : "launch-to-synchronize time seen by the host") +
         ", pooled over the shapes of a size and over " + std::to_string(run.run.ranks) +
         (run.run.ranks == 1 ? " rank" : " ranks measured one at a time");
}

}  // namespace

void print_size_table(std::FILE* out, const std::vector<SizeRow>& rows, TableTime time) {
  std::fprintf(out, "\n%10s | %6s %9s %9s %9s %9s %9s | %6s %9s %9s %9s %9s %9s\n", "bytes",
               "packs", "mean", "median", "p10", "p90", "launch", "unpack", "mean", "median", "p10",
               "p90", "launch");
  const auto cells = [&](const std::optional<WorkSummary>& work) {
    if (!work) {
      std::fprintf(out, " %6s %9s %9s %9s %9s %9s", "-", "-", "-", "-", "-", "-");
      return;
    }
    const auto& b = work->block_us;
    std::fprintf(out, " %6d %9.3f %9.3f %9.3f %9.3f %9.3f", work->shapes, b.mean, b.median, b.p10,
                 b.p90, work->launch_us.median);
  };
  for (const SizeRow& row : rows) {
    std::fprintf(out, "%10lld |", static_cast<long long>(row.bytes));
    cells(row.pack);
    std::fprintf(out, " |");
    cells(row.unpack);
    std::fprintf(out, "\n");
  }
  std::fprintf(out,
               "\nmicroseconds; packs/unpack: message shapes of that size; mean..p90: the block's "
               "own time (clock stamps);\nlaunch: median launch-to-synchronize time on the host. "
               "The table takes the %s.\n",
               time == TableTime::block ? "block mean" : "launch mean");
}

void print_halo_sets(std::FILE* out, const std::vector<TimedHaloSet>& sets,
                     const std::vector<FusedFit>& fits) {
  if (sets.empty()) return;
  std::fprintf(out, "\nhalo sets: a cube's whole halo packed or unpacked in one launch (fused "
                    "kernels)\n%6s %10s | %11s %11s | %13s %13s\n",
               "cube", "bytes", "pack pinned", "pack device", "unpack pinned", "unpack device");
  const auto median_of = [&](std::int64_t cube, MessageWork work, BufferPlace place) {
    for (const TimedHaloSet& set : sets) {
      if (set.cube == cube && set.work == work && set.place == place) {
        return slowest_rank_median_us(set);
      }
    }
    return 0.0;
  };
  for (std::size_t s = 0; s < sets.size(); ++s) {
    if (s > 0 && sets[s].cube == sets[s - 1].cube) continue;
    const std::int64_t cube = sets[s].cube;
    std::fprintf(out, "%6lld %10lld | %11.3f %11.3f | %13.3f %13.3f\n",
                 static_cast<long long>(cube), static_cast<long long>(sets[s].bytes),
                 median_of(cube, MessageWork::pack, BufferPlace::pinned),
                 median_of(cube, MessageWork::pack, BufferPlace::device),
                 median_of(cube, MessageWork::unpack, BufferPlace::pinned),
                 median_of(cube, MessageWork::unpack, BufferPlace::device));
  }
  std::fprintf(out, "\nmicroseconds: launch-to-synchronize time on the host, the median of each "
                    "run's slowest rank. Fits T(B) = latency + B / bandwidth:\n");
  for (const FusedFit& fused : fits) {
    std::fprintf(out, "%-14s latency %10.3f us, bandwidth %9.3f GB/s (rms residual %.1f%%, %d "
                      "cubes)%s%s\n",
                 fused.name().c_str(), fused.latency_s() * 1e6, fused.bytes_per_s() * 1e-9,
                 fused.fit.rms_relative_residual * 100.0, fused.fit.points,
                 fused.fit.clamped ? "; clamped: " : "", fused.fit.clamp_reason.c_str());
  }
}

model::FusedKernelTimes fused_kernel_times(const std::vector<FusedFit>& fits) {
  model::FusedKernelTimes fused;
  for (const FusedFit& fit : fits) {
    const model::FusedKernelTime time{fit.latency_s(), fit.bytes_per_s()};
    const bool pack = fit.work == MessageWork::pack;
    if (fit.place == BufferPlace::pinned) {
      (pack ? fused.pack_pinned : fused.unpack_pinned) = time;
    } else {
      (pack ? fused.pack_device : fused.unpack_device) = time;
    }
  }
  return fused;
}

void add_clamp_notes(const std::vector<FusedFit>& fits, model::Provenance& provenance) {
  for (const FusedFit& fused : fits) {
    if (fused.fit.clamped) {
      provenance.notes.push_back("fused " + fused.name() + " fit clamped: " +
                                 fused.fit.clamp_reason);
    }
  }
}

model::PackUnpackTableFile make_table_file(const CalibrationRun& run, const TableWithNotes& table,
                                           double finest_block_us,
                                           const std::vector<FusedFit>& fits) {
  model::PackUnpackTableFile file;
  file.table = table.table;
  model::Provenance& p = file.provenance;
  p.source = "haloflag_calibrate_pack_unpack: " + method_of(run);
  p.machine = machine_of(run);
  p.date = run.run.date;
  p.units = "bytes (bytes), microseconds (pack_us, unpack_us, pack_slowest_us, unpack_slowest_us)";
  if (!fits.empty()) p.units += ", seconds (fused latency_s), bytes per second (fused bytes_per_s)";
  p.notes.push_back("backend " + std::string(notify::to_string(run.backend)) + " (" +
                    run.backend_reason + ")" +
                    (emulated(run) ? ": CPU threads emulate the GPU; these are CPU times, not "
                                     "GPU times"
                                   : ""));
  for (const std::string& gpu : run.gpus) p.notes.push_back("GPU: " + gpu);
  p.notes.push_back("MPI: " + run.run.mpi_library);
  p.notes.push_back("messages from: " + joined(run.sources, "; "));
  p.notes.push_back("finest non-zero block time seen: " + fixed(finest_block_us, 3) +
                    " us (an upper bound on the clock's step)");
  p.notes.push_back("raw measurements: " +
                    std::filesystem::path(run.options.raw_path).filename().string());
  p.notes.push_back("command: " + joined(run.command_line, " "));
  p.notes.push_back("pack_slowest_us, unpack_slowest_us: the largest mean of one message shape "
                    "of that size (its runs on every rank), where pack_us and unpack_us pool "
                    "every shape");
  if (!fits.empty()) {
    p.notes.push_back(halo_sets_note(run));
    file.fused = fused_kernel_times(fits);
  }
  add_clamp_notes(fits, p);
  p.notes.insert(p.notes.end(), table.notes.begin(), table.notes.end());
  return file;
}

std::string raw_json(const CalibrationRun& run, const std::vector<TimedShape>& shapes,
                     const std::vector<SizeRow>& rows, const std::string& table_text,
                     double finest_block_us, const std::vector<TimedHaloSet>& sets,
                     const std::vector<FusedFit>& fits, const CopyRates& copies) {
  const PackUnpackOptions& o = run.options;
  Json json;
  json["format"] = kRawFormat;
  json["version"] = kRawFormatVersion;
  json["run"] = {{"tool", run.run.tool},       {"date", run.run.date},
                 {"mpi_library", run.run.mpi_library}, {"ranks", run.run.ranks},
                 {"hosts", run.run.hosts}};
  json["command_line"] = run.command_line;
  json["backend"] = {{"name", notify::to_string(run.backend)},
                     {"reason", run.backend_reason},
                     {"emulated_on_cpu", emulated(run)}};
  json["gpus"] = run.gpus;
  json["machine"] = machine_of(run);
  json["method"] = method_of(run);
  json["options"] = {{"configs", o.configs},
                     {"cubes", o.cubes},
                     {"halo_cubes", o.halo_cubes},
                     {"sizes", o.sizes},
                     {"vars", o.vars},
                     {"warmup", o.warmup},
                     {"iterations", o.iterations},
                     {"backend", o.backend},
                     {"gpu", o.gpu},
                     {"message_threads", o.message_threads},
                     {"host_threads", o.host_threads},
                     {"table_time", to_string(o.table_time)},
                     {"timeout_s", o.timeout_seconds},
                     {"quick", o.quick},
                     {"out", o.out_path},
                     {"raw", o.raw_path}};
  json["times"] = {
      {"unit", "microseconds"},
      {"block", "the block's own time: pack_begin to packed (pack), ready_seen to unpacked "
                "(unpack), stamped by the block on the device clock (host backend: steady clock)"},
      {"launch", "host steady clock from launch() to synchronize() returning"},
      {"halo_sets", "host steady clock from launch() to synchronize() returning, around one "
                    "fused_pack or fused_unpack launch over every message of the set"},
      {"finest_block_us", finest_block_us}};
  json["table_file"] = o.out_path;
  json["table"] = Json::parse(table_text);

  Json sizes = Json::array();
  for (const SizeRow& row : rows) {
    Json entry;
    entry["bytes"] = row.bytes;
    entry["pack"] = work_json(row.pack);
    entry["unpack"] = work_json(row.unpack);
    sizes.push_back(std::move(entry));
  }
  json["sizes"] = std::move(sizes);

  Json timed = Json::array();
  for (const TimedShape& shape : shapes) {
    Json entry;
    entry["source"] = shape.source;
    entry["field_extent"] = shape.field_extent;
    entry["vars"] = shape.vars;
    entry["work"] = shape.work == MessageWork::pack ? "pack" : "unpack";
    entry["bytes"] = shape.shape.bytes;
    Json boxes = Json::array();
    for (int b = 0; b < shape.shape.layout.box_count; ++b) {
      const kernels::Box& box = shape.shape.layout.boxes[b];
      boxes.push_back({{"begin", {box.begin[0], box.begin[1], box.begin[2]}},
                       {"extent", {box.extent[0], box.extent[1], box.extent[2]}}});
    }
    entry["boxes"] = std::move(boxes);
    Json ranks = Json::array();
    for (std::size_t r = 0; r < shape.block_us.size(); ++r) {
      Json rank;
      rank["rank"] = r;
      rank["block_us"] = summary_json(model::calibration::summarize(shape.block_us[r]));
      rank["launch_us"] = summary_json(model::calibration::summarize(shape.launch_us[r]));
      rank["block_samples_us"] = rounded(shape.block_us[r]);
      rank["launch_samples_us"] = rounded(shape.launch_us[r]);
      ranks.push_back(std::move(rank));
    }
    entry["ranks"] = std::move(ranks);
    timed.push_back(std::move(entry));
  }
  json["shapes"] = std::move(timed);

  Json halo_sets = Json::array();
  for (const TimedHaloSet& set : sets) {
    std::vector<double> all;
    Json rank_medians = Json::array();
    for (const auto& samples : set.launch_us) {
      all.insert(all.end(), samples.begin(), samples.end());
      rank_medians.push_back(model::calibration::summarize(samples).median);
    }
    Json entry;
    entry["cube"] = set.cube;
    entry["field_extent"] = set.field_extent;
    entry["vars"] = set.vars;
    entry["bytes"] = set.bytes;
    entry["messages"] = set.messages;
    entry["work"] = set.work == MessageWork::pack ? "pack" : "unpack";
    entry["place"] = to_string(set.place);
    entry["slowest_rank_median_us"] = slowest_rank_median_us(set);
    entry["launch_us"] = summary_json(model::calibration::summarize(all));
    entry["rank_median_us"] = std::move(rank_medians);
    entry["samples_us"] = rounded(all);  // every rank's runs, in rank order
    halo_sets.push_back(std::move(entry));
  }
  json["halo_sets"] = std::move(halo_sets);
  Json fused = Json::object();
  for (const FusedFit& fit : fits) fused[fit.name()] = fit_json(fit);
  json["fused"] = std::move(fused);
  json["rates"] = rates_json(sets, copies);
  return json.dump(1) + "\n";
}

}  // namespace haloflag::bench
