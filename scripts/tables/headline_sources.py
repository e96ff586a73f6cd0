"""The raw data of the two-GPU headline, wherever it lies: halo_bench reports (format
"haloflag-halo-bench") and haloflag_calibrate_node's peer copy files ("haloflag-peer-copy"),
given as files (.json, .json.gz), folders (every such file under them), archives (.tar.gz: every
such member, read in place) or ARCHIVE.tar.gz:MEMBER (that member alone). Published runs keep their
raw data in one tarball, so the table is regenerated from it without unpacking anything.
"""

import gzip
import json
import tarfile
from dataclasses import dataclass
from pathlib import Path

HALO_BENCH_FORMAT = "haloflag-halo-bench"
PEER_COPY_FORMAT = "haloflag-peer-copy"
FORMATS = (HALO_BENCH_FORMAT, PEER_COPY_FORMAT)


class SourceError(Exception):
    """A source that cannot be read, named with its file."""


@dataclass
class Source:
    name: str  # as given, or ARCHIVE:MEMBER: what the table's notes cite
    data: dict

    @property
    def format(self):
        return self.data.get("format")


def _parse(name, raw):
    try:
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        data = json.loads(raw)
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SourceError(f"{name}: {error}") from error
    return data


def _is_json_name(name):
    return name.endswith(".json") or name.endswith(".json.gz")


def _from_archive(path, member=None):
    try:
        with tarfile.open(path) as tar:
            names = [member] if member else sorted(
                m.name for m in tar.getmembers() if m.isfile() and _is_json_name(m.name))
            sources = []
            for name in names:
                try:
                    handle = tar.extractfile(name)
                except KeyError as error:
                    raise SourceError(f"{path}: no member {name}") from error
                if handle is None:
                    raise SourceError(f"{path}:{name}: not a file")
                sources.append(Source(f"{path}:{name}", _parse(name, handle.read())))
            return sources
    except (OSError, tarfile.TarError) as error:
        raise SourceError(f"{path}: {error}") from error


def _from_file(path):
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise SourceError(f"{path}: {error}") from error
    return [Source(str(path), _parse(str(path), raw))]


def _expand(argument):
    """Every JSON document an argument names, of any format."""
    if ".tar.gz:" in argument:
        archive, member = argument.split(".tar.gz:", 1)
        return _from_archive(archive + ".tar.gz", member)
    path = Path(argument)
    if path.is_dir():
        sources = []
        for child in sorted(path.rglob("*")):
            if child.is_file() and (_is_json_name(child.name) or child.name.endswith(".tar.gz")):
                sources.extend(_expand(str(child)))
        return sources
    if path.name.endswith(".tar.gz"):
        return _from_archive(path)
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    return _from_file(path)


def load_sources(arguments):
    """The halo_bench reports and peer copy files the arguments name, in their order. A file named
    on its own must be one of the two; inside folders and archives other JSON files (traces,
    calibration files) are passed over."""
    sources = []
    for argument in arguments:
        named_alone = not Path(argument).is_dir() and not argument.endswith(".tar.gz")
        for source in _expand(argument):
            if isinstance(source.data, dict) and source.format in FORMATS:
                sources.append(source)
            elif named_alone:
                raise SourceError(f"{source.name}: neither a halo_bench report nor a peer copy "
                                  f"file (format must be one of {', '.join(FORMATS)})")
    return sources
