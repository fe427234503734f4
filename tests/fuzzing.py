"""Mutation fuzzing of partition files: the harness shared by ``tests/test_fuzz.py`` (a few
hundred seeded cases in ``make test``) and ``benchmarks/fuzz.py`` (``make fuzz``, thousands).

A *target* is a small partitioning on disk (written by DGL, GraphBolt, PyG or GLT themselves, or
by graphpart) and the files in it a mutation may touch. A *case* copies the target, mutates one
file with one of four mutators, and opens the result the way every reader does
(:func:`load_everything`). The promise checked (:func:`run_case`): the outcome is a load or a
:class:`~graphpart.errors.GraphpartError` whose message is one short, printable line, within a
time and a memory bound. Anything else (another exception, a hang, a memory spike) fails.

Mutators
--------
``bytes``   flip, overwrite, insert or cut bytes anywhere in the file
``member``  the same inside one member of a torch zip file (the pickle, a storage), re-zipped
``pickle``  unpickle into inert stand-ins (nothing is called), then replace, swap, drop or bomb
            one node of the object tree (tensor sizes, strides and offsets included), re-pickle
``json``    replace, drop or nest one value of a JSON document (huge ints, wrong types, path
            names, control characters, 100,000-deep arrays)

Type swaps (:func:`swap_cases`, :func:`run_swap`) are the systematic counterpart of ``pickle``
and ``json``: every field of every object tree (pickled state, JSON) of a target's first
partition and top level, replaced in turn by each of :data:`SWAP_KINDS` (a list where a dict
belongs, a string, a number, nothing, a tensor, a dict of tensors...).
"""

from __future__ import annotations

import contextlib
import copy
import copyreg
import io
import json
import os
import pickle
import random
import shutil
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import torch

import graphpart as gp
from graphpart.chunked import load_chunked, write_chunked
from graphpart.datasets import peer_partitions
from graphpart.errors import GraphpartError

#: The bounds per case (the issue's: 2 s and 200 MB above the baseline).
TIME_LIMIT_S = 2.0
MEMORY_LIMIT_MB = 200
#: A GraphpartError message longer than this is not "one short line".
MESSAGE_LIMIT = 2100


#: Every target :func:`make_targets` builds.
TARGET_NAMES = [
    f"{graph}-{fmt}"
    for graph in ("karate", "hetero3")
    for fmt in ("dgl", "graphbolt", "pyg", "glt")
] + ["karate-graphpart", "hetero3-chunked", "hetero3-assignment"]


@dataclass(frozen=True)
class Target:
    """A partitioning to mutate: ``root`` is copied; ``open_path`` (relative) is what is opened."""

    name: str
    root: Path
    open_path: str
    files: tuple[str, ...]
    graph: Path | None = None  # an assignment's chunked graph (outside ``root``: not mutated)


def _files(root: Path) -> tuple[str, ...]:
    return tuple(sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()))


def graphbolt_only(root: Path) -> None:
    """Make a DGL folder read through its GraphBolt files (drop ``part_graph`` from the config)."""
    (config,) = root.glob("*.json")
    doc = json.loads(config.read_text())
    for key, value in doc.items():
        if key.startswith("part-"):
            value.pop("part_graph", None)
    config.write_text(json.dumps(doc))
    for p in root.glob("part*/graph.dgl"):
        p.unlink()


def make_targets(workdir: Path) -> list[Target]:
    """Every target, built once under ``workdir`` (graphpart's own partitions are written there)."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    targets = []
    for graph in ("karate", "hetero3"):
        dgl_config = peer_partitions(graph, "dgl")
        dgl = workdir / f"{graph}-dgl"
        shutil.copytree(dgl_config.parent, dgl)
        gb = workdir / f"{graph}-graphbolt"
        shutil.copytree(dgl_config.parent, gb)
        graphbolt_only(gb)
        for name, root, open_path in (
            ("dgl", dgl, dgl_config.name),
            ("graphbolt", gb, dgl_config.name),
            ("pyg", peer_partitions(graph, "pyg"), "."),
            ("glt", peer_partitions(graph, "glt"), "."),
        ):
            files = _files(root)
            if name == "graphbolt":
                files = tuple(f for f in files if "graph.dgl" not in f and "feat" not in f)
            targets.append(Target(f"{graph}-{name}", root, open_path, files))
    own = workdir / "karate-graphpart"
    gp.partition_graph(
        gp.datasets.load_karate_club(), "karate", 2, own, num_hops=1, seed=0, return_mapping=False
    )
    targets.append(Target("karate-graphpart", own, "karate.json", _files(own)))
    chunked = workdir / "hetero3-chunked"
    write_chunked(
        gp.storage.open_partitioning(peer_partitions("hetero3", "dgl")).graph,
        chunked,
        2,
        graph_name="hetero3",
        edge_format="csv",
        node_data_format="numpy",
        edge_data_format="parquet",
    )
    targets.append(Target("hetero3-chunked", chunked, "metadata.json", _files(chunked)))
    assignment = _assignment(chunked, workdir / "hetero3-assignment")
    targets.append(
        Target("hetero3-assignment", assignment, "partition_meta.json", _files(assignment), chunked)
    )
    return targets


def _assignment(chunked: Path, out: Path) -> Path:
    """An assignment folder as ``assign`` writes it (balance and loads recorded), built without
    a Dask cluster: a fixed split of every node type into 2 parts."""
    from graphpart.chunked import read_metadata, write_assignment
    from graphpart.chunked.read import homogeneous_edges

    meta = read_metadata(chunked)
    parts = {t: (torch.arange(meta.num_nodes[t]) % 2).numpy() for t in meta.ntypes}
    owner = torch.cat([torch.from_numpy(parts[t]) for t in meta.ntypes])
    src, dst, _, _ = homogeneous_edges(meta, meta.ntypes, meta.etypes)
    so, do = owner[torch.from_numpy(src)], owner[torch.from_numpy(dst)]
    loads = {
        "nodes": torch.bincount(owner, minlength=2).tolist(),
        "in-degree": torch.bincount(do, minlength=2).tolist(),
        "leaving": torch.bincount(so[so != do], minlength=2).tolist(),
    }
    balance = {"ntypes": None, "edges": True}
    return write_assignment(out, parts, 2, "fennel", balance=balance, loads=loads)


def load_everything(path: Path, graph: Path | None = None) -> None:
    """Open ``path`` the way every reader does: the source, each partition, the whole
    partitioning (a chunked graph: every chunk, into one graph; an assignment: against its
    chunked ``graph``, with what it recorded)."""
    if path.name == "metadata.json":
        load_chunked(path)
        return
    if path.name == "partition_meta.json":
        from graphpart.chunked import assignment_loads, read_assignment, read_metadata
        from graphpart.chunked.assign import assignment_balance

        meta = read_metadata(graph)
        _, num_parts = read_assignment(path.parent, meta)
        assignment_balance(path.parent)
        assignment_loads(path.parent, num_parts, meta)
        return
    src = gp.storage.open_partitions(path, _quiet=True)
    for part in range(src.num_parts):
        src.load(part)
    gp.storage.open_partitioning(path)


# --- mutators ------------------------------------------------------------------------------

HOSTILE_INTS = (0, -1, 1, 2**31, 2**40, 2**62, -(2**63), 2**70, 127, 128, 5_000_000)
HOSTILE_STRINGS = ("", "x" * 5000, "../../escape", "/etc/passwd", "a\x00b", "\x1b[31mred", "é")


def _hostile_scalar(rng: random.Random, shared: bool = True) -> object:
    kind = rng.randrange(6 if shared else 5)
    if kind < 2:
        return rng.choice(HOSTILE_INTS)
    if kind == 2:
        return rng.choice(HOSTILE_STRINGS)
    if kind == 3:
        return rng.choice((None, True, 1.5, float("nan"), float("inf"), 1e308))
    if kind == 4:
        return rng.choice(([], {}, (), [1, 2], {"a": 1}))
    return _reference_bomb()


def _reference_bomb(width: int = 64, depth: int = 8) -> list:
    """A list of ``width`` references to one list, ``depth`` levels deep: ~1 KB pickled,
    ``width ** depth`` objects to a walk that does not remember what it has seen."""
    node: list = [0]
    for _ in range(depth):
        node = [node] * width
    return node


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One byte-level mutation anywhere in ``data``."""
    b = bytearray(data)
    if not b:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    i = rng.randrange(len(b))
    op = rng.randrange(5)
    if op == 0:  # flip bits
        b[i] ^= 1 << rng.randrange(8)
    elif op == 1:  # overwrite with an interesting integer
        value = rng.choice(HOSTILE_INTS) & (2**64 - 1)
        width = rng.choice((1, 2, 4, 8))
        b[i : i + width] = (value & (2 ** (8 * width) - 1)).to_bytes(width, "little")
    elif op == 2:  # insert bytes
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    elif op == 3:  # cut
        del b[i : i + rng.randrange(1, max(2, len(b) // 4))]
    else:  # truncate
        del b[i:]
    return bytes(b)


def _zip_members(data: bytes) -> dict[str, bytes] | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return {n: z.read(n) for n in z.namelist()}
    except (zipfile.BadZipFile, OSError, ValueError):
        return None


def _write_torch_zip(path: Path, members: dict[str, bytes]) -> None:
    """Write a torch zip file (aligned records, as ``torch.save`` does) from its members."""
    prefix = os.path.commonprefix(list(members)).split("/")[0]
    writer = torch._C.PyTorchFileWriter(str(path))
    for name, blob in members.items():
        if name.endswith("/.data/serialization_id"):
            continue  # the writer adds its own
        record = name[len(prefix) + 1 :] if name.startswith(prefix + "/") else name
        writer.write_record(record, blob, len(blob))
    writer.write_end_of_file()


class _Stand:
    """A class named in a pickle, stood in for: keeps its arguments and state, calls nothing."""

    _newobj = False

    def __new__(cls, *args):
        self = object.__new__(cls)
        self._args, self._state = list(args), None
        return self

    def __setstate__(self, state):
        self._state = state

    def __reduce__(self):
        head = (copyreg.__newobj__, (type(self), *self._args)) if self._newobj else None
        head = head or (type(self), tuple(self._args))
        return (*head, self._state) if self._state is not None else head


class _Pid:
    def __init__(self, pid):
        self.pid = pid


class _Reader(pickle._Unpickler):
    classes: dict = {}
    dispatch = dict(pickle._Unpickler.dispatch)

    def load_newobj(self):
        args = self.stack.pop()
        cls = self.stack.pop()
        obj = cls.__new__(cls, *args)
        if isinstance(obj, _Stand):
            obj._newobj = True
        self.append(obj)

    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def find_class(self, module, name):
        if (module, name) == ("collections", "OrderedDict"):
            return dict
        key = (module, name)
        if key not in self.classes:
            cls = type(name, (_Stand,), {"__module__": module, "__qualname__": name})
            self.classes[key] = cls
        return self.classes[key]

    def persistent_load(self, pid):
        return _Pid(pid)


class _Writer(pickle._Pickler):
    def persistent_id(self, obj):
        return obj.pid if isinstance(obj, _Pid) else None

    def save_global(self, obj, name=None):
        if isinstance(obj, type) and issubclass(obj, _Stand):
            self.write(pickle.GLOBAL + f"{obj.__module__}\n{obj.__qualname__}\n".encode())
            self.memoize(obj)
        else:
            super().save_global(obj, name)


def _read_pickles(data: bytes) -> list:
    f, out = io.BytesIO(data), []
    while f.tell() < len(data):
        out.append(_Reader(f).load())
    return out


def _write_pickles(objs: list) -> bytes:
    f = io.BytesIO()
    for obj in objs:
        _Writer(f, protocol=2).dump(obj)
    return f.getvalue()


def _slots(obj, depth: int = 0, out=None) -> list:
    """Every ``(container, key)`` in the tree under ``obj``."""
    out = [] if out is None else out
    if depth > 30 or len(out) > 5000:
        return out
    if isinstance(obj, _Stand):
        out.extend((obj._args, i) for i in range(len(obj._args)))
        children = list(obj._args)
        if isinstance(obj._state, (dict, list)):
            children.append(obj._state)
    elif isinstance(obj, dict):
        out.extend((obj, k) for k in obj)
        children = list(obj.values())
    elif isinstance(obj, list):
        out.extend((obj, i) for i in range(len(obj)))
        children = obj
    elif isinstance(obj, tuple):
        children = obj
    else:
        return out
    for child in children:
        _slots(child, depth + 1, out)
    return out


def mutate_tree(root: object, rng: random.Random, shared: bool = True) -> object:
    """Replace, swap, drop or mutate one node of an unpickled (or JSON) tree, in place; ``shared``
    allows shared references (pickles have them, JSON does not)."""
    slots = _slots(root)
    if not slots:
        return _hostile_scalar(rng, shared)
    container, key = rng.choice(slots)
    value = container[key]
    op = rng.randrange(5)
    if op == 0 or not slots:
        container[key] = _hostile_scalar(rng, shared)
    elif op == 1:  # swap with another node: type confusion
        other, okey = rng.choice(slots)
        container[key], other[okey] = other[okey], value
    elif op == 2 and isinstance(container, dict):
        del container[key]
    elif op == 3 and isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        sizes = list(value)  # a tensor's size or stride
        sizes[rng.randrange(len(sizes))] = rng.choice(HOSTILE_INTS)
        container[key] = tuple(sizes)
    elif isinstance(value, int) and not isinstance(value, bool):
        container[key] = rng.choice(HOSTILE_INTS)
    else:
        container[key] = _hostile_scalar(rng, shared)
    return root


def mutate_pickle(data: bytes, rng: random.Random) -> bytes | None:
    try:
        objs = _read_pickles(data)
    except Exception:
        return None
    i = rng.randrange(len(objs))
    objs[i] = mutate_tree(objs[i], rng)
    try:
        return _write_pickles(objs)
    except (RecursionError, pickle.PicklingError, TypeError):
        return None


_DEEP = "__graphpart_fuzz_deep__"


def mutate_json(data: bytes, rng: random.Random) -> bytes | None:
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    slots = _slots(doc)
    if slots and rng.randrange(8) == 0:
        container, key = rng.choice(slots)
        container[key] = _DEEP
        text = json.dumps(doc).replace(f'"{_DEEP}"', "[" * 100_000 + "]" * 100_000)
        return text.encode()
    doc = mutate_tree(doc, rng, shared=False)
    try:
        return json.dumps(doc, allow_nan=True).encode()
    except (TypeError, ValueError, RecursionError):
        return None


def mutate_file(path: Path, rng: random.Random) -> str:
    """Mutate ``path`` in place with a mutator that fits it; returns which one ran."""
    data = path.read_bytes()
    members = _zip_members(data) if data[:2] == b"PK" else None
    choices = ["bytes"]
    if path.suffix == ".json":
        choices += ["json"] * 3
    if members:
        choices += ["member", "pickle", "pickle"]
    elif data[:1] == b"\x80":
        choices += ["pickle"] * 2
    how = rng.choice(choices)
    if how == "json":
        out = mutate_json(data, rng)
    elif how == "member" or (how == "pickle" and members):
        name = next(n for n in members if n.endswith("data.pkl"))
        if how == "member":
            name = rng.choice(sorted(members))
            new = mutate_bytes(members[name], rng)
        else:
            new = mutate_pickle(members[name], rng)
        if new is None:
            out = None
        else:
            members[name] = new
            _write_torch_zip(path, members)
            return how
    elif how == "pickle":
        out = mutate_pickle(data, rng)
    else:
        out = mutate_bytes(data, rng)
    if out is None:
        how, out = "bytes", mutate_bytes(data, rng)
    path.write_bytes(out)
    return how


# --- type swaps ----------------------------------------------------------------------------

#: What each field is replaced with in turn.
SWAP_KINDS = ("list", "str", "int", "none", "dict", "tensor", "tensor-dict")


def _is_tensor(obj) -> bool:
    return isinstance(obj, _Stand) and type(obj).__qualname__ == "_rebuild_tensor_v2"


def _fields(obj, depth: int = 0, out=None, tensors=None) -> tuple[list, list]:
    """Every assignable ``(container, key)`` of the tree's dicts and lists (not inside a tensor),
    and the tensors met."""
    out = [] if out is None else out
    tensors = [] if tensors is None else tensors
    if depth > 20 or len(out) > 500:
        return out, tensors
    if _is_tensor(obj):
        tensors.append(obj)
        return out, tensors
    if isinstance(obj, _Stand):
        children = [obj._state, *obj._args]
    elif isinstance(obj, dict):
        out.extend((obj, k) for k in obj)
        children = list(obj.values())
    elif isinstance(obj, list):
        out.extend((obj, i) for i in range(min(len(obj), 3)))
        children = obj[:3]
    elif isinstance(obj, tuple):
        children = list(obj)
    else:
        return out, tensors
    for child in children:
        _fields(child, depth + 1, out, tensors)
    return out, tensors


def _tree_of(path: Path):
    """``(kind, tree, members)`` of a file whose content is an object tree, else ``None``."""
    data = path.read_bytes()
    if path.suffix == ".json":
        try:
            return "json", json.loads(data), None
        except ValueError:
            return None
    members = _zip_members(data) if data[:2] == b"PK" else None
    blob = next((b for n, b in (members or {}).items() if n.endswith("data.pkl")), None)
    if blob is None and data[:1] == b"\x80":
        blob = data
    if blob is None:
        return None
    try:
        return "pickle", _read_pickles(blob), members
    except Exception:
        return None


def swap_cases(target: Target) -> list[tuple[str, int, str]]:
    """``(file, field index, kind)`` for every field of the object trees in ``target``'s top
    level and first partition, and every kind that applies (tensors only where the file has
    one)."""
    cases = []
    for name in target.files:
        parts = Path(name).parts
        if len(parts) > 1 and not parts[0].endswith("0"):
            continue  # the first partition stands for the others
        found = _tree_of(target.root / name)
        if found is None:
            continue
        fields, tensors = _fields(found[1])
        kinds = [k for k in SWAP_KINDS if tensors or "tensor" not in k]
        if found[0] == "json":
            kinds = [k for k in kinds if "tensor" not in k]
        cases += [(name, i, k) for i in range(len(fields)) for k in kinds]
    return cases


def apply_swap(path: Path, index: int, kind: str) -> str:
    """Replace field ``index`` of ``path``'s object tree by a ``kind``; returns the field's key."""
    how, tree, members = _tree_of(path)
    fields, tensors = _fields(tree)
    container, key = fields[index]
    tensor = copy.deepcopy(tensors[0]) if tensors else None
    container[key] = {
        "list": [1, 2],
        "str": "x",
        "int": 7,
        "none": None,
        "dict": {"a": "b"},
        "tensor": tensor,
        "tensor-dict": {"a": tensor},
    }[kind]
    if how == "json":
        path.write_text(json.dumps(tree))
    elif members is not None:
        members[next(n for n in members if n.endswith("data.pkl"))] = _write_pickles(tree)
        _write_torch_zip(path, members)
    else:
        path.write_bytes(_write_pickles(tree))
    return str(key)


# --- the oracle ----------------------------------------------------------------------------


def _memory_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


@dataclass(frozen=True)
class Outcome:
    """What one case did: ``result`` is ``"load"``, ``"error"`` (a GraphpartError) or
    ``"broken"`` (the promise broke: ``message`` says how)."""

    case: str
    result: str
    message: str
    seconds: float = 0.0
    megabytes: float = 0.0


def _judge(case: str, result: str, message: str, seconds: float, megabytes: float) -> Outcome:
    broken = []
    if seconds >= TIME_LIMIT_S:
        broken.append(f"took {seconds:.1f} s")
    if megabytes >= MEMORY_LIMIT_MB:
        broken.append(f"took {megabytes:.0f} MB above baseline")
    if result == "error" and ("\n" in message or len(message) >= MESSAGE_LIMIT):
        broken.append(f"message is not one short line: {message[:300]!r}")
    elif result == "error" and not message.isprintable():
        broken.append(f"message is not printable: {message[:300]!r}")
    if broken:
        return Outcome(case, "broken", "; ".join(broken) + f" ({result})", seconds, megabytes)
    return Outcome(case, result, message, seconds, megabytes)


def run_case(target: Target, seed: int, workdir: Path, swap: tuple | None = None) -> Outcome:
    """Copy ``target``, mutate one of its files (chosen by ``seed``; or the type swap ``swap``,
    one of :func:`swap_cases`), load it, judge the outcome.

    Run it in a :class:`Fuzzer` worker: a case that breaks the promise may take gigabytes.
    """
    rng = random.Random(seed)
    folder = workdir / f"{target.name}-{seed}"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(target.root, folder)
    if swap is not None:
        victim, index, kind = swap
        key = apply_swap(folder / victim, index, kind)
        case = f"{target.name}: {victim} field {index} ({key!r:.40}) swapped for a {kind}"
    else:
        victim = rng.choice(target.files)
        how = mutate_file(folder / victim, rng)
        case = f"{target.name} seed={seed}: {how} mutation of {victim}"
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak-RSS counter
    base = _memory_kb("VmRSS:")
    start = time.perf_counter()
    try:
        load_everything(folder / target.open_path, target.graph)
        result, message = "load", ""
    except GraphpartError as exc:
        result, message = "error", str(exc)
    except BaseException as exc:  # MemoryError and RecursionError included
        result, message = "broken", f"{type(exc).__name__}: {str(exc)[:300]}"
    seconds = time.perf_counter() - start
    megabytes = (_memory_kb("VmHWM:") - base) / 1024
    shutil.rmtree(folder, ignore_errors=True)
    if result == "broken":
        return Outcome(case, result, message, seconds, megabytes)
    return _judge(case, result, message, seconds, megabytes)


def _worker(workdir: str) -> None:
    """Run cases named on stdin (``<target> <seed>``), one JSON outcome per line on stdout."""
    import logging
    import resource
    import sys

    logging.disable(logging.CRITICAL)
    # a hard ceiling a little above the per-case bound: a case that tries to take gigabytes gets
    # a MemoryError here instead of taking the machine
    limit = _memory_kb("VmSize:") * 1024 + 4 * MEMORY_LIMIT_MB * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    work = Path(workdir)
    targets = {t.name: t for t in make_targets(work / "targets")}
    print("ready", flush=True)
    for line in sys.stdin:
        name, seed, *swap = line.split()
        target = targets[name]
        if swap:  # a type swap: the seed is its index in swap_cases
            outcome = run_case(target, 0, work, swap_cases(target)[int(seed)])
        else:
            outcome = run_case(target, int(seed), work)
        print(json.dumps(outcome.__dict__), flush=True)


class Fuzzer:
    """Runs cases in a worker process, restarted after a case that hangs (a hang is judged
    ``broken``)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir)
        self.proc = None

    def _start(self) -> None:
        import subprocess
        import sys

        root = Path(__file__).resolve().parent.parent
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"from tests.fuzzing import _worker; _worker({str(self.workdir)!r})",
            ],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
        if self._read(120) != "ready":
            raise RuntimeError("the fuzz worker did not start")

    def _read(self, timeout: float) -> str | None:
        import select

        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else None
        return line.strip() if line else None

    def run(self, target: str, seed: int, swap: bool = False) -> Outcome:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(f"{target} {seed}{' swap' if swap else ''}\n")
        self.proc.stdin.flush()
        line = self._read(10 * TIME_LIMIT_S)
        if line is None:
            self.close()
            return Outcome(f"{target} seed={seed}", "broken", "hung or died (no answer)")
        return Outcome(**json.loads(line))

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> Fuzzer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
