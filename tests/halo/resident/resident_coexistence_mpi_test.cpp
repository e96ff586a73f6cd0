// Strategy::resident beside the program's own device-wide work, on a GPU (issue 57). Resident
// kernels used to stay on the GPU from the Exchange's constructor to its end, so anything that
// waits for the whole device waited for them until the exchange's deadline and broke the next
// exchange. With the default idle window (ExchangeOptions::idle_exit, 2 ms) they leave once no
// exchange has started for that long, and the next start launches them again.
//
// Right after a completed exchange, while the kernels are still on the GPU, each case does one
// of: cudaDeviceSynchronize(); cudaMalloc of 1 GiB and its cudaFree; the first launch of a
// kernel the process has never launched, from a module loaded lazily (CUDA_MODULE_LOADING=LAZY,
// set by the CTest job; resident_lazy_kernel.cu.in makes one module per case); a second
// Exchange made, run and destroyed while the first lives. The step must take less than the
// window plus a slack (a hang would take the 20 s deadline; each step's time is printed), the
// exchange before it and the next one must be right in every cell, and the next one must have
// relaunched the kernels (Exchange::relaunches()). Then 200 back-to-back exchanges relaunch
// nothing, and with kIdleExitNever an idle sleep relaunches nothing (a device-wide wait there
// would hang until the deadline, as before, so it is not tried).
//
// Every case in both forms, run() and start(stream)/wait(stream) on a non-blocking stream of
// the test's own, over the node transport (the default on one host) and over MPI. The GPU job
// (halo_resident_coexistence_<gpu>_np2) runs 2 ranks, sharing a GPU under MPS where they must;
// without a GPU backend every case skips, saying why. resident_idle_exit_mpi_test.cpp tests the
// idle exit itself on the host backend.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/transport.hpp"
#include "mpi_world.hpp"
#include "resident_idle.hpp"
#include "test_backend.hpp"

#if defined(HALOFLAG_HAVE_GPU)
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "resident_lazy_kernel.hpp"
#endif

namespace {

#if !defined(HALOFLAG_HAVE_GPU)

TEST(ResidentCoexistence, NeedsAGpuBackend) {
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
}

#else

using haloflag::halo::ExchangeOptions;
using haloflag::halo::Geometry;
using haloflag::halo::kDefaultIdleExit;
using haloflag::halo::kIdleExitNever;
using haloflag::halo::Transport;
using haloflag::test::form_name;
using haloflag::test::idle_test_geometry;
using haloflag::test::resident_options;
using haloflag::test::seconds_since;
using haloflag::test::StartForm;
using haloflag::test::transport_name;
using haloflag::test::VerifiedResident;
using haloflag::test::world_rank;

// What a step beside the kernels may take beyond the idle window: far below the 20 s deadline
// that a step waiting for the kernels would take.
constexpr auto kSlack = std::chrono::seconds(2);
// A second Exchange's whole life (set-up with its handshake, two exchanges, tear-down).
constexpr auto kSecondExchangeSlack = std::chrono::seconds(5);
constexpr int kBackToBack = 200;

struct Case {
  StartForm form;
  Transport transport;
  int lazy_slot;  // the case's own never-launched kernel (resident_lazy_kernel.hpp)
};

std::string case_name(const Case& c) {
  return std::string(c.form == StartForm::host ? "run" : "stream") + "_" +
         transport_name(c.transport);
}

using LazyLaunch = void (*)(void*, unsigned*, unsigned);
constexpr std::array<LazyLaunch, haloflag::test::kLazyKernelSlots> kLazyLaunches = {
    &haloflag::test::launch_lazy_kernel_0, &haloflag::test::launch_lazy_kernel_1,
    &haloflag::test::launch_lazy_kernel_2, &haloflag::test::launch_lazy_kernel_3};
std::array<bool, haloflag::test::kLazyKernelSlots> lazy_slot_launched{};

class Coexistence : public testing::TestWithParam<Case> {
 protected:
  ExchangeOptions options(std::chrono::nanoseconds idle_exit = kDefaultIdleExit) const {
    return resident_options(haloflag::test::test_backend(), GetParam().transport, idle_exit);
  }
  std::string label() const {
    return form_name(GetParam().form) + " over " + transport_name(GetParam().transport);
  }

  // Right after a completed exchange (the kernels still on the GPU, inside their window), runs
  // `step` and times it; then checks that exchange's cells, runs the next one (which must
  // relaunch the kernels) and one more, each right in every cell.
  template <class Step>
  void expect_step_beside_the_kernels(VerifiedResident& resident, const std::string& what,
                                      std::chrono::nanoseconds slack, Step step) {
    resident.exchange();
    const std::uint64_t before = resident.relaunches();
    const auto started = std::chrono::steady_clock::now();
    step();
    const double seconds = seconds_since(started);
    const double limit = std::chrono::duration<double>(kDefaultIdleExit + slack).count();
    EXPECT_LT(seconds, limit) << "rank " << world_rank() << ": " << what << " (" << label()
                              << ") took " << seconds << " s: it waited for the kernels";
    EXPECT_EQ(resident.check(), "") << "rank " << world_rank() << ", before " << what;
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank() << ", after " << what;
    const std::uint64_t after = resident.relaunches();
    EXPECT_GE(after, before + 1) << "rank " << world_rank() << ": after " << what << " ("
                                 << label() << ") the kernels were not relaunched";
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank() << ", after " << what;
    std::printf("[rank %d] %s beside the resident kernels (%s): %.3f ms; relaunches %llu -> %llu\n",
                world_rank(), what.c_str(), label().c_str(), seconds * 1e3,
                static_cast<unsigned long long>(before), static_cast<unsigned long long>(after));
    std::fflush(stdout);
  }
};

#define SKIP_WITHOUT_GPU()                                                                   \
  SKIP_UNLESS_GPU_BACKEND("resident kernels beside device-wide work "                        \
                          "(halo_resident_coexistence_<gpu>_np2 runs it)")

TEST_P(Coexistence, DeviceSynchronizeEndsWithinTheIdleWindow) {
  SKIP_WITHOUT_GPU();
  VerifiedResident resident(idle_test_geometry(), options(), GetParam().form);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  expect_step_beside_the_kernels(resident, "cudaDeviceSynchronize()", kSlack,
                                 [] { HF_GPU_CHECK(cudaDeviceSynchronize()); });
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(Coexistence, FreeingALargeAllocationEndsWithinTheIdleWindow) {
  SKIP_WITHOUT_GPU();
  VerifiedResident resident(idle_test_geometry(), options(), GetParam().form);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  expect_step_beside_the_kernels(resident, "cudaMalloc(1 GiB) and cudaFree", kSlack, [] {
    void* large = nullptr;
    HF_GPU_CHECK(cudaMalloc(&large, std::size_t{1} << 30));
    HF_GPU_CHECK(cudaFree(large));
  });
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(Coexistence, FirstLaunchOfALazilyLoadedKernelEndsWithinTheIdleWindow) {
  SKIP_WITHOUT_GPU();
#if defined(HALOFLAG_HAVE_HIP)
  GTEST_SKIP() << "the lazily loaded module is CUDA's (CUDA_MODULE_LOADING=LAZY)";
#endif
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  if (loading == nullptr || std::string(loading) != "LAZY") {
    GTEST_SKIP() << "needs CUDA_MODULE_LOADING=LAZY (the CTest job sets it); here it is "
                 << (loading == nullptr ? "unset" : loading);
  }
  const int slot = GetParam().lazy_slot;
  if (lazy_slot_launched[static_cast<std::size_t>(slot)]) {
    GTEST_SKIP() << "this case's kernel was launched already in this process (a repeated run): "
                    "its first launch is over";
  }
  lazy_slot_launched[static_cast<std::size_t>(slot)] = true;
  // The word the kernel writes and the stream it runs on come before the Exchange.
  const haloflag::notify::Backend backend = haloflag::test::test_backend();
  haloflag::kernels::DeviceMemory word(backend, sizeof(unsigned));
  haloflag::notify::GpuStream stream;
  const unsigned value = 0xC0DE0000u + static_cast<unsigned>(slot);
  VerifiedResident resident(idle_test_geometry(), options(), GetParam().form);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  expect_step_beside_the_kernels(
      resident, "the first launch of a lazily loaded kernel", kSlack, [&] {
        kLazyLaunches[static_cast<std::size_t>(slot)](stream.get(),
                                                      static_cast<unsigned*>(word.data()), value);
        HF_GPU_CHECK(cudaStreamSynchronize(stream.get()));
      });
  unsigned found = 0;
  word.copy_to_host(&found, sizeof(found));
  EXPECT_EQ(found, value) << "rank " << world_rank() << ": the kernel did not run";
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(Coexistence, ASecondExchangeComesAndGoesWhileTheFirstLives) {
  SKIP_WITHOUT_GPU();
  const Geometry geometry = idle_test_geometry();
  VerifiedResident resident(geometry, options(), GetParam().form);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  std::array<std::string, 2> second_reports;
  expect_step_beside_the_kernels(
      resident, "a second Exchange made, run twice and destroyed", kSecondExchangeSlack, [&] {
        VerifiedResident second(geometry, options(), GetParam().form);  // its own fields
        for (std::string& report : second_reports) report = second.exchange_and_check();
      });
  for (const std::string& report : second_reports) {
    EXPECT_EQ(report, "") << "rank " << world_rank() << ", the second Exchange";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(Coexistence, BackToBackExchangesNeverRelaunch) {
  SKIP_WITHOUT_GPU();
  VerifiedResident resident(idle_test_geometry(), options(), GetParam().form);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  const std::uint64_t before = resident.relaunches();
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < kBackToBack; ++i) {
    const std::string report = resident.exchange_and_check();
    ASSERT_EQ(report, "") << "rank " << world_rank();
  }
  const double seconds = seconds_since(started);
  EXPECT_EQ(resident.relaunches(), before)
      << "rank " << world_rank() << ": " << kBackToBack << " back-to-back exchanges ("
      << label() << ") relaunched the kernels";
  std::printf("[rank %d] %d back-to-back exchanges (%s): %.1f us each, %llu relaunches\n",
              world_rank(), kBackToBack, label().c_str(), seconds * 1e6 / kBackToBack,
              static_cast<unsigned long long>(resident.relaunches() - before));
  std::fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
}

// kIdleExitNever keeps today's behaviour: the kernels stay across an idle sleep. (A device-wide
// wait here would hang until the deadline, so none is tried.)
TEST_P(Coexistence, IdleExitNeverKeepsTheKernelsAcrossAnIdleSleep) {
  SKIP_WITHOUT_GPU();
  VerifiedResident resident(idle_test_geometry(), options(kIdleExitNever), GetParam().form);
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  }
  EXPECT_EQ(resident.relaunches(), 0u) << "rank " << world_rank() << " (" << label() << ")";
  MPI_Barrier(MPI_COMM_WORLD);
}

INSTANTIATE_TEST_SUITE_P(FormsAndTransports, Coexistence,
                         testing::Values(Case{StartForm::host, Transport::automatic, 0},
                                         Case{StartForm::host, Transport::mpi, 1},
                                         Case{StartForm::stream, Transport::automatic, 2},
                                         Case{StartForm::stream, Transport::mpi, 3}),
                         [](const testing::TestParamInfo<Case>& param) {
                           return case_name(param.param);
                         });

#endif  // HALOFLAG_HAVE_GPU

}  // namespace
