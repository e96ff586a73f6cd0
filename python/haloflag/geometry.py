"""haloflag.Geometry: which cells each rank of a communicator owns, in NumPy's (z, y, x) order."""

from typing import Any, NamedTuple, Optional, Sequence, Tuple, Union

from . import _core
from .errors import GeometryError

Shape = Tuple[int, int, int]


class Neighbour(NamedTuple):
    """A rank this one exchanges with: its offset in the rank grid, (dz, dy, dx), and its rank."""

    direction: Shape
    rank: int


def _three(value: Any, name: str, kind: type) -> tuple:
    """`value` as three entries (z, y, x): a sequence of three, or one value for every axis."""
    if isinstance(value, kind) or (kind is int and hasattr(value, "__index__")):
        return (kind(value),) * 3
    try:
        items = tuple(value)
    except TypeError:
        raise GeometryError(f"{name} must be a {kind.__name__} or three of them (z, y, x), "
                            f"not {value!r}") from None
    if len(items) != 3:
        raise GeometryError(f"{name} must have three entries (z, y, x), not {len(items)}: {value!r}")
    return tuple(kind(item) for item in items)


class Geometry:
    """A 3-D domain of `global_shape` cells (z, y, x) split over the ranks of `comm`.

    comm: an mpi4py communicator, MPI.COMM_WORLD by default. periodic: one bool or three.
    ghost: the ghost width, one int or three. rank_grid: ranks per axis (z, y, x), chosen by the
    library when None. faces_only: exchange with the 6 face neighbours only, not all 26.
    """

    def __init__(self, global_shape: Sequence[int], comm: Any = None,
                 periodic: Union[bool, Sequence[bool]] = True, ghost: Union[int, Sequence[int]] = 1,
                 rank_grid: Optional[Sequence[int]] = None, faces_only: bool = False):
        if comm is None:
            from mpi4py import MPI
            comm = MPI.COMM_WORLD
        self.comm = comm
        self.rank = comm.Get_rank()
        shape = _three(global_shape, "global_shape", int)
        grid = None if rank_grid is None else _three(rank_grid, "rank_grid", int)
        self.periodic = _three(periodic, "periodic", bool)
        self.ghost = _three(ghost, "ghost", int)
        self.faces_only = bool(faces_only)
        self.global_shape = shape
        # The library counts (x, y, z); every tuple is reversed on the way in and out.
        self._core = _core.Geometry(shape[::-1], comm.Get_size(), self.periodic[::-1],
                                    self.ghost[::-1], None if grid is None else grid[::-1],
                                    self.faces_only)
        offset, extent, field_extent = self._core.subdomain(self.rank)
        self.owned_start: Shape = tuple(offset[::-1])
        self.owned_shape: Shape = tuple(extent[::-1])
        self.field_shape: Shape = tuple(field_extent[::-1])
        self.rank_grid: Shape = tuple(self._core.rank_grid[::-1])
        self.neighbours = [Neighbour((dz, dy, dx), peer)
                           for dx, dy, dz, peer in self._core.neighbours(self.rank)]

    @property
    def owned(self) -> Tuple[slice, slice, slice]:
        """The owned cells of a field array: ``field[geometry.owned]``."""
        return tuple(slice(g, g + n) for g, n in zip(self.ghost, self.owned_shape))

    def __repr__(self) -> str:
        return (f"haloflag.Geometry(global_shape={self.global_shape}, rank {self.rank} of "
                f"{self.comm.Get_size()}, rank_grid={self.rank_grid}, owned_start="
                f"{self.owned_start}, owned_shape={self.owned_shape}, ghost={self.ghost})")
