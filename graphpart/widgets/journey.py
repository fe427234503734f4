"""``NodeJourney``: the chunked pipeline with a node to point at. Click a node of the
partitioned graph (or type its id) and follow it from its chunk row to its assignment line, its
new id and its rows in the partition files (:func:`graphpart.chunked.follow.follow_node`)."""

from __future__ import annotations

import html
import os

import ipywidgets as w
import numpy as np

from ..chunked.follow import NodeJourney, follow_node, pipeline_partitioning
from ..chunked.format import read_metadata
from ..errors import GraphpartError
from ..lookup import node_key
from ..views.graph import MAX_EDGES, MAX_NODES
from .graph_view import PartitionGraph

__all__ = ["JourneyView"]


def _vals(values: tuple, size: int) -> str:
    """A row's first values, with "..." when it has more."""
    text = ", ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in values)
    return f"[{text}, ...]" if size > len(values) else f"[{text}]"


def _code(text: object) -> str:
    """A file name as code, breakable after its ``/`` and ``_`` (not inside a word)."""
    name = html.escape(str(text)).replace("/", "/<wbr>").replace("_", "_<wbr>")
    return f"<code>{name}</code>"


def journey_html(j: NodeJourney, dirs: tuple[str, str, str]) -> str:
    """The four steps of ``j`` side by side, each with its folder, file and row (HTML).

    Parameters
    ----------
    j : NodeJourney
        What :func:`graphpart.chunked.follow.follow_node` returns.
    dirs : (str, str, str)
        The chunked graph's folder, the assignment's folder and the partitions' config, as
        shown beside the steps (HTML-escaped).

    Returns
    -------
    str
        HTML: a heading, the four steps as a row of boxes joined by arrows, and their style.

    Examples
    --------
    >>> from graphpart.chunked.follow import ChunkRow, NodeJourney, PartRow
    >>> j = NodeJourney("_N", 5, (ChunkRow("feat", "f-0.npy", 5, (1.0,), 1),), (), "_N.txt", 6, 1,
    ...                 9, 9, (PartRow(1, "part1/graph.pt", 2, True, 0, "part1/f.pt", 2,
    ...                        {"feat": (1.0,)}),))
    >>> "line 6" in journey_html(j, ("chunks", "assign", "parts"))
    True
    """
    chunks, assign, parts = (html.escape(d) for d in dirs)
    feats = "".join(
        f"<li>{_code(r.file)} row {r.row:,}: {html.escape(_vals(r.values, r.size))}</li>"
        for r in j.feature_rows
    )
    edges = "".join(
        f"<li>{_code(e.file)} ({html.escape(e.etype)}) as {e.side}: "
        f"row{'s' if e.count != 1 else ''} {', '.join(f'{r:,}' for r in e.rows)}"
        f"{f', ... ({e.count:,} in all)' if e.count > len(e.rows) else ''}</li>"
        for e in j.edge_rows
    )
    o = j.owner
    owned = "".join(
        f"<li>{_code(o.feats_file)} <b>{html.escape(j.ntype)}/{html.escape(name)}</b> row "
        f"{o.feat_row:,}: {html.escape(_vals(v, _size(j, name)))}"
        + (" &#10003; the chunk's row" if _same(j, name, v) else " &#10007; not the chunk's row")
        + "</li>"
        for name, v in o.values.items()
    )
    copies = (
        "".join(
            f"<li>{_code(c.graph_file)} local id {c.local_id:,} (HALO copy, hop {c.hop})</li>"
            for c in j.copies
        )
        or "<li>none</li>"
    )
    steps = [
        ("chunk files", chunks, f"<ul>{feats}{edges or '<li>no edges</li>'}</ul>"),
        (
            "step 1: assignment",
            assign,
            f"<ul><li>{_code(j.assignment_file)} line {j.assignment_line:,}: "
            f"<b>{j.part}</b></li><li>one line per node, in id order: line <i>i</i> (counted "
            "from 1, as an editor counts) is the partition of node <i>i</i> - 1</li>"
            "</ul>",
        ),
        (
            "new ids",
            parts,
            f"<ul><li>new id <b>{j.new_id:,}</b> (type-wise {j.new_typed_id:,})</li>"
            f"<li>partition {j.part} owns new ids in one range: its nodes by type, in original "
            "id order</li></ul>",
        ),
        (
            "step 2: partition files",
            parts,
            f"<ul><li>{_code(o.graph_file)} local id <b>{o.local_id:,}</b> (owned)</li>{owned}"
            f"</ul>HALO copies:<ul>{copies}</ul>",
        ),
    ]
    boxes = "<span class='graphpart-journey-arrow'>&#8594;</span>".join(
        f"<div class='graphpart-journey-step'><div><b>{title}</b> <small>{folder}</small></div>"
        f"{body}</div>"
        for title, folder, body in steps
    )
    head = f"<b>{html.escape(j.ntype)} node {j.orig_id:,}</b> through the pipeline"
    return f"<div>{head}</div><div class='graphpart-journey-row'>{boxes}</div>{_STYLE}"


_STYLE = """<style>
.graphpart-journey-row {display:flex;align-items:stretch;gap:4px;font-size:12px;flex-wrap:wrap;
  line-height:1.35}
.graphpart-journey-step {flex:1 1 200px;border:1px solid #bbb;border-radius:4px;padding:4px 6px;
  overflow-wrap:break-word;min-width:180px}
.graphpart-journey-step ul {margin:2px 0;padding-left:16px;list-style:disc outside}
.graphpart-journey-arrow {align-self:center;font-size:18px;color:#777}
</style>"""


def _size(j: NodeJourney, name: str) -> int:
    row = next((r for r in j.feature_rows if r.name == name), None)
    return 0 if row is None else row.size


def _same(j: NodeJourney, name: str, values: tuple) -> bool:
    """Whether the partition's row is the chunk's (a NaN equal to a NaN)."""
    row = next((r for r in j.feature_rows if r.name == name), None)
    if row is None or len(row.values) != len(values):
        return False
    a, b = np.asarray(row.values, dtype=float), np.asarray(values, dtype=float)
    return bool(np.array_equal(a, b, equal_nan=True))


class JourneyView:
    """The pipeline's partitioned graph and one node's journey through the files.

    Parameters
    ----------
    config : path
        The partitions' config (``dispatch``'s result).
    chunk_dir, assignment_dir : path
        The chunked graph and the assignment the partitions were written from.
    height : int, default 420
        The graph view's height in pixels (no graph is drawn above the views' drawing
        limits: ids are then typed in).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import graphpart as gp
    >>> from graphpart import chunked, datasets
    >>> w = Path(tempfile.mkdtemp())
    >>> g = datasets.sbm(block_sizes=[20] * 2, p_in=0.3, p_out=0.02, seed=0, feat_dim=3)
    >>> _ = chunked.write_chunked(g, w / "chunks", num_chunks=2)
    >>> a = chunked.assign(w / "chunks", w / "assign", 2, "random")
    >>> parts, _ = chunked.read_assignment(a, w / "chunks")
    >>> gp.partition_graph(g, "sbm", 2, w / "parts", part_method=parts["_N"], num_hops=1)
    >>> view = JourneyView(w / "parts" / "sbm.json", w / "chunks", a)
    >>> view.graph.selected = "27"  # a click on node 27
    >>> view.journey.new_id == view.graph.location.shuffled_id
    True
    """

    def __init__(
        self,
        config: str | os.PathLike,
        chunk_dir: str | os.PathLike,
        assignment_dir: str | os.PathLike,
        *,
        height: int = 420,
    ) -> None:
        self.dirs = (config, chunk_dir, assignment_dir)
        meta = read_metadata(chunk_dir)
        self.ntypes = list(meta.ntypes)
        nodes, edges = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
        self.graph = None
        if nodes <= MAX_NODES and edges <= MAX_EDGES:  # else: ids typed in, no drawing
            p = pipeline_partitioning(config, chunk_dir, assignment_dir)
            self.graph = PartitionGraph(p, height=height, panel=False)
            self.graph.on_select(self._clicked)
        self.journey: NodeJourney | None = None
        lay = w.Layout(width="220px")
        top = max(meta.num_nodes[self.ntypes[0]] - 1, 0)
        self.ntype = w.Dropdown(options=self.ntypes, description="node type", layout=lay)
        self.node = w.BoundedIntText(value=0, min=0, max=top, description="original id", layout=lay)
        self.ntype.observe(
            lambda c: setattr(self.node, "max", max(meta.num_nodes[c["new"]] - 1, 0)), "value"
        )
        go = w.Button(description="follow", icon="route")
        go.on_click(lambda _: self.follow(self.node.value, self.ntype.value))
        self.panel = w.HTML(
            "<i>Click a node of the graph (or type an original id) to follow it through the "
            "pipeline's files.</i>"
        )
        self.panel.add_class("graphpart-journey")
        row = w.HBox([self.ntype, self.node, go])
        self.widget = w.VBox([row, self.panel] + ([self.graph] if self.graph else []))
        self.widget.add_class("graphpart-journey-view")

    def follow(self, node: int, ntype: str | None = None) -> NodeJourney:
        """Follow ``node`` (original type-wise id of ``ntype``) and show its journey; the id
        controls show the node followed, and the graph selects it."""
        config, chunks, assign = self.dirs
        try:
            self.journey = follow_node(config, chunks, assign, node, ntype)
        except GraphpartError as e:
            self.panel.value = f"<span style='color:#b00020'>{html.escape(str(e))}</span>"
            raise
        j = self.journey
        self.ntype.value = j.ntype  # first: the type sets the id's maximum
        self.node.value = j.orig_id
        self.panel.value = journey_html(j, (str(chunks), str(assign), str(config)))
        # the drawing selects the node followed (its key as node_keys writes it), unless the
        # follow came from that selection
        key = node_key(self.ntypes, j.ntype, j.orig_id)
        if self.graph is not None and key in self.graph.node_ids and self.graph.selected != key:
            self.graph.selected = key
        return j

    def _clicked(self, key: str | None) -> None:
        if key is None or self.graph is None or key not in self.graph.node_ids:
            return
        loc = self.graph.location
        if loc is None:
            return
        self.follow(loc.orig_id, loc.ntype)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
