"""Reads the memory layout of the user's arrays (NumPy, CuPy, PyTorch, anything with
``__cuda_array_interface__`` or DLPack) without copying them, and checks it against a geometry."""

from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

MAX_VARIABLES = 16  # kernels::kMaxVariables
MAX_ELEMENT_BYTES = 16  # kernels::kMaxElementBytes: the widest a GPU moves in one access


class ArrayView(NamedTuple):
    """Where an array's element (0, 0, 0) lies and how to step from it, in bytes, (z, y, x)."""

    pointer: int
    itemsize: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    on_gpu: bool
    device: Optional[int]  # the GPU's index where the array says, else None
    dtype: str


def _device_index(array: Any) -> Optional[int]:
    device = getattr(array, "device", None)
    for name in ("id", "index"):  # CuPy: device.id; PyTorch: device.index
        value = getattr(device, name, None)
        if isinstance(value, int):
            return value
    return None


def _from_cuda_interface(array: Any) -> ArrayView:
    import numpy
    try:
        cai = array.__cuda_array_interface__
    except RuntimeError as error:  # PyTorch refuses tensors that require grad
        raise TypeError(f"{error} (pass tensor.detach())") from None
    dtype = numpy.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is None:  # C-contiguous
        strides, step = [], dtype.itemsize
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
    if cai["data"][1]:
        raise TypeError("the array is read-only; the exchange writes its ghost cells")
    return ArrayView(cai["data"][0], dtype.itemsize, shape, tuple(strides), True,
                     _device_index(array), str(dtype))


def _from_numpy(array: Any) -> ArrayView:
    if array.dtype.hasobject:
        raise TypeError(f"dtype {array.dtype} holds Python objects, which cannot be exchanged as bytes")
    if not array.flags.writeable:
        raise TypeError("the array is read-only; the exchange writes its ghost cells")
    return ArrayView(array.__array_interface__["data"][0], array.dtype.itemsize, array.shape,
                     array.strides, False, None, str(array.dtype))


def _from_dlpack(array: Any) -> ArrayView:
    from . import _core
    pointer, itemsize, shape, strides, cpu, device = _core.dlpack_view(array)
    return ArrayView(pointer, itemsize, tuple(shape), tuple(strides), not cpu,
                     None if cpu else device, str(getattr(array, "dtype", "?")))


def view_of(array: Any) -> ArrayView:
    """The array's layout; TypeError naming why when it cannot be read or written in place."""
    if hasattr(array, "__cuda_array_interface__"):
        return _from_cuda_interface(array)
    import numpy
    if isinstance(array, numpy.ndarray):
        return _from_numpy(array)
    if hasattr(array, "__dlpack__"):
        return _from_dlpack(array)
    raise TypeError(f"{type(array).__name__} is not an array haloflag can use in place: pass a "
                    "NumPy array, a CuPy array, a PyTorch tensor, or an object with "
                    "__cuda_array_interface__ or __dlpack__")


def problem_of(view: ArrayView, field_shape: Tuple[int, int, int]) -> Optional[str]:
    """Why this array cannot hold a field of `field_shape`, or None."""
    if view.shape != tuple(field_shape):
        return f"shape {view.shape}, but the geometry's field_shape is {tuple(field_shape)}"
    if not 1 <= view.itemsize <= MAX_ELEMENT_BYTES:
        return (f"dtype {view.dtype} has {view.itemsize}-byte elements; haloflag exchanges "
                f"elements of 1 to {MAX_ELEMENT_BYTES} bytes")
    if view.strides[2] != view.itemsize:
        return (f"strides {view.strides} bytes: the last axis (x) must be contiguous "
                f"({view.itemsize} bytes per step)")
    if view.strides[0] <= 0 or view.strides[1] <= 0:
        return f"strides {view.strides} bytes: the z and y axes must step forward"
    return None


def views_of(arrays: Sequence[Any], field_shape: Tuple[int, int, int]) -> Tuple[List[ArrayView], List[str]]:
    """Every array's layout, and one problem per array that cannot be used ("field i: ...")."""
    if isinstance(arrays, (str, bytes)) or not hasattr(arrays, "__len__"):
        raise TypeError("fields must be a list of arrays, one per variable")
    views, problems = [], []
    if not 1 <= len(arrays) <= MAX_VARIABLES:
        problems.append(f"{len(arrays)} fields given; an exchange takes 1 to {MAX_VARIABLES}")
    for index, array in enumerate(arrays):
        try:
            view = view_of(array)
        except TypeError as error:
            problems.append(f"field {index}: {error}")
            continue
        views.append(view)
        problem = problem_of(view, field_shape)
        if problem:
            problems.append(f"field {index}: {problem}")
    return views, problems


def field_set(views: Sequence[ArrayView]):
    """The views as the C++ exchange takes them: (address, element bytes, x, y, z strides)."""
    from . import _core
    return _core.FieldSet([(v.pointer, v.itemsize, v.strides[2], v.strides[1], v.strides[0])
                           for v in views])
