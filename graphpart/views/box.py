"""What the view of a box of GPUs draws (:class:`graphpart.widgets.BoxView`): every GPU, its
hit rate and reads per place, and the bytes each link carried."""

from __future__ import annotations

from ..errors import GraphpartError
from ..features.box import FeatureBox
from ..utils.check import check_count, short_repr

__all__ = ["box_view_data"]


def box_view_data(box, batches: int = 0) -> dict:
    """What a view of ``box`` draws, from its stats so far: every GPU with its group, its hit
    rate and its rows and bytes per place; every GPU-to-GPU link with the bytes it carried (both
    directions summed); the host's link to each GPU.

    Parameters
    ----------
    box : FeatureBox
        The box, with the stats of the lookups so far.
    batches : int, default 0
        Mini-batches streamed so far (named in the title).

    Returns
    -------
    dict
        ``gpus`` (one dict per GPU: ``gpu``, ``group``, ``batches``, ``rows``, ``hit_rate``,
        ``own``, ``peer``, ``host`` rows, ``own_bytes``, ``peer_bytes``, ``host_bytes``,
        ``ms``), ``links`` (``a``, ``b``, ``bytes``: NVLink pairs of a group), ``groups`` (the
        GPU ranks of each group) and ``title``.

    Examples
    --------
    >>> from graphpart.features import DeviceGroup, FeatureBox
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])], row_bytes=4)
    >>> _ = box.lookup([0, 2, 7], 0)
    >>> d = box_view_data(box, 1)
    >>> d["gpus"][0]["hit_rate"], d["links"]
    (0.6666666666666666, [{'a': 0, 'b': 1, 'bytes': 4}])
    """
    if not isinstance(box, FeatureBox):
        raise GraphpartError(f"box must be a FeatureBox, got {short_repr(box, 60)}")
    batches = check_count(batches, "batches")
    gpus = []
    for g in box.groups:
        for d in g.device_list:
            st = box.stats.get(d)
            t = st.totals() if st is not None else None
            gpus.append(
                {
                    "gpu": d,
                    "group": g.group_id,
                    "batches": t["batches"] if t else 0,
                    "rows": t["rows"] if t else 0,
                    "hit_rate": t["hit_rate"] if t else 0.0,
                    "own": t["own_rows"] if t else 0,
                    "peer": t["peer_rows"] if t else 0,
                    "host": t["host_rows"] if t else 0,
                    "own_bytes": t["own_bytes"] if t else 0,
                    "peer_bytes": t["peer_bytes"] if t else 0,
                    "host_bytes": t["host_bytes"] if t else 0,
                    "ms": t["ms"] if t else 0.0,
                }
            )
    carried: dict[tuple[int, int], int] = {}
    for g in box.groups:
        devs = g.device_list
        for i, a in enumerate(devs):
            for b in devs[i + 1 :]:
                carried[a, b] = 0
    for d, st in box.stats.items():
        for p, rows in zip(st.peers, st.peer_rows().tolist()):
            key = (min(d, p), max(d, p))
            carried[key] = carried.get(key, 0) + rows * st.row_bytes
    links = [{"a": a, "b": b, "bytes": int(v)} for (a, b), v in carried.items()]
    hot = f"{box.capacity:,} hot rows of {box.num_rows:,}"
    title = f"{len(box.devices)} GPUs in {len(box.groups)} groups, {hot}; {batches} batches"
    return {
        "gpus": gpus,
        "links": links,
        "groups": [list(g.device_list) for g in box.groups],
        "title": title,
    }
