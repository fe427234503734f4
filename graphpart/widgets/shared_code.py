"""A widget library's JavaScript sent to the page once per kernel, not once per view.

anywidget sends each widget's JavaScript (its ``_esm``) with the widget's state. jupyter-scatter's
is 2.1 MB, so :class:`~graphpart.widgets.IdView`'s four plots made a notebook's widget state 9 MB:
the page parses all of it again at each reload, and the slower the restore, the likelier a race in
ipywidgets' JupyterLab manager that leaves outputs on "model not found" (a view that asks for its
model for 2 s, giving up in the 100 ms in which the restore ends). Here the code travels once, in
one :class:`SharedCode` widget per kernel, which sends it when the page asks, outside the widget
state a reload restores; the page imports it once, and each view gets a few lines that wait for
that import and render from it. Those lines never make the model wait: anywidget (0.11) gives up on
a model whose initialize takes over 2 s and then drops every message from the kernel to it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator

import anywidget
import traitlets

__all__ = ["SharedCode", "shared_code"]

# the code comes by message, not in the widget's state: the state a reloading page restores stays
# small. The first holder of a key in the page asks its kernel; another asks if no code came in 5 s.
_LOADER = """
export default {
  initialize({ model }) {
    const key = model.get("key");
    const shared = (globalThis.__graphpartSharedCode ??= {});
    let entry = shared[key];
    if (!entry) {
      entry = shared[key] = { done: false };
      entry.promise = new Promise((resolve) => (entry.resolve = resolve));
    }
    if (entry.done) return;
    model.on("msg:custom", (msg, buffers) => {
      if (entry.done || msg.key !== key || !buffers?.length) return;
      entry.done = true;
      const url = URL.createObjectURL(new Blob([buffers[0]], { type: "text/javascript" }));
      entry.resolve(import(url));
    });
    const ask = () => { if (!entry.done) model.send({ want: key }); };
    if (!entry.asked) { entry.asked = true; ask(); } else setTimeout(ask, 5000);
  },
};
"""

# what each view's _esm becomes: wait for the shared import (~30 s at most), render from it
_STUB = """
const KEY = %s;
async function code() {
  for (let i = 0; i < 600; i++) {  // its holder's model may come after this view's
    const m = globalThis.__graphpartSharedCode?.[KEY];
    if (m) return (await m.promise).default;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`graphpart: the shared code ${KEY} never reached the page`);
}
export default {
  // not awaited: anywidget (0.11) gives up on a model whose initialize takes over 2 s, and then
  // drops every message the kernel sends it. The code may come later than that (a busy kernel
  // answers after its running cells); the library's own initialize, if any, runs when it comes.
  initialize(ctx) {
    code().then((m) => m.initialize?.(ctx)).catch((e) => console.error(e));
  },
  async render(ctx) { const m = await code(); return m.render?.(ctx); },
};
"""


class SharedCode(anywidget.AnyWidget):
    """Holds one library's JavaScript (``code``, kept in Python) and has the page import it
    once per ``key`` (the code's hash): the page asks for it by message, and it answers with
    the code as a binary buffer. Never displayed: its model exists in the page while the kernel
    runs.

    Parameters
    ----------
    key : str
        Names the code in the page (a library's class and the code's hash).
    code : str
        The JavaScript module itself.

    Examples
    --------
    >>> s = SharedCode("k", "export default {}")
    >>> s.key, len(s.code)
    ('k', 17)
    >>> sent = []
    >>> s.send = lambda content, buffers=None: sent.append((content, buffers))
    >>> s._answer(s, {"want": "k"}, [])  # what the page's request does
    >>> sent
    [({'key': 'k'}, [b'export default {}'])]
    """

    _esm = _LOADER
    key = traitlets.Unicode().tag(sync=True)

    def __init__(self, key: str, code: str) -> None:
        super().__init__(key=key)
        self.code = code
        self.on_msg(self._answer)

    def _answer(self, _, content: dict, buffers) -> None:
        if content.get("want") == self.key:
            self.send({"key": self.key}, [self.code.encode()])


_shared: dict[str, SharedCode] = {}  # one per key in this kernel, kept while it runs


@contextlib.contextmanager
def shared_code(widget_class: type[anywidget.AnyWidget]) -> Iterator[None]:
    """Within this block, new ``widget_class`` widgets carry a few lines of JavaScript instead
    of the class's whole ``_esm``; the code itself travels once per kernel, in a
    :class:`SharedCode` widget. Widgets made outside it are as before.

    Parameters
    ----------
    widget_class : type of anywidget.AnyWidget
        The class whose widgets share its ``_esm``.

    Returns
    -------
    context manager
        The block; on leaving it the class has its own ``_esm`` again.

    Examples
    --------
    >>> class Big(anywidget.AnyWidget):
    ...     _esm = "export default { render({ el }) { el.textContent = 'hi'; } };"
    >>> with shared_code(Big):
    ...     small = Big()
    >>> "__graphpartSharedCode" in small._esm, "textContent" in small._esm
    (True, False)
    >>> "textContent" in Big()._esm  # made outside the block: its own code
    True
    """
    code = str(widget_class._esm)
    key = (
        f"{widget_class.__module__}.{widget_class.__name__}:"
        + hashlib.sha256(code.encode()).hexdigest()[:16]
    )
    holder = _shared.get(key)
    if holder is None or holder.comm is None:  # none yet, or closed
        holder = _shared[key] = SharedCode(key, code)
    own = "_esm" in widget_class.__dict__
    old = widget_class.__dict__.get("_esm")
    widget_class._esm = _STUB % json.dumps(key)
    try:
        yield
    finally:
        if own:
            widget_class._esm = old
        else:
            del widget_class._esm
