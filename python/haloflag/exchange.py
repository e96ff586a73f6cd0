"""haloflag.Exchange: the halo exchange of one rank's fields, set up once and run many times."""

import itertools
import math
import numbers
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _core, arrays
from .errors import ConfigError, Error, UsageError
from .geometry import Geometry
from .streams import stream_handle

# Exchanges not yet closed, by the order they were made in, for the atexit hook (__init__.py)
# that closes them before mpi4py finalizes MPI.
_open: "weakref.WeakValueDictionary[int, Exchange]" = weakref.WeakValueDictionary()
_made = itertools.count()

# idle_exit: the C++ default (halo::kDefaultIdleExit) in seconds, and the shortest window the C++
# library takes (ExchangeOptions::idle_exit, "at least 1 microsecond").
DEFAULT_IDLE_EXIT: float = _core.DEFAULT_IDLE_EXIT_S
_MIN_IDLE_EXIT_S = 1e-6


def close_all() -> None:
    """Closes every Exchange still open, the newest first. Every rank made them in the same
    order (the constructor is collective), so every rank closes them in the same order too: an
    exchange's teardown waits for its peers', and another order would stall until a deadline."""
    for number in sorted(_open.keys(), reverse=True):
        exchange = _open.get(number)
        if exchange is not None:
            exchange.close()


class Handle:
    """One exchange begun by Exchange.start(): wait() blocks until it is complete on this rank,
    test() advances it without blocking and says whether it is."""

    __slots__ = ("_handle",)

    def __init__(self, handle: Any):
        self._handle = handle

    @property
    def epoch(self) -> int:
        """The exchange's number (Exchange.epoch when it began)."""
        return self._handle.epoch

    def wait(self) -> None:
        """Blocks, without holding the GIL, until the exchange is complete."""
        self._handle.wait()

    def test(self) -> bool:
        """Whether the exchange is complete; does not block."""
        return self._handle.test()


def _agree(comm: Any, problems: List[str], what: Any) -> List[Any]:
    """Every rank's problems and `what`; raises ConfigError on every rank when any rank has a
    problem, so that no rank goes on into a collective call that the others left."""
    gathered = comm.allgather((problems, what))
    found = [f"rank {rank}: {p}" for rank, (ps, _) in enumerate(gathered) for p in ps]
    if found:
        raise ConfigError("haloflag.Exchange: " + "; ".join(found))
    return [w for _, w in gathered]


def _idle_exit_seconds(idle_exit: Any) -> Tuple[float, List[str]]:
    """idle_exit in seconds for _core (infinite for "never"), and why it is refused."""
    if isinstance(idle_exit, str) and idle_exit == "never":
        return math.inf, []
    if (isinstance(idle_exit, numbers.Real) and not isinstance(idle_exit, bool) and
            math.isfinite(idle_exit) and idle_exit >= _MIN_IDLE_EXIT_S):
        return float(idle_exit), []
    return DEFAULT_IDLE_EXIT, [f"idle_exit must be a positive number of seconds (at least "
                               f"{_MIN_IDLE_EXIT_S:g}) or \"never\", not {idle_exit!r}"]


def _sizes_problem(sizes_by_rank: List[List[int]]) -> List[str]:
    """Variables whose element size, or the number of variables, differs between ranks."""
    first = sizes_by_rank[0]
    for rank, sizes in enumerate(sizes_by_rank):
        if len(sizes) != len(first):
            return [f"rank 0 gives {len(first)} fields but rank {rank} gives {len(sizes)}"]
        for var, (a, b) in enumerate(zip(first, sizes)):
            if a != b:
                return [f"field {var} has {a}-byte elements on rank 0 but {b}-byte elements on "
                        f"rank {rank}; each variable needs the same element size on every rank"]
    return []


def _backend_of(views: List[arrays.ArrayView], backend: str) -> Tuple[str, List[str]]:
    """The backend to run on, and why the arrays do not fit it."""
    gpu = _core.gpu_backend()
    on_gpu = {v.on_gpu for v in views}
    if len(on_gpu) > 1:
        return backend, ["some fields are in GPU memory and some in host memory"]
    arrays_on_gpu = on_gpu == {True}
    if backend == "auto":
        if arrays_on_gpu and not gpu:
            return "host", ["the fields are GPU arrays, but this build of haloflag has no GPU "
                            "backend (built with HALOFLAG_GPU=none, or nvcc was not found)"]
        return (gpu if arrays_on_gpu else "host"), []
    if backend == "host" and arrays_on_gpu:
        return backend, ["backend 'host' needs host arrays (NumPy), but the fields are in GPU memory"]
    if backend in ("cuda", "hip") and on_gpu == {False}:
        return backend, [f"backend '{backend}' needs GPU arrays (CuPy, PyTorch CUDA tensors), "
                         "but the fields are in host memory"]
    return backend, []


class Exchange:
    """The halo exchange of `fields`, one array of geometry.field_shape per variable, used in
    place. Collective over geometry.comm. See docs/python.md for every argument.

    idle_exit: strategy "resident" only: seconds without a start after which the kernels leave
    the GPU, so that a device-wide wait (a device synchronize, a free, a kernel's first load)
    ends; the next start launches them again (relaunches counts it). "never" keeps them on the
    GPU, waiting at most `timeout` for the next start, as before idle_exit existed. Default:
    haloflag.DEFAULT_IDLE_EXIT, the C++ halo::kDefaultIdleExit."""

    def __init__(self, geometry: Geometry, fields: Sequence[Any], strategy: str = "resident",
                 transport: str = "auto", backend: str = "auto", timeout: float = 30.0,
                 progress: str = "caller", gpu: Optional[int] = None,
                 idle_exit: Union[float, str] = DEFAULT_IDLE_EXIT):
        if not isinstance(geometry, Geometry):
            raise TypeError(f"geometry must be a haloflag.Geometry, not {type(geometry).__name__}")
        comm = geometry.comm
        self.geometry = geometry
        views, problems = arrays.views_of(fields, geometry.field_shape)
        backend, backend_problems = _backend_of(views, backend)
        problems += backend_problems
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
            problems.append(f"timeout must be a positive number of seconds, not {timeout!r}")
        idle_exit_s, idle_problem = _idle_exit_seconds(idle_exit)
        problems += idle_problem
        try:
            _core.check_options(strategy, transport, backend, progress)
        except Error as error:
            problems.append(str(error))
        sizes = _agree(comm, problems, [v.itemsize for v in views])
        _agree(comm, _sizes_problem(sizes), None)
        if backend != "host":
            self._bind(comm, views, gpu)
        self.backend = backend
        self._fields = list(fields)  # the arrays must outlive the exchange
        self._views = views
        self._sets: Dict[Tuple[int, ...], Tuple[List[Any], Any]] = {}
        self._core = _core.Exchange(geometry._core, [v.itemsize for v in views],
                                    arrays.field_set(views), comm.py2f(), strategy, transport,
                                    backend, float(timeout), progress, idle_exit_s)
        self._number = next(_made)
        _open[self._number] = self

    @staticmethod
    def _bind(comm: Any, views: List[arrays.ArrayView], gpu: Optional[int]) -> None:
        """Makes this rank's GPU current (collective), as the C++ bind_gpu does unless `gpu`
        names one, and checks that the arrays live on it."""
        device = _core.bind_gpu(comm.py2f(), -1 if gpu is None else int(gpu))
        problems = [f"field {i} is on GPU {v.device}, but this rank uses GPU {device} (allocate "
                    f"the fields after haloflag.bind_gpu(), or pass gpu={v.device})"
                    for i, v in enumerate(views) if v.device is not None and v.device != device]
        _agree(comm, problems, None)

    def _live(self) -> Any:
        if self._core.closed:
            raise UsageError("this haloflag.Exchange is closed")
        return self._core

    def _field_set_of(self, fields: Sequence[Any]) -> Any:
        """The FieldSet of another set of arrays of the same layout, made on first use."""
        key = tuple(id(a) for a in fields)
        known = self._sets.get(key)
        if known is not None:
            return known[1]
        views, problems = arrays.views_of(fields, self.geometry.field_shape)
        if not problems and [v.itemsize for v in views] != [v.itemsize for v in self._views]:
            problems.append(f"element sizes {[v.itemsize for v in views]} bytes differ from the "
                            f"exchange's {[v.itemsize for v in self._views]}")
        if not problems and {v.on_gpu for v in views} != {v.on_gpu for v in self._views}:
            problems.append("the fields are in another kind of memory than the exchange's")
        if problems:
            raise ConfigError("start(fields=...): " + "; ".join(problems))
        field_set = arrays.field_set(views)
        if len(self._sets) < 8:  # kMaxFieldSets; beyond it the C++ exchange refuses, naming it
            self._sets[key] = (list(fields), field_set)
        return field_set

    def _stream(self, stream: Any) -> int:
        if self.backend == "host":
            raise UsageError("start(stream) and wait(stream) order the exchange on a GPU stream; "
                             "this exchange runs on the host backend: use start() or run()")
        return stream_handle(stream)

    def run(self) -> None:
        """start() then wait for it: the ghost cells hold the neighbours' data."""
        self._live().run()

    def start(self, stream: Any = None, *, fields: Optional[Sequence[Any]] = None) -> Optional[Handle]:
        """Begins the next exchange now and returns its Handle; with `fields`, of those arrays.
        With a stream (GPU backends, strategy resident): orders the start after the stream's
        earlier work instead, returns None at once, and wait(stream) completes it."""
        exchange = self._live()
        field_set = None if fields is None else self._field_set_of(fields)
        if stream is None:
            return Handle(exchange.start() if field_set is None else exchange.start(field_set))
        handle = self._stream(stream)
        if field_set is None:
            exchange.start_stream(handle)
        else:
            exchange.start_stream(handle, field_set)
        return None

    def wait(self, stream: Any = None) -> None:
        """Without a stream: blocks until every started exchange completes. With one: enqueues
        on it a wait for the last started exchange, and returns at once."""
        exchange = self._live()
        if stream is None:
            exchange.finish()
        else:
            exchange.wait_stream(self._stream(stream))

    def progress(self) -> bool:
        """Advances the started exchanges without blocking; True once all are complete."""
        return self._live().progress()

    def abort(self, reason: str = "aborted from Python") -> None:
        """Ends this rank's exchange: the exchange in progress, or the next call, raises naming
        `reason`. Safe from another thread while this one waits."""
        self._live().abort(reason)

    def close(self) -> None:
        """Stops the exchange's kernels and frees its resources; later calls raise UsageError.
        Closing twice does nothing."""
        if not self._core.closed:
            self._core.close()
        _open.pop(self._number, None)
        self._sets.clear()

    @property
    def closed(self) -> bool:
        """Whether close() has run."""
        return self._core.closed

    @property
    def epoch(self) -> int:
        """The number of the last exchange started (0 before the first)."""
        return self._live().epoch

    @property
    def relaunches(self) -> int:
        """strategy "resident": how many times a start launched the kernels again after they
        left the GPU, idle for idle_exit; 0 for the other strategies and with idle_exit="never".
        Back-to-back exchanges add none."""
        return self._live().relaunches

    @property
    def strategy(self) -> str:
        """The strategy the exchange runs."""
        return self._live().strategy

    @property
    def transports(self) -> str:
        """How this rank reaches each peer, e.g. "node: 1 (shared memory)"."""
        return self._live().transports

    def __enter__(self) -> "Exchange":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.strategy}, epoch {self.epoch}"
        return f"haloflag.Exchange({self.backend}, {len(self._views)} fields, {state})"
