"""The raw CUDA/HIP stream handle behind the stream objects users pass to start() and wait()."""

from typing import Any


def stream_handle(stream: Any) -> int:
    """A cudaStream_t/hipStream_t as an integer, from a CuPy or PyTorch stream, an object with
    ``__cuda_stream__``, or a raw handle (int; 0 is the default stream)."""
    if isinstance(stream, bool):
        raise TypeError("a stream must be a CuPy or PyTorch stream or a raw handle, not a bool")
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):  # the CUDA stream protocol: (version, handle)
        return int(stream.__cuda_stream__()[1])
    if hasattr(stream, "cuda_stream"):  # torch.cuda.Stream
        return int(stream.cuda_stream)
    if hasattr(stream, "ptr"):  # cupy.cuda.Stream
        return int(stream.ptr)
    raise TypeError(f"cannot read a stream handle from {type(stream).__name__}: pass a CuPy or "
                    "PyTorch stream, an object with __cuda_stream__, or the raw handle as an int")
