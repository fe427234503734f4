"""``dispatch --resume``: what a killed run leaves behind that the next run may keep.

Each partition task writes a marker once its files are whole (then deletes its pieces); phase 1
saves its counts with a key of its inputs. A run taking over a killed one's folder keeps phase 1
when the key matches and every partition whose marker is there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np

from ._assemble import build_part, drop_pieces

__all__ = [
    "DONE",
    "PHASE1",
    "build_and_mark",
    "inputs_key",
    "save_phase1",
    "kept_work",
    "finished_parts",
]

#: A partition folder's marker while a run is under way: its task finished (removed at the end).
DONE = ".graphpart-part-done.json"
PHASE1 = "phase1.npz"


def build_and_mark(*args) -> dict[str, int]:
    """:func:`build_part`, then a marker saying the partition is whole (what ``--resume`` keeps),
    then its pieces deleted. A task rerun after its marker was written returns the marker."""
    plan, p, folder, rows = args[0], args[1], args[2], args[4]
    try:
        return json.loads((folder / DONE).read_text())
    except (OSError, ValueError):
        pass
    stats = build_part(*args)
    tmp = folder / f".{DONE}.{os.getpid()}.tmp"  # swept with the other temporary names
    tmp.write_text(json.dumps(stats))
    os.replace(tmp, folder / DONE)
    drop_pieces(plan, p, rows)
    return stats


def inputs_key(meta, partitions_dir, num_hops, format, nids, eids, out_edges, store) -> str:
    """What the kept work of a killed run must have been made from: the metadata, the assignment
    files and every chunk file (path, size and time), and the options."""
    h = hashlib.sha256(Path(meta.path).read_bytes())
    root = Path(meta.path).parent
    chunks = [root / p for spec in meta.edges.values() for p in spec.paths]
    for specs in (*meta.node_data.values(), *meta.edge_data.values()):
        chunks += [root / p for spec in specs.values() for p in spec.paths]
    for f in [*sorted(Path(partitions_dir).iterdir()), *chunks]:
        st = f.stat()
        h.update(f"{f}:{st.st_size}:{st.st_mtime_ns}".encode())
    options = [num_hops, format, bool(nids), bool(eids), bool(out_edges), repr(store)]
    h.update(json.dumps(options).encode())
    return h.hexdigest()


def save_phase1(work: Path, key: str, counts, rows, leaving) -> None:
    arrays = {f"counts{i}": c for i, c in enumerate(counts)}
    arrays.update({f"rows{i}": r for i, r in enumerate(rows)})
    tmp = work / f".{PHASE1}.part"
    with open(tmp, "wb") as f:
        np.savez(f, key=np.array(key), leaving=leaving, **arrays)
    os.replace(tmp, work / PHASE1)


def kept_work(tmp: Path, work: Path, key: str):
    """Phase 1's counts from a killed run taken over by ``--resume``, when made from the same
    inputs; else ``None``, with everything it left removed."""
    try:
        with np.load(work / PHASE1, allow_pickle=False) as z:
            if str(z["key"]) == key:
                n = sum(1 for f in z.files if f.startswith("counts"))
                return (
                    [z[f"counts{i}"] for i in range(n)],
                    [z[f"rows{i}"] for i in range(n)],
                    z["leaving"],
                )
    except (OSError, KeyError, ValueError):
        pass
    for child in tmp.iterdir():
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()
    return None


def finished_parts(tmp: Path, num_parts: int) -> dict[int, dict]:
    done = {}
    for p in range(num_parts):
        try:
            done[p] = json.loads((tmp / f"part{p}" / DONE).read_text())
        except (OSError, ValueError):
            continue
    return done
