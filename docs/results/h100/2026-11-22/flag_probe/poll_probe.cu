// Probe (not part of the build): the CPU -> GPU -> CPU round trip of one flag in pinned host memory
// with several ways of ordering the GPU side, and with 1, 3 or 4 pollers (each on its own line).
#include <cuda/atomic>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>
#include <atomic>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);} }while(0)
using u64 = unsigned long long;
__device__ __forceinline__ u64 ldr(u64* p){ return cuda::atomic_ref<u64,cuda::thread_scope_system>(*p).load(cuda::std::memory_order_relaxed);}
__device__ __forceinline__ void str(u64* p, u64 v){ cuda::atomic_ref<u64,cuda::thread_scope_system>(*p).store(v,cuda::std::memory_order_release);}
__device__ __forceinline__ u64 gtime(){ u64 t; asm volatile("mov.u64 %0, %%globaltimer;":"=l"(t)); return t;}

__device__ __forceinline__ u64 lda(u64* p){ return cuda::atomic_ref<u64,cuda::thread_scope_system>(*p).load(cuda::std::memory_order_acquire);}
__device__ __forceinline__ void strx(u64* p, u64 v){ cuda::atomic_ref<u64,cuda::thread_scope_system>(*p).store(v,cuda::std::memory_order_relaxed);}
template<int V>
__global__ void responder(u64* to_dev, u64* to_host, int lines_stride, u64 epochs, u64 stagger_ns, u64* timeout_flag){
  __shared__ u64 answered;
  if (threadIdx.x==0) answered=0;
  __syncthreads();
  if (threadIdx.x % 32) return;
  int w = threadIdx.x/32;
  u64 t0=gtime(); while (gtime()-t0 < w*stagger_ns) {}
  u64* mine = to_dev + w*lines_stride;
  u64 start=gtime();
  for (u64 e=1;e<=epochs;++e){
    while (atomicAdd(&answered,0ull) < e) {
      u64 v= (V==2)? lda(mine) : ldr(mine);
      if (v>=e){
        if (V==0 || V==4) cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_system);
        if (V==6) __threadfence_system();
        if (atomicMax(&answered,e) < e) { if (V<=3) str(to_host,e); else if (V==6) *(volatile u64*)to_host=e; else strx(to_host,e);} }
      if (gtime()-start > 20000000000ull){ *timeout_flag=1; return; }
    }
  }
}
__global__ void read_latency(u64* p, int n, u64* out){
  u64 s=0; u64 t0=gtime();
  for(int i=0;i<n;++i){ s+=ldr(p+(s&0)); }
  out[0]=(gtime()-t0)/n; out[1]=s;
}
int main(){
  CK(cudaSetDevice(0));
  u64 *to_dev,*to_host,*dto; CK(cudaHostAlloc(&to_dev,4096*8,cudaHostAllocMapped)); CK(cudaHostAlloc(&to_host,64,cudaHostAllocMapped));
  CK(cudaMalloc(&dto,64));
  u64* out; CK(cudaHostAlloc(&out,64,cudaHostAllocMapped));
  read_latency<<<1,1>>>(to_dev,2000,out); CK(cudaDeviceSynchronize()); printf("gpu dependent read of pinned host: %llu ns\n", out[0]);
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st,cudaStreamNonBlocking));
  const u64 N=20000, W=2000;
  const u64 lat=out[0];
  const char* names[]={"relaxed poll, fence acquire, store release (library)","-","acquire poll, store release","relaxed poll, store release","relaxed poll, fence acquire, store relaxed","relaxed poll, store relaxed","relaxed poll, __threadfence_system, volatile store"};
  int Ps[]={1,3,4};
  for (int V: {0,2,3,4,5,6}) for(int P: Ps){ int sep=1;
    u64 stagger = lat/P;
    for(int i=0;i<4096;++i) to_dev[i]=0; to_host[0]=0; CK(cudaMemset(dto,0,8));
    int stride = sep?16:0;
    auto K = V==0?responder<0>:V==2?responder<2>:V==3?responder<3>:V==4?responder<4>:V==5?responder<5>:responder<6>;
    K<<<1,32*P,0,st>>>(to_dev,to_host,stride,N,stagger,dto);
    CK(cudaGetLastError());
    std::vector<double> rt; rt.reserve(N);
    volatile u64* th=to_host;
    for(u64 e=1;e<=N;++e){
      auto t0=std::chrono::steady_clock::now();
      for(int w=0; w<(sep?P:1); ++w) std::atomic_ref<u64>(to_dev[w*stride]).store(e,std::memory_order_release);
      auto lim=t0+std::chrono::seconds(5);
      while(th[0]<e){ if(std::chrono::steady_clock::now()>lim){printf("timeout\n"); return 1;} }
      auto t1=std::chrono::steady_clock::now();
      if(e>W) rt.push_back(std::chrono::duration<double,std::micro>(t1-t0).count());
    }
    CK(cudaStreamSynchronize(st));
    std::sort(rt.begin(),rt.end());
    auto q=[&](double f){return rt[(size_t)(f*(rt.size()-1))];};
    printf("%-55s pollers %2d %s stagger %4llu ns: round trip median %.3f us p10 %.3f p90 %.3f p99 %.3f min %.3f\n",names[V],P,sep?"own lines ":"same line ",stagger,q(.5),q(.1),q(.9),q(.99),rt[0]);
    fflush(stdout);
  }
}
