"""Real DGL distributed training data loading over graphpart's DGL-format partitions: record
every trainer's seeds and mini-batches.

Usage: python dgl_epoch.py CONFIG OUT.npz PORT0 PORT1 TRAINERS BATCH FANOUTS EPOCHS [trainer_id]
(FANOUTS in DGL's order, input layer first, comma-separated.)

Two machines on loopback (127.0.0.1 and 127.0.0.2), each with one DistGraphServer and TRAINERS
trainer processes. Machine 1's server and trainers share their own /dev/shm (a mount namespace),
as they would on a real second machine. DGL decides a client's machine from the local IP
addresses, and on loopback both are local, so each trainer is told its machine
(``rpc_client.get_local_machine_id``); nothing else is changed. Each trainer does what DGL's
distributed GraphSAGE example does: ``node_split`` of ``train_mask`` (force_even, by the files'
``trainer_id`` when asked), ``NeighborSampler``, ``DistNodeDataLoader`` (shuffle, no drop_last),
and records, per epoch and step: seeds, seeds its machine owns, input nodes, input nodes other
machines own, and each block's src / dst / edge counts. Dumps ``seeds/r{rank}``,
``steps/r{rank}`` (rows: epoch, step, seeds, local seeds, inputs, remote inputs, then
src, dst, edges per block) and ``machine/r{rank}``.
"""

import json
import multiprocessing as mp
import os
import sys
import time

import numpy as np

os.environ["DGL_DIST_MODE"] = "distributed"

CONFIG, OUT, PORTS = sys.argv[1], sys.argv[2], sys.argv[3:5]
TRAINERS, BATCH, FANOUTS, EPOCHS = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7], int(sys.argv[8])
BY_TRAINER_ID = len(sys.argv) > 9 and sys.argv[9] == "trainer_id"
IP_CONFIG = os.path.join(os.path.dirname(os.path.abspath(OUT)), "ip_config.txt")
CLIENTS = 2 * TRAINERS


def private_shm():
    """This process (and its children) get their own /dev/shm. Needs CAP_SYS_ADMIN."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    clone_newns, ms_rec, ms_private = 0x00020000, 0x4000, 0x40000
    if libc.unshare(clone_newns) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS) failed")
    if libc.mount(None, b"/", None, ms_rec | ms_private, None) != 0:
        raise OSError(ctypes.get_errno(), "making / private failed")
    if libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, None) != 0:
        raise OSError(ctypes.get_errno(), "mounting a tmpfs on /dev/shm failed")


def run_server(machine):
    os.environ.update(DGL_ROLE="server", DGL_SERVER_ID=str(machine), DGL_NUM_SERVER="1")
    from dgl.distributed import DistGraphServer

    DistGraphServer(machine, IP_CONFIG, 1, CLIENTS, CONFIG, graph_format=["csc", "coo"]).start()


def run_trainer(machine, part):
    os.environ.update(DGL_ROLE="client", DGL_NUM_SERVER="1", DGL_NUM_CLIENT=str(CLIENTS))
    os.environ.pop("DGL_SERVER_ID", None)
    import dgl
    import torch
    from dgl.distributed import rpc_client

    rpc_client.get_local_machine_id = lambda namebook: machine  # on loopback every IP is local
    dgl.distributed.initialize(IP_CONFIG)
    with open(CONFIG) as f:
        name = json.load(f)["graph_name"]
    g = dgl.distributed.DistGraph(name)
    pb = g.get_partition_book()
    assert pb.partid == machine, (pb.partid, machine)
    rank = dgl.distributed.role.get_trainer_rank()
    trainer_ids = g.ndata["trainer_id"] if BY_TRAINER_ID else None
    seeds = dgl.distributed.node_split(
        g.ndata["train_mask"], pb, force_even=True, node_trainer_ids=trainer_ids
    )
    sampler = dgl.dataloading.NeighborSampler([int(f) for f in FANOUTS.split(",")])
    loader = dgl.dataloading.DistNodeDataLoader(
        g, seeds, sampler, batch_size=BATCH, shuffle=True, drop_last=False
    )
    rows = []
    for epoch in range(EPOCHS):
        for step, (inputs, out, blocks) in enumerate(loader):
            row = [
                epoch,
                step,
                len(out),
                int((pb.nid2partid(out) == machine).sum()),
                len(inputs),
                int((pb.nid2partid(inputs) != machine).sum()),
            ]
            for b in blocks:
                row += [b.num_src_nodes(), b.num_dst_nodes(), b.num_edges()]
            rows.append(row)
    np.savez(
        f"{OUT}.r{rank}.npz",
        seeds=seeds.numpy(),
        steps=np.array(rows, dtype=np.int64),
        machine=np.array(machine),
        rank=np.array(rank),
    )
    torch.distributed.is_available()  # keep torch imported until the end (DGL's backend)
    dgl.distributed.exit_client()


def run_machine(machine):
    """One machine: its server, then its trainers (machine 1 in its own /dev/shm)."""
    if machine > 0:
        private_shm()
    ctx = mp.get_context("spawn")
    server = ctx.Process(target=run_server, args=(machine,))
    server.start()
    time.sleep(3)  # every server listens before any trainer connects
    trainers = [ctx.Process(target=run_trainer, args=(machine, c)) for c in range(TRAINERS)]
    for t in trainers:
        t.start()
    for t in trainers:
        t.join(timeout=400)
    server.join(timeout=60)
    for p in (*trainers, server):
        if p.is_alive():
            p.terminate()
    sys.exit(0 if all(t.exitcode == 0 for t in trainers) else 1)


if __name__ == "__main__":
    with open(IP_CONFIG, "w") as f:
        f.write("".join(f"127.0.0.{i + 1} {p}\n" for i, p in enumerate(PORTS)))
    with open(CONFIG) as f:
        assert json.load(f)["num_parts"] == 2
    ctx = mp.get_context("spawn")
    probe = ctx.Process(target=private_shm)
    probe.start()
    probe.join()
    if probe.exitcode != 0:
        print(
            "SKIP: this machine cannot give a process its own /dev/shm (unshare/mount need "
            "CAP_SYS_ADMIN)"
        )
        sys.exit(77)
    machines = [ctx.Process(target=run_machine, args=(m,)) for m in range(2)]
    for m in machines:
        m.start()
    for m in machines:
        m.join(timeout=480)
        if m.is_alive():
            m.terminate()
    ok = all(m.exitcode == 0 for m in machines)
    if ok:
        out = {}
        for r in range(CLIENTS):
            with np.load(f"{OUT}.r{r}.npz") as z:
                for k in ("seeds", "steps", "machine"):
                    out[f"{k}/r{r}"] = z[k]
        np.savez(OUT, **out)
    print("trainers ok" if ok else f"failed: {[m.exitcode for m in machines]}")
    sys.exit(0 if ok else 1)
