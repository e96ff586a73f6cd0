// Fields too large for the machine are refused before any of them is allocated, naming the size
// asked for and the memory available, instead of ending in std::bad_alloc.
#include <gtest/gtest.h>

#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/notify/backend.hpp"

namespace {

using haloflag::halo::ConfigError;
using haloflag::halo::Index3;

const Index3 kHuge{50000, 50000, 50000};  // 1.25e14 cells: 1 PB per variable of doubles

TEST(FieldMemory, AHostFieldTooLargeIsRefusedWithItsSizeAndTheMemoryAvailable) {
  try {
    haloflag::halo::HostField field(kHuge, 3);
    FAIL() << "a 3 PB host field was allocated";
  } catch (const ConfigError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("a host field of 50000x50000x50000 cells x 3 variables needs "
                        "3000000000000000 bytes"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("is available (MemAvailable)"), std::string::npos) << text;
  }
}

TEST(FieldMemory, TheHostBackendsDeviceFieldsAreRefusedAlike) {
  try {
    haloflag::halo::DeviceFields fields(haloflag::notify::Backend::host, kHuge, 2);
    FAIL() << "2 PB of device fields were allocated";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("device fields of 50000x50000x50000 cells x 2 "
                                             "variables (host backend) needs"),
              std::string::npos)
        << error.what();
  }
}

// On a GPU the fields are refused before the first variable is allocated, naming the GPU's free
// memory. Runs in the gpu-labelled job (ctest -L gpu); skips, saying why, without a GPU.
TEST(FieldMemory, GpuDeviceFieldsTooLargeAreRefusedWithTheGpusFreeMemory) {
  using haloflag::notify::Backend;
  const Backend gpu =
      haloflag::notify::backend_compiled(Backend::cuda) ? Backend::cuda : Backend::hip;
  if (!haloflag::notify::backend_compiled(gpu)) GTEST_SKIP() << "no GPU backend compiled in";
  std::string reason;
  if (haloflag::notify::gpu_device_count(&reason) == 0) GTEST_SKIP() << "no GPU: " << reason;
  try {
    haloflag::halo::DeviceFields fields(gpu, kHuge, 2);
    FAIL() << "2 PB of GPU fields were allocated";
  } catch (const ConfigError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("device fields of 50000x50000x50000 cells x 2 variables needs "
                        "2000000000000000 bytes"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("of memory on GPU 0; "), std::string::npos) << text;
    EXPECT_NE(text.find(" is free"), std::string::npos) << text;
  }
}

TEST(FieldMemory, FieldsThatFitAreMade) {
  const haloflag::halo::HostField field(Index3{4, 5, 6}, 2);
  EXPECT_EQ(field.cells(), 120);
}

}  // namespace
