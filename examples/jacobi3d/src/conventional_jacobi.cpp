// The conventional variant: per iteration one update of all owned cells (in -> out, a kernel
// launch on a GPU), then a Comb-style exchange (halo::Strategy::comb_fused) of `out`'s halo, then
// the buffers swap roles. One Exchange per buffer: an Exchange is bound to the fields it packs.
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "initial_field.hpp"
#include "jacobi_variant.hpp"
#include "owned_sweep.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

class ConventionalJacobi final : public JacobiVariant {
 public:
  ConventionalJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), rank_(comm_rank(comm)),
        regions_(sweep_regions(problem.geometry.subdomain(rank_).extent, kGhostWidth)),
        extent_(problem.geometry.subdomain(rank_).field_extent),
        buffers_{hh::DeviceFields(settings.backend, extent_, 1),
                 hh::DeviceFields(settings.backend, extent_, 1)} {
    hh::ExchangeOptions options;
    options.strategy = hh::Strategy::comb_fused;
    options.backend = settings.backend;
    options.comm = comm;
    options.timeout = settings.timeout;
    options.transport = settings.transport;
    options.node_size = settings.node_size;
    for (int k = 0; k < 2; ++k) {
      exchanges_[k] = std::make_unique<hh::Exchange>(problem_.geometry, buffers_[k].view(), options);
    }
    // After the collective set-up, so that a rank failing here cannot strand the others in it.
    sweep_ = make_owned_sweep(settings.backend, settings.gpu_threads);
  }

  VariantKind kind() const override { return VariantKind::conventional; }

  void reset() override {
    const hh::HostField initial = initial_field(problem_.geometry, rank_);
    for (auto& buffer : buffers_) buffer.upload(initial);
    in_ = 0;
  }

  double run(int iterations) override {
    const auto begin = std::chrono::steady_clock::now();
    for (int step = 0; step < iterations; ++step) {
      const int out = in_ ^ 1;
      const SweepFields fields{buffers_[in_].view().variables[0],
                               buffers_[out].view().variables[0], extent_[0],
                               extent_[0] * extent_[1]};
      sweep_->run(problem_.stencil, fields, regions_.owned);
      exchanges_[out]->run();
      in_ = out;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  hh::HostField current() const override {
    hh::HostField field(extent_, 1);
    buffers_[in_].download(field);
    return field;
  }

  std::string launch_description() const override {
    return sweep_->describe(regions_.owned) + "; exchange comb_fused: " +
           exchanges_[0]->launch_description();
  }

 private:
  static int comm_rank(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
  }

  Problem problem_;
  int rank_;
  SweepRegions regions_;
  hh::Index3 extent_;
  std::array<hh::DeviceFields, 2> buffers_;
  std::array<std::unique_ptr<hh::Exchange>, 2> exchanges_;
  std::unique_ptr<OwnedSweep> sweep_;
  int in_ = 0;  // the buffer holding the current field
};

}  // namespace

std::unique_ptr<JacobiVariant> make_conventional(const Problem& problem, MPI_Comm comm,
                                                 const RunSettings& settings) {
  return std::make_unique<ConventionalJacobi>(problem, comm, settings);
}

}  // namespace jacobi3d
