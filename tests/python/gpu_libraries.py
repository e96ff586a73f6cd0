"""What the GPU tests need to know before they run: whether the build and the machine have a GPU
(needs_gpu skips with the reason where not), and the array libraries present (cupy, torch: None
when missing), with LIBRARIES to parametrize a test over both, each skipped where missing."""

import pytest

import haloflag


def _gpu_reason():
    if not haloflag.gpu_backend():
        return "this build of haloflag has no GPU backend (HALOFLAG_GPU=none or no nvcc)"
    from haloflag import _core
    count, why = _core.gpu_count()
    return "" if count > 0 else f"no GPU visible: {why}"


GPU_REASON = _gpu_reason()
needs_gpu = pytest.mark.skipif(bool(GPU_REASON), reason=GPU_REASON)


def _library(name):
    try:
        return __import__(name)
    except ImportError:
        return None


cupy = _library("cupy")
torch = _library("torch")
LIBRARIES = [
    pytest.param("cupy", marks=pytest.mark.skipif(cupy is None, reason="CuPy is not installed")),
    pytest.param("torch",
                 marks=pytest.mark.skipif(torch is None, reason="PyTorch is not installed"))]
