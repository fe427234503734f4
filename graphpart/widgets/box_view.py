"""``BoxView``: a box of GPUs as mini-batches stream through it -- the GPUs in their NVLink
groups, every link drawn as wide as the bytes it carried, each GPU's hit rate and reads by place
(own shard, peers, host) growing batch after batch.

A thin view (anywidget, no build step) over :class:`~graphpart.features.FeatureBox` and
:func:`~graphpart.views.box.box_view_data`: **Step** in the browser (or :meth:`BoxView.step`)
streams the next mini-batch of every GPU's trace through the box; clicking a GPU sets
:attr:`BoxView.selected`, which Python follows (:attr:`BoxView.detail` says what that GPU read
from where).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import anywidget
import traitlets

from ..errors import GraphpartError
from ..features.box import FeatureBox
from ..palette import PLACE_COLORS
from ..utils.check import check_count, short_repr
from ..views.box import box_view_data

__all__ = ["BoxView"]

#: What an exhausted trace gives (a batch that is None is refused, not taken for the end).
_END = object()


class BoxView(anywidget.AnyWidget):
    """Stream each GPU's lookups through a box and watch where the rows come from.

    Parameters
    ----------
    box : FeatureBox
        The box (its stats are reset: the view starts from no lookups).
    traces : mapping of int to iterable
        Per GPU of the box, its mini-batches of node ids (a
        :class:`~graphpart.features.Trace` or any sequence of id batches).

    Examples
    --------
    >>> from graphpart.features import DeviceGroup, FeatureBox
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])])
    >>> view = BoxView(box, {0: [[0, 2, 7], [1]], 1: [[3, 6]]})
    >>> view.step(); view.batches, view.gpus[0]["hit_rate"]
    (1, 0.6666666666666666)
    >>> view.selected = 1; view.detail
    'GPU 1 (group 0): 2 rows, hit rate 50%: 1 from its own shard, 0 from GPU 0, 1 from the host'
    """

    _esm = Path(__file__).with_name("box_view.js")
    gpus = traitlets.List(traitlets.Dict()).tag(sync=True)
    links = traitlets.List(traitlets.Dict()).tag(sync=True)
    groups = traitlets.List(traitlets.List()).tag(sync=True)
    colors = traitlets.Dict(PLACE_COLORS).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    batches = traitlets.Int(0).tag(sync=True)
    done = traitlets.Bool(False).tag(sync=True)
    #: Bumped by the browser's Step button: each bump streams one more batch.
    step_requests = traitlets.Int(0).tag(sync=True)
    #: The GPU clicked last (-1: none), synced both ways.
    selected = traitlets.Int(-1).tag(sync=True)
    detail = traitlets.Unicode("").tag(sync=True)

    def __init__(self, box: FeatureBox, traces: Mapping[int, Iterable], **kwargs) -> None:
        from ..features.trace import Trace

        if not isinstance(box, FeatureBox):
            raise GraphpartError(f"box must be a FeatureBox, got {short_repr(box, 60)}")
        if not isinstance(traces, Mapping):
            raise GraphpartError(
                f"traces must map each GPU of the box to its batches of node ids, got "
                f"{short_repr(traces, 60)}"
            )
        streams = {}
        for gpu, batches in traces.items():
            box.group_of(gpu)  # refused if the GPU is not in the box
            if isinstance(batches, Trace):
                batches = [batches.batch(i) for i in range(batches.num_batches)]
            if isinstance(batches, (str, bytes)) or not isinstance(batches, Iterable):
                raise GraphpartError(
                    f"the trace of GPU {gpu} must be a Trace or a sequence of batches of node "
                    f"ids, got {short_repr(batches, 60)}"
                )
            streams[gpu] = iter(batches)
        super().__init__(**kwargs)
        self.box = box
        box.reset_stats()
        self._streams = streams
        self._sync()
        self.observe(lambda _: self.step(), "step_requests")
        self.observe(lambda _: self._describe(), "selected")

    def step(self, n: int = 1) -> None:
        """Stream the next ``n`` mini-batches of every GPU through the box."""
        for _ in range(check_count(n, "n")):
            moved = False
            for gpu, stream in self._streams.items():
                ids = next(stream, _END)
                if ids is None:  # not an end: a trace ends where its batches do
                    raise GraphpartError(
                        f"batch {self.batches} of GPU {gpu}'s trace is None; a batch is node ids"
                    )
                if ids is not _END:
                    self.box.lookup(ids, gpu)
                    moved = True
            if not moved:
                self.done = True
                break
            self.batches += 1
        self._sync()

    def _sync(self) -> None:
        d = box_view_data(self.box, self.batches)
        self.gpus, self.links, self.groups = d["gpus"], d["links"], d["groups"]
        self.title = d["title"] + (" (every trace done)" if self.done else "")
        self._describe()

    def _describe(self) -> None:
        g = next((x for x in self.gpus if x["gpu"] == self.selected), None)
        if g is None:
            self.detail = ""
            return
        st = self.box.stats.get(g["gpu"])
        peers = (
            ", ".join(f"{r:,} from GPU {p}" for p, r in zip(st.peers, st.peer_rows().tolist()))
            if st is not None and st.peers
            else "none from a peer"
        )
        self.detail = (
            f"GPU {g['gpu']} (group {g['group']}): {g['rows']:,} rows, hit rate "
            f"{g['hit_rate']:.0%}: {g['own']:,} from its own shard, {peers}, {g['host']:,} "
            "from the host"
        )
