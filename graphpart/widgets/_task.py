"""Run a widget's recomputation off the kernel's main thread, newest request wins."""

from __future__ import annotations

import html
import logging
import threading
import time
from collections.abc import Callable

from ..errors import GraphpartError
from ._common import text_html

__all__ = ["Task"]

log = logging.getLogger(__name__)


class Task:
    """Runs ``work(report)`` in a background thread and shows progress in two widgets.

    A new :meth:`start` supersedes a running one: the older run's result is
    dropped (``work`` checks ``report`` between steps, and a superseded run stops
    there). Runs take turns, so none lands after a newer one: the newest request's result
    is the one shown. ``report(step, text)`` moves the progress bar. A
    :class:`~graphpart.errors.GraphpartError` is shown in the status line, not raised.

    Parameters
    ----------
    status : ipywidgets.HTML
    progress : ipywidgets.IntProgress
    threaded : bool
        ``False`` runs every request in the caller's thread (tests, scripts).
    """

    def __init__(self, status, progress, threaded: bool = True) -> None:
        self.status = status
        self.progress = progress
        self.threaded = threaded
        self.error: str | None = None
        self._generation = 0
        self._lock = threading.Lock()
        self._turn = threading.Lock()  # one run at a time
        self._thread: threading.Thread | None = None

    def start(
        self, work: Callable[[Callable[[int, str], None]], None], steps: int, sync: bool = False
    ) -> None:
        with self._lock:
            self._generation += 1
            gen = self._generation
        self.progress.max = steps
        if self.threaded and not sync:
            self._thread = threading.Thread(target=self._run, args=(work, gen), daemon=True)
            self._thread.start()
        else:
            self._run(work, gen)

    def _current(self, gen: int) -> bool:
        return gen == self._generation

    def _run(self, work, gen: int) -> None:
        with self._turn:
            if self._current(gen):  # else a newer request came while this one waited
                self._run_now(work, gen)

    def _run_now(self, work, gen: int) -> None:
        t0 = time.perf_counter()

        def report(step: int, text: str) -> None:
            if not self._current(gen):
                raise _Superseded
            self.progress.value = step
            self.progress.layout.visibility = "visible"
            self.status.value = text_html(
                f"<span style='color:#555'>Working: {html.escape(text)}</span>"
            )

        try:
            note = work(report)
        except _Superseded:
            return
        except GraphpartError as e:
            if self._current(gen):
                self.error = str(e)
                self.progress.layout.visibility = "hidden"
                self.status.value = text_html(
                    f"<span style='color:#b00020'>&#9888; {html.escape(str(e))}</span>"
                )
            return
        except Exception:  # a bug: keep the UI alive, log it for the notebook's log panel
            log.exception("widget recomputation failed")
            if self._current(gen):
                self.error = "internal error (see the log)"
                self.status.value = text_html(
                    "<span style='color:#b00020'>&#9888; internal error, see the log</span>"
                )
            return
        if self._current(gen):
            self.error = None
            self.progress.value = self.progress.max
            self.progress.layout.visibility = "hidden"
            took = time.perf_counter() - t0
            said = f" &mdash; {html.escape(note)}" if isinstance(note, str) and note else ""
            self.status.value = text_html(
                f"<span style='color:#1b5e20'>&#10003; Ready ({took:.2f} s)</span>{said}"
            )

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the latest recomputation finished (for tests and scripts)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise GraphpartError(f"the widget is still recomputing after {timeout} s")


class _Superseded(Exception):
    """A newer request replaced this one."""
