"""GPU fields: CuPy arrays and PyTorch CUDA tensors exchanged in place, and stream-ordered
start(stream)/wait(stream) on their own streams. Each test skips, naming why, where the build has
no GPU backend, no GPU is visible, or the array library is missing."""

import numpy as np
import pytest

import haloflag
from ghost_check import agree, fill, wrong_cells
from gpu_libraries import LIBRARIES, cupy, needs_gpu, torch

SHAPE = (8, 12, 16)


def _on_gpu(library, device, host):
    if library == "cupy":
        with cupy.cuda.Device(device):
            return cupy.asarray(host)
    return torch.from_numpy(host).to(f"cuda:{device}")


def _to_host(library, array):
    return cupy.asnumpy(array) if library == "cupy" else array.cpu().numpy()


def _stream(library, device):
    if library == "cupy":
        with cupy.cuda.Device(device):
            return cupy.cuda.Stream(non_blocking=True)
    return torch.cuda.Stream(device=device)


def _synchronize(library, stream):
    stream.synchronize()


@needs_gpu
@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gpu_fields(comm, library, dtype):
    device = haloflag.bind_gpu(comm)
    geometry = haloflag.Geometry(SHAPE, comm)
    host = np.zeros(geometry.field_shape, dtype)
    second = np.zeros(geometry.field_shape, np.int32)
    fill(host, geometry, 0, 1, whole=True)
    fill(second, geometry, 1, 1, whole=True)
    fields = [_on_gpu(library, device, host), _on_gpu(library, device, second)]
    with haloflag.Exchange(geometry, fields) as exchange:
        assert exchange.backend == haloflag.gpu_backend()
        exchange.run()
        agree(wrong_cells(_to_host(library, fields[0]), geometry, 0, 1) or
              wrong_cells(_to_host(library, fields[1]), geometry, 1, 1))


@needs_gpu
@pytest.mark.parametrize("library", LIBRARIES)
def test_stream_ordered(comm, library):
    """Fields written on a stream, exchanged on it with start(stream)/wait(stream), alternating
    between two arrays with start(stream, fields=...), and read back after a synchronisation."""
    device = haloflag.bind_gpu(comm)
    geometry = haloflag.Geometry(SHAPE, comm)
    stream = _stream(library, device)
    host = np.zeros(geometry.field_shape)
    fill(host, geometry, 0, 0, whole=True)
    a, b = _on_gpu(library, device, host), _on_gpu(library, device, host)
    with haloflag.Exchange(geometry, [a], progress="thread") as exchange:
        for epoch in range(1, 5):
            target = a if epoch % 2 else b
            fill(host, geometry, 0, epoch)
            if library == "cupy":
                with stream:
                    target.set(host, stream=stream)
            else:
                with torch.cuda.stream(stream):
                    target.copy_(torch.from_numpy(host), non_blocking=False)
            exchange.start(stream, fields=None if target is a else [target])
            exchange.wait(stream)
            _synchronize(library, stream)
            agree(wrong_cells(_to_host(library, target), geometry, 0, epoch))
        exchange.wait()


@needs_gpu
def test_host_arrays_on_a_gpu_backend_are_refused(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with pytest.raises(haloflag.ConfigError, match="needs GPU arrays"):
        haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)], backend=haloflag.gpu_backend())
