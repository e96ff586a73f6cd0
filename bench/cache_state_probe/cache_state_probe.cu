// Probe: does the CPU cache state of pinned host lines change how fast the GPU reads or writes
// them over PCIe? In a halo exchange MPI's CPU copies touch the send and receive buffers just
// before the kernels do: the receiver's copy leaves the receive buffer dirty in the CPU's caches,
// and the sender-side read leaves the send buffer clean in them.
//
// Each trial launches 6 blocks of 1024 threads that wait for a host flag, then read (or write)
// 6 x 60000 B of pinned, mapped host memory (the six long messages of cube 200), one message per
// block. Before raising the flag the CPU prepares the lines as the case says. The GPU time runs
// from the first block seeing the flag to the last block's end (%globaltimer; writes end with a
// __threadfence_system()). 280 timed trials per case after 20 warm-up ones, two passes.
// CUDA builds on x86-64 only (clflushopt, clwb, cldemote; cases whose instruction the CPU lacks
// are reported as not run); scripts/bench/probe_cache_state.sh builds, runs and records it.
// Eager module loading keeps the first launch from stalling while the CPU prepares the lines:
//   CUDA_MODULE_LOADING=EAGER build-gpu/bench/cache_state_probe/cache_state_probe
#include <cpuid.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t status_ = (call);                                                    \
    if (status_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,             \
                   cudaGetErrorString(status_));                                     \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

using u64 = unsigned long long;
constexpr int kBlocks = 6;
constexpr int kThreads = 1024;
constexpr std::size_t kMessageBytes = 60000;
constexpr std::size_t kBytes = kBlocks * kMessageBytes;
constexpr int kDoubles = kMessageBytes / 8;
constexpr int kWarmup = 20;
constexpr int kTrials = 300;

__device__ u64 global_ns() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr u64 kWaitDeadlineNs = 2'000'000'000;  // a lost go flag ends the trial, not the run

// Returns false (and marks *timed_out) when the go flag has not come within the deadline.
__device__ bool wait_for(const volatile u64* go, u64 epoch, int* timed_out) {
  __shared__ bool seen;
  if (threadIdx.x == 0) {
    const u64 deadline = global_ns() + kWaitDeadlineNs;
    while (*go != epoch && global_ns() < deadline) {
    }
    seen = *go == epoch;
    if (!seen) *timed_out = 1;
  }
  __syncthreads();
  return seen;
}

// Four loads in flight per thread before they are used, as the exchange's unpack does.
__global__ void read_messages(const double* buffer, const volatile u64* go, u64 epoch, u64* times,
                              double* sink, int* timed_out) {
  if (!wait_for(go, epoch, timed_out)) return;
  const u64 begin = global_ns();
  const double* message = buffer + blockIdx.x * kDoubles;
  double sum = 0;
  for (int i = threadIdx.x; i < kDoubles; i += 4 * kThreads) {
    double v[4];
    for (int k = 0; k < 4; ++k) {
      const int j = i + k * kThreads;
      v[k] = j < kDoubles ? message[j] : 0.0;
    }
    sum += v[0] + v[1] + v[2] + v[3];
  }
  sink[blockIdx.x * kThreads + threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    times[2 * blockIdx.x] = begin;
    times[2 * blockIdx.x + 1] = global_ns();
  }
}

__global__ void write_messages(double* buffer, const volatile u64* go, u64 epoch, u64* times,
                               int* timed_out) {
  if (!wait_for(go, epoch, timed_out)) return;
  const u64 begin = global_ns();
  double* message = buffer + blockIdx.x * kDoubles;
  for (int i = threadIdx.x; i < kDoubles; i += kThreads) {
    message[i] = static_cast<double>(epoch + i);
  }
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    times[2 * blockIdx.x] = begin;
    times[2 * blockIdx.x + 1] = global_ns();
  }
}

// What the CPU does to the lines just before the GPU touches them: an access, then optionally one
// cache-line instruction on every line.
enum class CpuAccess { none, write_memcpy, write_process_vm_readv, read_memcpy };
enum class LineOp { none, clflushopt, clwb, cldemote };

struct Case {
  const char* name;
  bool gpu_reads;
  bool write_combined;
  CpuAccess access;
  LineOp then;
};

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

// clflushopt writes a dirty line back and evicts it from every cache; clwb writes it back and
// may keep it; cldemote moves it from the core's own caches towards the shared last level.
void apply_to_lines(LineOp op, const void* p, std::size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::size_t i = 0; i < bytes; i += 64) {
    const volatile char& line = *(c + i);
    switch (op) {
      case LineOp::none: return;
      case LineOp::clflushopt: asm volatile("clflushopt %0" ::"m"(line)); break;
      case LineOp::clwb: asm volatile("clwb %0" ::"m"(line)); break;
      case LineOp::cldemote: asm volatile("cldemote %0" ::"m"(line)); break;
    }
  }
}

// CPUID leaf 7, EBX: bit 23 clflushopt, bit 24 clwb. cldemote is a no-op hint where absent.
bool cpu_supports(LineOp op) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return op == LineOp::none || op == LineOp::cldemote;
  if (op == LineOp::clflushopt) return b & (1u << 23);
  if (op == LineOp::clwb) return b & (1u << 24);
  return true;
}

bool prepare(const Case& c, void* lines, char* source, char* target) {
  switch (c.access) {
    case CpuAccess::none: break;
    case CpuAccess::write_memcpy: std::memcpy(lines, source, kBytes); break;
    case CpuAccess::write_process_vm_readv: {
      // What Open MPI's CMA single copy does on the receiver: the kernel copies another
      // process's buffer (here our own) into ours.
      iovec local{lines, kBytes};
      iovec remote{source, kBytes};
      if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != static_cast<ssize_t>(kBytes)) {
        std::perror("process_vm_readv");
        return false;
      }
      break;
    }
    case CpuAccess::read_memcpy: std::memcpy(target, lines, kBytes); break;
  }
  apply_to_lines(c.then, lines, kBytes);
  asm volatile("sfence" ::: "memory");
  return true;
}

// Pinned host memory the kernels reach directly: the host address and the device's.
template <typename T>
cudaError_t alloc_mapped(std::size_t bytes, unsigned extra_flags, T** host, T** device) {
  const cudaError_t status =
      cudaHostAlloc(reinterpret_cast<void**>(host), bytes, cudaHostAllocMapped | extra_flags);
  if (status != cudaSuccess) return status;
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), *host, 0);
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * (v.size() - 1) + 0.5)];
}

int main() {
  double *plain, *plain_device, *combined, *combined_device;
  u64 *go, *go_device, *times;
  double* sink;
  int* timed_out;
  CHECK(alloc_mapped(kBytes, 0, &plain, &plain_device));
  CHECK(alloc_mapped(kBytes, cudaHostAllocWriteCombined, &combined, &combined_device));
  CHECK(alloc_mapped(64, 0, &go, &go_device));
  CHECK(cudaMalloc(&times, sizeof(u64) * 2 * kBlocks));
  CHECK(cudaMalloc(&sink, sizeof(double) * kBlocks * kThreads));
  CHECK(cudaMalloc(&timed_out, sizeof(int)));
  CHECK(cudaMemset(timed_out, 0, sizeof(int)));
  *go = 0;
  std::vector<char> source(kBytes, 1), target(kBytes);

  const Case cases[] = {
      {"GPU reads; CPU left the lines alone", true, false, CpuAccess::none, LineOp::none},
      {"GPU reads; CPU wrote them (memcpy)", true, false, CpuAccess::write_memcpy, LineOp::none},
      {"GPU reads; CPU wrote them (process_vm_readv)", true, false,
       CpuAccess::write_process_vm_readv, LineOp::none},
      {"GPU reads; CPU wrote them, then clflushopt", true, false, CpuAccess::write_memcpy,
       LineOp::clflushopt},
      {"GPU reads; CPU wrote them, then clwb", true, false, CpuAccess::write_memcpy, LineOp::clwb},
      {"GPU reads; CPU wrote them, then cldemote", true, false, CpuAccess::write_memcpy,
       LineOp::cldemote},
      {"GPU reads; write-combined, CPU wrote them", true, true, CpuAccess::write_memcpy,
       LineOp::none},
      {"GPU writes; CPU left the lines alone", false, false, CpuAccess::none, LineOp::none},
      {"GPU writes; CPU read them (memcpy)", false, false, CpuAccess::read_memcpy, LineOp::none},
      {"GPU writes; CPU read them, then clflushopt", false, false, CpuAccess::read_memcpy,
       LineOp::clflushopt},
      {"GPU writes; CPU read them, then cldemote", false, false, CpuAccess::read_memcpy,
       LineOp::cldemote},
      {"GPU writes; CPU wrote them (memcpy)", false, false, CpuAccess::write_memcpy, LineOp::none},
  };

  std::printf("%d blocks x %zu B of pinned host memory; medians of %d trials (p10-p90)\n\n",
              kBlocks, kMessageBytes, kTrials - kWarmup);
  std::printf("| pass | case | GPU us | GPU p10-p90 | CPU step us |\n"
              "| --- | --- | ---: | ---: | ---: |\n");
  u64 epoch = 0;
  for (int pass = 1; pass <= 2; ++pass) {
    for (const Case& c : cases) {
      if (!cpu_supports(c.then)) {
        std::printf("| %d | %s | not run: the CPU lacks the instruction | | |\n", pass, c.name);
        continue;
      }
      double* host = c.write_combined ? combined : plain;
      double* device = c.write_combined ? combined_device : plain_device;
      std::vector<double> gpu_us, cpu_us;
      for (int trial = 0; trial < kTrials; ++trial) {
        ++epoch;
        if (c.gpu_reads) {
          read_messages<<<kBlocks, kThreads>>>(device, go_device, epoch, times, sink, timed_out);
        } else {
          write_messages<<<kBlocks, kThreads>>>(device, go_device, epoch, times, timed_out);
        }
        const double launched = now_us();
        while (now_us() - launched < 30) {
        }  // the blocks are polling by now
        const double step_begin = now_us();
        if (!prepare(c, host, source.data(), target.data())) return 1;
        const double step_end = now_us();
        __atomic_store_n(go, epoch, __ATOMIC_RELEASE);
        CHECK(cudaDeviceSynchronize());
        int lost = 0;
        CHECK(cudaMemcpy(&lost, timed_out, sizeof lost, cudaMemcpyDeviceToHost));
        if (lost) {
          std::fprintf(stderr, "cache_state_probe: case '%s', trial %d: the GPU did not see the go "
                       "flag (epoch %llu) within %llu s\n", c.name, trial, epoch,
                       kWaitDeadlineNs / 1'000'000'000);
          return 1;
        }
        u64 stamps[2 * kBlocks];
        CHECK(cudaMemcpy(stamps, times, sizeof stamps, cudaMemcpyDeviceToHost));
        u64 first = stamps[0], last = stamps[1];
        for (int b = 1; b < kBlocks; ++b) {
          first = std::min(first, stamps[2 * b]);
          last = std::max(last, stamps[2 * b + 1]);
        }
        if (trial >= kWarmup) {
          gpu_us.push_back((last - first) / 1000.0);
          cpu_us.push_back(step_end - step_begin);
        }
      }
      std::printf("| %d | %s | %.2f | %.2f-%.2f | %.2f |\n", pass, c.name, percentile(gpu_us, 0.5),
                  percentile(gpu_us, 0.1), percentile(gpu_us, 0.9), percentile(cpu_us, 0.5));
    }
  }
  return 0;
}
