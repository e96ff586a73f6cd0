// CUDA and HIP alike through gpu_runtime.hpp.
#include <chrono>
#include <stdexcept>
#include <string>

#include "gpu_copies.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench {

namespace {

// Makes `device` current for a scope: the peer's buffer is allocated and freed there.
class OnDevice {
 public:
  explicit OnDevice(int device) {
    HF_GPU_CHECK(cudaGetDevice(&previous_));
    HF_GPU_CHECK(cudaSetDevice(device));
  }
  ~OnDevice() { (void)cudaSetDevice(previous_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int previous_ = 0;
};

// Device memory of one GPU, zero-filled.
class Buffer {
 public:
  Buffer(int device, std::size_t bytes) : device_(device) {
    const OnDevice on(device);
    HF_GPU_CHECK(cudaMalloc(&data_, bytes));
    HF_GPU_CHECK(cudaMemset(data_, 0, bytes));
  }
  ~Buffer() {
    const OnDevice on(device_);
    (void)cudaFree(data_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const { return data_; }

 private:
  int device_;
  void* data_ = nullptr;
};

// Where a peer's copy goes: the next visible GPU, with peer access when both allow it.
std::string choose_peer(int device, int& peer) {
  int count = 0;
  HF_GPU_CHECK(cudaGetDeviceCount(&count));
  if (count < 2) {
    peer = -1;
    return "no peer GPU: one GPU visible";
  }
  peer = (device + 1) % count;
  const std::string which = "GPU " + std::to_string(peer) + " of " + std::to_string(count);
  if (!notify::enable_peer_access(device, peer)) {
    return which + ", no peer access (the driver stages the copy)";
  }
  return which + ", peer access on";
}

}  // namespace

struct GpuCopies::State {
  std::size_t bytes;
  int device = 0;
  int peer = -1;
  std::string peer_text;
  notify::GpuStream stream;
  Buffer source;
  Buffer target;
  std::unique_ptr<Buffer> peer_target;

  State(std::size_t size, int current)
      : bytes(size), device(current), source(current, size), target(current, size) {
    peer_text = choose_peer(device, peer);
    if (peer >= 0) peer_target = std::make_unique<Buffer>(peer, size);
  }

  template <class Enqueue>
  double timed(Enqueue enqueue) {
    const auto start = std::chrono::steady_clock::now();
    HF_GPU_CHECK(enqueue());
    HF_GPU_CHECK(cudaStreamSynchronize(stream.get()));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

GpuCopies::GpuCopies(std::int64_t bytes) {
  if (bytes < 1) throw std::invalid_argument("GpuCopies: a copy needs bytes");
  int device = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  state_ = std::make_unique<State>(static_cast<std::size_t>(bytes), device);
}

GpuCopies::~GpuCopies() = default;

bool GpuCopies::has_peer() const { return state_->peer >= 0; }

const std::string& GpuCopies::peer() const { return state_->peer_text; }

double GpuCopies::device_copy_s() {
  State& s = *state_;
  return s.timed([&] {
    return cudaMemcpyAsync(s.target.data(), s.source.data(), s.bytes, cudaMemcpyDeviceToDevice,
                           s.stream.get());
  });
}

double GpuCopies::peer_copy_s() {
  State& s = *state_;
  if (!s.peer_target) throw std::logic_error("GpuCopies: no peer GPU to copy to");
  return s.timed([&] {
    return cudaMemcpyPeerAsync(s.peer_target->data(), s.peer, s.source.data(), s.device, s.bytes,
                               s.stream.get());
  });
}

}  // namespace haloflag::bench
