"""Split training nodes with DGL's own ``dgl.distributed.node_split`` for every trainer of a
partitioning on disk.

Usage: python dgl_node_split.py CONFIG OUT.npz TRAINERS_PER_MACHINE
For every machine (its partition book, as a DistGraph server loads it) and every trainer rank on
it, calls DGL 2.1's node_split over the ``train_mask`` the partitions store (DGL's shuffled ids),
with force_even on and off, and with the files' ``trainer_id`` where there is one. The only thing
set by hand is the trainer count DGL's role module would report after ``initialize`` (no servers
are started): node_split itself, the partition books and the masks are DGL's.
Dumps ``{mode}/r{rank}`` arrays: mode ``even``, ``local`` and (with trainer ids) ``by_trainer``.
"""

import json
import sys

import numpy as np
import torch

CONFIG, OUT, TRAINERS = sys.argv[1], sys.argv[2], int(sys.argv[3])


def main():
    import dgl
    from dgl.distributed import load_partition_book, load_partition_feats, node_split, role

    with open(CONFIG) as f:
        machines = json.load(f)["num_parts"]
    role.get_num_trainers = lambda: machines * TRAINERS  # what initialize() would set up
    feats = [load_partition_feats(CONFIG, m, load_nodes=True, load_edges=False)[0]
             for m in range(machines)]  # fmt: skip
    mask = torch.cat([f["_N/train_mask"] for f in feats]).bool()
    tid = torch.cat([f["_N/trainer_id"] for f in feats]) if "_N/trainer_id" in feats[0] else None
    out = {}
    for m in range(machines):
        book = load_partition_book(CONFIG, m)[0]
        assert book.partid == m
        for c in range(TRAINERS):
            rank = m * TRAINERS + c
            out[f"even/r{rank}"] = node_split(mask, book, rank=rank, force_even=True).numpy()
            out[f"local/r{rank}"] = node_split(mask, book, rank=rank, force_even=False).numpy()
            if tid is not None and TRAINERS > 1:
                out[f"by_trainer/r{rank}"] = node_split(
                    mask, book, rank=rank, force_even=True, node_trainer_ids=tid
                ).numpy()
    np.savez(OUT, dgl_version=np.array(dgl.__version__), **out)


if __name__ == "__main__":
    main()
