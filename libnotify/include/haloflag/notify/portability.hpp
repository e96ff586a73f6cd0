/// @file
/// Macros that let one source serve the CUDA, HIP and host backends.
///
/// HF_HD marks functions callable from GPU kernels and from host code (the host backend's
/// "device" is a team of CPU threads that calls the very same functions).
/// HF_DEVICE_CODE is 1 only while a GPU compiler compiles for the device.
/// HF_UNROLL asks a GPU compiler to unroll the loop that follows (host compilers decide alone).
/// HF_NOINLINE keeps a GPU compiler from inlining a function: for slow paths called from large
/// kernels, whose registers they would otherwise share.
/// HF_FORCEINLINE makes every compiler inline a function: for a piece of a hot path that two
/// places share, so that sharing it costs no call and the code generated stays as it was.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define HF_HD __host__ __device__
#define HF_NOINLINE __noinline__
#else
/// Marks functions callable from host and device code (empty in host-only compilation).
#define HF_HD
/// Keeps a GPU compiler from inlining the function (empty in host-only compilation).
#define HF_NOINLINE
#endif

/// Inlines the function wherever it is called: what __forceinline__ stands for in CUDA and in HIP,
/// written out because HIP defines __forceinline__ in its runtime header, which a header of ours
/// may come before.
#define HF_FORCEINLINE inline __attribute__((always_inline))

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define HF_DEVICE_CODE 1
#define HF_UNROLL _Pragma("unroll")
#else
/// 1 when compiling device code (CUDA or HIP), else 0.
#define HF_DEVICE_CODE 0
/// Asks the device compiler to unroll the following loop (empty elsewhere).
#define HF_UNROLL
#endif

#if HF_DEVICE_CODE && defined(__HIP_DEVICE_COMPILE__)
#define HF_HIP_DEVICE_CODE 1
#else
/// 1 when compiling HIP device code, else 0.
#define HF_HIP_DEVICE_CODE 0
#endif
