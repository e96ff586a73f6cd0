/// @file
/// A runner of the library's own pack and unpack kernels over messages and buffers the caller
/// holds, without an Exchange: for programs that move the packed bytes themselves (halo_bench's
/// plain NCCL baseline) or that time the kernels alone (the pack/unpack calibration). The caller
/// owns all the memory named here, which must outlive the runner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::kernels {

/// The messages of one direction (the sends or the receives): their layouts, and the buffer
/// that holds them at the layouts' offsets.
struct BufferedMessages {
  const MessageLayout* layouts = nullptr;  ///< [count] layouts, in device-readable memory
  std::uint32_t count = 0;                 ///< number of messages; 0: none this way
  /// The buffer as the kernels address it: device memory, or the device address of mapped host
  /// memory (host addresses on the host backend). Receives are only read from it.
  std::byte* buffer = nullptr;
};

/// The flags, deadline and clock stamps through which the per-message kernels
/// (KernelOp::notify_pack, notify_unpack) signal and wait, as they do in an Exchange (the flag
/// protocol of docs/design.md). The fused kernels read none of it.
struct MessageSignals {
  notify::FlagArrayView send_ready;    ///< [sends], device writes: message packed
  notify::FlagArrayView unpack_ready;  ///< [receives], host writes: message received
  notify::FlagArrayView unpack_done;   ///< [receives], device writes: message unpacked
  notify::FlagArrayView pack_start;    ///< [1], host writes: fields ready to pack
  notify::WaitControl control;         ///< deadline, abort flag, failure record
  DeviceTimesView times;               ///< per-message device clock stamps; null slots: none
};

/// A runner whose kernels pack `sends` from `fields` into the sends' buffer and unpack `recvs`
/// from theirs into `fields`: the fused kernels (KernelOp::fused_pack, fused_unpack: many blocks
/// per message, no flags), and the per-message ones (notify_pack, notify_unpack: one block per
/// message, which signals and waits through `signals`). Every message is moved by its own block
/// alone, in message order: no short sends first, no helper blocks. Throws KernelError where
/// `backend` is not compiled into this build.
std::unique_ptr<KernelRunner> make_standalone_runner(notify::Backend backend,
                                                     const BufferedMessages& sends,
                                                     const BufferedMessages& recvs,
                                                     const FieldSet& fields,
                                                     const LaunchSettings& launch,
                                                     const MessageSignals& signals = {});

}  // namespace haloflag::kernels
