// The calibration fits on synthetic data: postal alpha/beta, the eager/rendezvous switch found
// where the line changes, and R_Cb/R_Ci from aggregate bandwidths; clamping of coefficients that
// come out <= 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "haloflag/model/bandwidth_fit.hpp"
#include "haloflag/model/postal_fit.hpp"

namespace {

using namespace haloflag::model;

std::vector<std::int64_t> powers_of_two(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = from; n <= to; n *= 2) sizes.push_back(n);
  return sizes;
}

// Eager alpha 1 us, beta 3e-10 s/B up to 8 KiB; rendezvous alpha 5 us, beta 1e-10 s/B above.
std::vector<double> two_protocol_times(const std::vector<std::int64_t>& sizes) {
  std::vector<double> times;
  for (const std::int64_t n : sizes) {
    times.push_back(n <= 8192 ? 1e-6 + 3e-10 * static_cast<double>(n)
                              : 5e-6 + 1e-10 * static_cast<double>(n));
  }
  return times;
}

TEST(PostalFit, RecoversAnExactLine) {
  const std::vector<std::int64_t> sizes = powers_of_two(8, 1 << 20);
  std::vector<double> times;
  for (const std::int64_t n : sizes) times.push_back(2e-6 + 1e-10 * static_cast<double>(n));
  const PostalFit fit = fit_postal(sizes, times);
  EXPECT_NEAR(fit.params.alpha, 2e-6, 1e-15);
  EXPECT_NEAR(fit.params.beta, 1e-10, 1e-19);
  EXPECT_FALSE(fit.clamped);
  EXPECT_LT(fit.rms_relative_residual, 1e-9);
  EXPECT_EQ(fit.points, static_cast<int>(sizes.size()));
  EXPECT_EQ(fit.min_bytes, 8);
  EXPECT_EQ(fit.max_bytes, 1 << 20);
}

TEST(PostalFit, DetectsTheProtocolSwitch) {
  const std::vector<std::int64_t> sizes = powers_of_two(8, 16 << 20);
  const ProtocolSwitchFit fit = fit_protocol_switch(sizes, two_protocol_times(sizes));
  EXPECT_EQ(fit.method, "detected");
  EXPECT_EQ(fit.threshold_bytes, 8192);
  EXPECT_NEAR(fit.eager.params.alpha, 1e-6, 1e-12);
  EXPECT_NEAR(fit.eager.params.beta, 3e-10, 1e-16);
  EXPECT_NEAR(fit.rendezvous.params.alpha, 5e-6, 1e-12);
  EXPECT_NEAR(fit.rendezvous.params.beta, 1e-10, 1e-16);
  EXPECT_LT(fit.two_line_rms_relative_residual, 1e-6);
  EXPECT_GT(fit.single_line_rms_relative_residual, 0.03);
}

TEST(PostalFit, NoSwitchInOneLine) {
  const std::vector<std::int64_t> sizes = powers_of_two(8, 1 << 20);
  std::vector<double> times;
  for (const std::int64_t n : sizes) times.push_back(2e-6 + 1e-10 * static_cast<double>(n));
  const ProtocolSwitchFit fit = fit_protocol_switch(sizes, times);
  EXPECT_EQ(fit.method, "none");
  EXPECT_EQ(fit.threshold_bytes, 1 << 20);  // every measured size eager
  EXPECT_EQ(fit.eager.params, fit.rendezvous.params);
}

TEST(PostalFit, GivenThresholdSplitsThere) {
  const std::vector<std::int64_t> sizes = powers_of_two(8, 16 << 20);
  const ProtocolSwitchFit fit = fit_protocol_switch(sizes, two_protocol_times(sizes), 10000);
  EXPECT_EQ(fit.method, "given");
  EXPECT_EQ(fit.threshold_bytes, 10000);
  EXPECT_NEAR(fit.eager.params.beta, 3e-10, 1e-16);
  EXPECT_NEAR(fit.rendezvous.params.alpha, 5e-6, 1e-12);
  // A threshold above every size leaves the rendezvous side empty: it borrows the eager fit.
  const ProtocolSwitchFit all_eager = fit_protocol_switch(sizes, two_protocol_times(sizes), 1 << 30);
  EXPECT_TRUE(all_eager.rendezvous.borrowed);
  EXPECT_FALSE(all_eager.eager.borrowed);
  EXPECT_EQ(all_eager.rendezvous.params, all_eager.eager.params);
}

TEST(PostalFit, NonPositiveCoefficientsAreClampedToFloors) {
  // Flat times (noise on a latency-bound range): beta would be ~0 or negative.
  const std::vector<std::int64_t> sizes{8, 16, 32, 64};
  const std::vector<double> flat{1.01e-6, 1.0e-6, 0.99e-6, 0.98e-6};
  const PostalFit fit = fit_postal(sizes, flat);
  EXPECT_TRUE(fit.clamped);
  EXPECT_GT(fit.params.beta, 0.0);
  EXPECT_GT(fit.params.alpha, 0.0);
  EXPECT_NE(fit.clamp_reason.find("beta"), std::string::npos);
  // A convex rise through the origin makes the intercept negative.
  const std::vector<std::int64_t> big{1000, 2000, 4000, 8000};
  const std::vector<double> convex{1e-7, 4e-7, 1.6e-6, 6.4e-6};
  const PostalFit steep = fit_postal(big, convex);
  EXPECT_TRUE(steep.clamped);
  EXPECT_GT(steep.params.alpha, 0.0);
  EXPECT_GT(steep.params.beta, 0.0);
  EXPECT_NE(steep.clamp_reason.find("alpha"), std::string::npos);
}

TEST(PostalFit, BadInputIsRejected) {
  const std::vector<std::int64_t> one{8};
  const std::vector<double> t1{1e-6};
  EXPECT_THROW(fit_postal(one, t1), std::invalid_argument);
  const std::vector<std::int64_t> two{8, 16};
  const std::vector<double> zero{1e-6, 0.0};
  EXPECT_THROW(fit_postal(two, zero), std::invalid_argument);
  const std::vector<std::int64_t> unsorted{16, 8};
  const std::vector<double> t2{1e-6, 2e-6};
  EXPECT_THROW(fit_protocol_switch(unsorted, t2), std::invalid_argument);
}

TEST(BandwidthFit, RecoversBaseAndIncrement) {
  // aggregate(f) = 5e9 + (f - 1) * 2e9.
  const std::vector<double> flows{1, 2, 3, 4};
  const std::vector<double> bandwidth{5e9, 7e9, 9e9, 11e9};
  const BandwidthFit fit = fit_bandwidth(flows, bandwidth);
  EXPECT_NEAR(fit.r_cb, 5e9, 1e-3);
  EXPECT_NEAR(fit.r_ci, 2e9, 1e-3);
  EXPECT_FALSE(fit.r_ci_clamped);
  EXPECT_LT(fit.rms_relative_residual, 1e-12);
}

TEST(BandwidthFit, SaturatedLinkClampsRci) {
  const std::vector<double> flows{1, 2, 3};
  const std::vector<double> falling{1.4e10, 1.25e10, 1.2e10};
  const BandwidthFit fit = fit_bandwidth(flows, falling);
  EXPECT_TRUE(fit.r_ci_clamped);
  EXPECT_NEAR(fit.r_ci, 0.01 * fit.r_cb, 1e-6 * fit.r_cb);
  EXPECT_GT(fit.r_cb, 0.0);

  const std::vector<double> one_flow{1};
  const std::vector<double> one_value{3e9};
  const BandwidthFit single = fit_bandwidth(one_flow, one_value);
  EXPECT_DOUBLE_EQ(single.r_cb, 3e9);
  EXPECT_TRUE(single.r_ci_clamped);
  EXPECT_NE(single.clamp_reason.find("one flow count"), std::string::npos);
}

TEST(BandwidthFit, BadInputIsRejected) {
  const std::vector<double> none;
  EXPECT_THROW(fit_bandwidth(none, none), std::invalid_argument);
  const std::vector<double> zero_flows{0};
  const std::vector<double> bw{1e9};
  EXPECT_THROW(fit_bandwidth(zero_flows, bw), std::invalid_argument);
  const std::vector<double> flows{1};
  const std::vector<double> negative{-1e9};
  EXPECT_THROW(fit_bandwidth(flows, negative), std::invalid_argument);
}

}  // namespace
