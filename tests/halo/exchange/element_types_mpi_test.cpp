// Fields of any element type and layout through halo::Exchange with real MPI ranks: every
// strategy (and the embedded API) with float, int32, a 12-byte structure, rows padded to 32
// cells, variables interleaved in one array, and types mixed in one Exchange; each over several
// exchanges with every byte of every cell of every rank checked against the data the neighbour
// owns. Fields that do not match the config are refused at set-up, naming the variable.
//
// The backend comes from HALOFLAG_TEST_BACKEND, the transport from HALOFLAG_TEST_TRANSPORT and
// HALOFLAG_NODE_SIZE (test_transport.hpp), as in the strategy tests.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "geometry_cases.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "typed_field.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/host_groups.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::TypedField;
using haloflag::test::TypedLayout;
using haloflag::test::typed_geometries;
using haloflag::test::world_rank;

constexpr int kExchanges = 4;

ExchangeOptions options_for(Strategy strategy) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = haloflag::test::test_backend();
  options.timeout = std::chrono::seconds(60);
  haloflag::test::apply_test_transport(options);
  return options;
}

[[noreturn]] void abort_job(const std::string& label, const std::exception& error) {
  // Every rank would otherwise wait for its deadline.
  std::fprintf(stderr, "[rank %d] %s, %s: %s\n", world_rank(), label.c_str(),
               haloflag::test::test_transport_label().c_str(), error.what());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

// Runs kExchanges verified exchanges of `layout` with `strategy`; "" when every one was right.
std::string run_typed(const Geometry& geometry, const TypedLayout& layout, Strategy strategy,
                      const std::string& label) {
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = options_for(strategy);
  TypedField field(options.backend, verifier.field_extent(), layout);
  std::string first;
  try {
    Exchange exchange(geometry, field.view(), options);
    for (int i = 0; i < kExchanges; ++i) {
      const std::uint64_t epoch = exchange.epoch() + 1;
      field.prepare(verifier, epoch);
      exchange.start().wait();
      const std::string report = field.check(verifier, epoch);
      if (!report.empty() && first.empty()) first = report;
    }
  } catch (const std::exception& error) {
    abort_job(label, error);
  }
  return first;
}

class TypedFields : public testing::TestWithParam<Strategy> {};

TEST_P(TypedFields, EveryLayoutAndTypeKeepsEveryGhostByteRight) {
  SKIP_WITHOUT_BACKEND();
  for (const TypedLayout& layout : haloflag::test::typed_layouts()) {
    for (const Geometry& geometry : typed_geometries(layout)) {
      const std::string label = std::string(to_string(GetParam())) + ", " + layout.name + ", " +
                                std::to_string(geometry.spec().ghost[0]) + "-cell ghosts";
      EXPECT_EQ(run_typed(geometry, layout, GetParam(), label), "")
          << label << ", " << haloflag::test::test_transport_label() << ", rank " << world_rank();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, TypedFields,
                         testing::ValuesIn(all_strategies().begin(), all_strategies().end()),
                         [](const testing::TestParamInfo<Strategy>& strategy) {
                           return std::string(to_string(strategy.param));
                         });

// The embedded API packs and unpacks typed fields from the caller's own "kernel" (one host
// thread here, on the host backend) while the host runs start()/finish().
TEST(TypedFieldsEmbedded, CallersKernelMovesEveryLayout) {
  SKIP_WITHOUT_BACKEND();
  if (haloflag::test::test_backend() != haloflag::notify::Backend::host) {
    GTEST_SKIP() << "the thread kernel needs the host backend (GPU: halo_embedded tests)";
  }
  for (const TypedLayout& layout : haloflag::test::typed_layouts()) {
    const Geometry geometry = typed_geometries(layout).back();
    const std::string label = "embedded, " + layout.name;
    const ExchangeVerifier verifier(geometry, world_rank());
    TypedField field(haloflag::notify::Backend::host, verifier.field_extent(), layout);
    std::string first;
    try {
      Exchange exchange(geometry, field.view(), options_for(Strategy::embedded));
      const haloflag::kernels::DevicePlan plan = exchange.device_plan();
      for (int i = 0; i < kExchanges; ++i) {
        const std::uint64_t epoch = exchange.epoch() + 1;
        field.prepare(verifier, epoch);
        haloflag::kernels::BlockStatus status = haloflag::kernels::BlockStatus::ok;
        std::thread kernel([&] {
          const haloflag::kernels::HostThreadGroup block;
          for (std::uint32_t m = 0; m < plan.send_count(); ++m) {
            if (status == haloflag::kernels::BlockStatus::ok) {
              status = haloflag::kernels::embedded_pack(block, plan, m, epoch);
            }
          }
          for (std::uint32_t r = 0; r < plan.recv_count(); ++r) {
            if (status == haloflag::kernels::BlockStatus::ok) {
              status = haloflag::kernels::embedded_unpack(block, plan, r, epoch);
            }
          }
        });
        exchange.start();
        exchange.finish();
        kernel.join();
        ASSERT_EQ(status, haloflag::kernels::BlockStatus::ok) << label;
        const std::string report = field.check(verifier, epoch);
        if (!report.empty() && first.empty()) first = report;
      }
    } catch (const std::exception& error) {
      abort_job(label, error);
    }
    EXPECT_EQ(first, "") << label << ", rank " << world_rank();
  }
}

// Fields that disagree with the config are refused at set-up on every rank, naming the rank and
// the variable: a float field for a config of doubles, and a row pitch shorter than the row.
TEST(TypedFieldsSetUp, FieldsThatDisagreeWithTheConfigAreRefusedNamingTheVariable) {
  SKIP_WITHOUT_BACKEND();
  const TypedLayout floats{"float", {4}, false, 1};
  GeometrySpec spec = typed_geometries(floats).front().spec();
  spec.variable_bytes.clear();
  spec.element_bytes = 8;  // the config says doubles
  const Geometry doubles(spec);
  const ExchangeVerifier verifier(doubles, world_rank());
  TypedField field(haloflag::test::test_backend(), verifier.field_extent(), floats);
  const auto error_of = [&](const haloflag::kernels::FieldSet& fields) {
    try {
      Exchange exchange(doubles, fields, options_for(Strategy::stream_notify));
    } catch (const haloflag::Error& error) {
      EXPECT_EQ(error.kind(), haloflag::ErrorKind::config) << error.what();
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const std::string wrong_size = error_of(field.view());
  EXPECT_NE(wrong_size.find("rank " + std::to_string(world_rank()) +
                            ": field variable 0 has 4-byte elements, but the config's messages "
                            "carry 8-byte elements"),
            std::string::npos)
      << wrong_size;

  haloflag::kernels::FieldSet short_rows = field.view();
  short_rows.variables[0].element_bytes = 8;
  short_rows.variables[0].stride[0] = 8;
  short_rows.variables[0].stride[1] = 8 * (verifier.field_extent()[0] - 1);
  const std::string overlap = error_of(short_rows);
  EXPECT_NE(overlap.find("field variable 0: its y stride"), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("cells overlap"), std::string::npos) << overlap;
}

}  // namespace
