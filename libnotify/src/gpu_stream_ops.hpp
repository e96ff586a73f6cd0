// Internal: the GPU side of stream_flag_ops.hpp (gpu_stream_ops.cu; gpu_stream_ops_none.cpp
// throws in builds without a GPU backend).
#pragma once

#include <cstdint>

namespace haloflag::notify::detail {

void gpu_check_stream_memory_ops();
void gpu_stream_store64(void* stream, std::uint64_t* word, std::uint64_t value);
void gpu_stream_store32(void* stream, std::uint32_t* word, std::uint32_t value);
void gpu_stream_wait64(void* stream, const std::uint64_t* word, std::uint64_t value);

}  // namespace haloflag::notify::detail
