"""A small table that prints in a terminal and renders as HTML in Jupyter."""

from __future__ import annotations

import html
import re

import numpy as np

__all__ = ["Report"]


def _fmt(x: object) -> str:
    if isinstance(x, (float, np.floating)):
        return f"{x:,.3f}"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return str(x)


def _long_texts(column: list) -> bool:
    return all(isinstance(x, str) for x in column) and any(len(x) > 12 for x in column)


def _cell(tag: str, text: str, long: bool) -> str:
    """A cell; in a column of long texts (settings' names) a line may break after ``=`` or
    ``/`` before a letter too (``bal=`` / ``train_mask``; ``k=4`` stays whole)."""
    if not long:
        return f"<{tag}>{html.escape(text)}</{tag}>"
    words = re.sub(r"([=/])(?=[A-Za-z])", r"\1<wbr>", html.escape(text))
    return f"<{tag} class='graphpart-text'>{words}</{tag}>"


class Report:
    """Per-partition columns plus summary lines.

    Parameters
    ----------
    title : str
        The first line.
    columns : dict of str to sequence
        One column per entry, one value per row; all as long as the first. Floats are shown
        with 3 decimals, integers with thousands separators.
    summary : dict of str to str
        Lines ``key: value`` printed after the table.
    index : str, default "part"
        The header of the row-label column.
    labels : list of str, optional
        The row labels; by default ``0, 1, ...``.

    Examples
    --------
    >>> Report("2 partitions", {"nodes": [3, 4]}, {"edge cut": "5"})
    2 partitions
    part  nodes
       0      3
       1      4
    edge cut: 5
    """

    def __init__(
        self,
        title: str,
        columns: dict[str, object],
        summary: dict[str, str],
        index: str = "part",
        labels: list[str] | None = None,
    ) -> None:
        self.title = title
        self.index = index
        self.labels = labels
        self.columns = {k: list(v) for k, v in columns.items()}
        self.summary = dict(summary)

    def _rows(self) -> list[list[str]]:
        n = len(next(iter(self.columns.values()))) if self.columns else 0
        names = self.labels or [str(i) for i in range(n)]
        return [[names[i]] + [_fmt(v[i]) for v in self.columns.values()] for i in range(n)]

    def __str__(self) -> str:
        header = [self.index, *self.columns]
        rows = self._rows()
        widths = [
            max(len(h), *(len(r[j]) for r in rows)) if rows else len(h)
            for j, h in enumerate(header)
        ]
        lines = [self.title, "  ".join(h.rjust(w) for h, w in zip(header, widths))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows]
        lines += [f"{k}: {v}" for k, v in self.summary.items()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        # a column of long texts (settings' names) is marked: a narrow page may wrap it
        text = [_long_texts(self.labels or [])] + [_long_texts(v) for v in self.columns.values()]
        head = "".join(_cell("th", h, t) for h, t in zip([self.index, *self.columns], text))
        body = "".join(
            "<tr>" + "".join(_cell("td", c, t) for c, t in zip(r, text)) + "</tr>"
            for r in self._rows()
        )
        summary = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
            for k, v in self.summary.items()
        )
        return (
            f"<div><strong>{html.escape(self.title)}</strong>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"<table class='graphpart-summary'>{summary}</table></div>"
        )
