"""haloflag's exceptions: one class per kind of the C++ error hierarchy (haloflag/error.hpp).

Catch ``haloflag.Error`` and read ``.kind``, or catch a subclass. The C++ library's exceptions
arrive as these classes, chosen by their kind; the package raises them too for bad arguments.
"""

import builtins


class Error(Exception):
    """Base of every haloflag exception; ``kind`` names the C++ ErrorKind."""

    kind = "other"


class ConfigError(Error, ValueError):
    """A malformed or inconsistent option or field, or ranks that disagree about one."""

    kind = "config"


class GeometryError(Error, ValueError):
    """A decomposition that cannot be built."""

    kind = "geometry"


class CoResidencyError(Error):
    """A persistent or cooperative GPU grid that cannot be resident at once."""

    kind = "co_residency"


class PeerError(Error):
    """A peer that did not answer, died, or sent what was not agreed."""

    kind = "peer"


class TimeoutError(Error, builtins.TimeoutError):
    """A wait that passed its deadline; ``except TimeoutError`` catches it too."""

    kind = "timeout"


class MpiError(Error):
    """An MPI call that failed."""

    kind = "mpi"


class GpuError(Error):
    """A GPU runtime call or kernel that failed."""

    kind = "gpu"


class UsageError(Error):
    """A call the API does not allow now: after close() or abort(), a stream on the host, ..."""

    kind = "usage"


class OtherError(Error):
    """An exception from outside haloflag, passed on with its message."""

    kind = "other"


_BY_KIND = {cls.kind: cls for cls in (ConfigError, GeometryError, CoResidencyError, PeerError,
                                      TimeoutError, MpiError, GpuError, UsageError, OtherError)}


def class_of_kind(kind: str) -> type:
    """The exception class for a C++ ErrorKind name; the C++ error translation calls this."""
    return _BY_KIND.get(kind, OtherError)
