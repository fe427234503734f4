"""Serve graphpart's DGL-format partitions with two real DGL DistGraphServers on loopback; query
them.

Usage: python dgl_distgraph.py CONFIG OUT.npz PORT0 PORT1
One server process per partition (two "machines", 127.0.0.1 and 127.0.0.2); server 1 gets its own
/dev/shm (a mount namespace), since DGL names shared tensors by data name and two servers of one
graph on one host would share them; one client on machine 0 asks for every node's features,
find_edges of every edge, and full in-neighbourhoods (fanout -1) of every node.
Dumps: feat/<name> (rows by homogeneous id), find_src, find_dst (by edge id), sample_src,
sample_dst, sample_eid (global ids).
"""

import json
import multiprocessing as mp
import os
import sys
import time

import numpy as np
import torch

os.environ["DGL_DIST_MODE"] = "distributed"

CONFIG, OUT, PORTS = sys.argv[1], sys.argv[2], sys.argv[3:5]
IP_CONFIG = os.path.join(os.path.dirname(OUT), "ip_config.txt")


def private_shm():
    """Give this process its own /dev/shm: DGL names shared tensors by data name, so two servers of
    one graph on one host would share (and overwrite) each other's tensors. Needs CAP_SYS_ADMIN."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    clone_newns, ms_rec, ms_private = 0x00020000, 0x4000, 0x40000
    if libc.unshare(clone_newns) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS) failed")
    if libc.mount(None, b"/", None, ms_rec | ms_private, None) != 0:
        raise OSError(ctypes.get_errno(), "making / private failed")
    if libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, None) != 0:
        raise OSError(ctypes.get_errno(), "mounting a tmpfs on /dev/shm failed")


def run_server(server_id):
    from dgl.distributed import DistGraphServer

    if (
        server_id > 0
    ):  # server 0 shares /dev/shm with the client on its machine, as in a real cluster
        private_shm()

    server = DistGraphServer(server_id, IP_CONFIG, 1, 1, CONFIG, graph_format=["csc", "coo"])
    server.start()


def run_client(queue):
    import dgl
    from dgl.distributed import DistGraph, load_partition_book

    os.environ["DGL_NUM_SERVER"] = "1"
    dgl.distributed.initialize(IP_CONFIG)
    gpb, name, _, _ = load_partition_book(CONFIG, 0)
    g = DistGraph(name, gpb=gpb)
    n, m = g.num_nodes(), g.num_edges()
    out = {}
    for key in g.ndata:
        out[f"feat/{key}"] = g.ndata[key][torch.arange(n)].numpy()
    s, d = g.find_edges(torch.arange(m))
    out["find_src"], out["find_dst"] = s.numpy(), d.numpy()
    sub = dgl.distributed.sample_neighbors(g, torch.arange(n), -1)
    out["sample_src"], out["sample_dst"] = (x.numpy() for x in sub.edges())
    out["sample_eid"] = sub.edata[dgl.EID].numpy()
    np.savez(OUT, **out)
    queue.put("ok")
    dgl.distributed.exit_client()


if __name__ == "__main__":
    with open(IP_CONFIG, "w") as f:
        # two loopback addresses: with one, DGL's client takes both machines for itself and reads
        # partition 1's rows from partition 0's local table
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
    servers = []
    for sid in range(2):
        os.environ["DGL_ROLE"] = "server"
        os.environ["DGL_SERVER_ID"] = str(sid)
        p = ctx.Process(target=run_server, args=(sid,))
        p.start()
        servers.append(p)
    time.sleep(1)
    os.environ["DGL_ROLE"] = "client"
    os.environ.pop("DGL_SERVER_ID", None)
    queue = ctx.Queue()
    client = ctx.Process(target=run_client, args=(queue,))
    client.start()
    client.join(timeout=240)
    ok = client.exitcode == 0 and not queue.empty() and queue.get() == "ok"
    for p in servers:
        p.join(timeout=60)
        if p.is_alive():
            p.terminate()
    if client.is_alive():
        client.terminate()
    print("client ok" if ok else f"client failed (exit code {client.exitcode})")
    sys.exit(0 if ok else 1)
