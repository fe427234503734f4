"""Exercise: predict, then check -- a question, a guess, and the answer behind a button.

The answer is computed by the notebook from the graph in front of the student, and it stays
hidden until the button is pressed. The sentence that explains the answer is a claim about that
graph ("random partitioning cuts about 1 - 1/k of the edges"); the notebook passes whether the
claim holds, and an exercise whose claim does not hold refuses to be shown, so a notebook run
(every test run executes every notebook) fails the moment its lesson stops being true.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as w

from ..errors import GraphpartError
from ..utils.check import short_repr
from ._common import check_choice


class Exercise(w.VBox):
    """Predict, then check: ``question``, a guess, and ``answer`` revealed by a button.

    Parameters
    ----------
    question : str
        What to predict (HTML allowed).
    answer : float or str
        The right answer, computed from the notebook's data. A number is compared with a typed
        guess; a string is one of ``choices``.
    explain : str, optional
        Why (HTML allowed), shown with the answer.
    choices : sequence of str, optional
        The options to pick from (the answer is one of them); without them the guess is typed.
    also_right : sequence of str, optional
        Other choices that count as right (settings tied with the answer, say); shown with it.
    tolerance : float, default 0.1
        A typed guess within this fraction of a numeric answer counts as right.
    unit : str, optional
        Written after a numeric answer ("%"); a guess is read in the same unit, with or
        without it.
    holds : bool, default True
        Whether ``explain``'s claim holds for this data, computed by the notebook. ``False``
        raises: the lesson is no longer true of its graph.

    Attributes
    ----------
    revealed : bool
        Whether the answer is shown (the button, or :meth:`reveal`).

    Examples
    --------
    >>> ex = Exercise("How many parts?", 4, explain="One per machine.")
    >>> ex.revealed, ex.guess.value == ""
    (False, True)
    >>> ex.guess.value = "4"
    >>> ex.reveal()
    >>> ex.verdict
    'right'
    >>> tie = Exercise("Fastest?", "a", choices=["a", "b", "c"], also_right=["b"])
    >>> tie.guess.value = "b"
    >>> tie.reveal()
    >>> tie.verdict, tie.output.value
    ('right', '<b>Right! Answer: a (also right: b).</b> ')
    """

    def __init__(
        self,
        question: str,
        answer: float | str,
        *,
        explain: str = "",
        choices: Sequence[str] | None = None,
        also_right: Sequence[str] = (),
        tolerance: float = 0.1,
        unit: str = "",
        holds: bool = True,
    ) -> None:
        if not holds:
            raise GraphpartError(
                f"the explanation of the exercise {short_repr(question)} does not hold for its"
                f" data (answer {short_repr(answer)}): the lesson must be rewritten"
            )
        also_right = [str(c) for c in also_right if str(c) != str(answer)]
        if choices is not None:
            choices = [str(c) for c in choices]
            for c in [answer, *also_right]:
                check_choice(str(c), "answer", choices)
        elif also_right:
            raise GraphpartError("also_right needs choices: it names other choices that count")
        elif isinstance(answer, str) or not isinstance(answer, int | float):
            raise GraphpartError(
                f"answer must be a number, or one of choices, got {type(answer).__name__}"
            )
        self.answer, self.explain, self.tolerance = answer, explain, float(tolerance)
        self.also_right = also_right
        self.unit = unit
        self.guess = (
            # each button as wide as its text (a fixed width cut two settings to the same
            # "metis k=4 bal=tr..."), its text as tooltip too
            w.ToggleButtons(
                options=choices,
                value=None,
                description="guess",
                tooltips=choices,
                style={"button_width": "auto"},
            )
            if choices
            else w.Text(placeholder="your guess", description="guess")
        )
        self.button = w.Button(description="Reveal the answer", button_style="info")
        self.button.on_click(lambda _: self.reveal())
        self.output = w.HTML()
        self.output.add_class("graphpart-exercise-answer")
        self.revealed = False
        self.verdict: str | None = None
        prompt = w.HTML(f"<b>Predict, then check.</b> {question}")
        row = w.HBox([self.guess, self.button], layout=w.Layout(flex_flow="row wrap"))
        super().__init__([prompt, row, self.output])
        self.add_class("graphpart-exercise")

    def reveal(self) -> None:
        """Show the answer, and whether the guess was right."""
        self.verdict = self._judge(self.guess.value)
        said = {"right": "Right! ", "wrong": "Not quite. ", None: ""}[self.verdict]
        shown = f"{self.answer:.4g}" if isinstance(self.answer, float) else str(self.answer)
        shown += self.unit if not isinstance(self.answer, str) else ""
        if self.also_right:
            shown += f" (also right: {', '.join(self.also_right)})"
        self.output.value = f"<b>{said}Answer: {html.escape(shown)}.</b> {self.explain}"
        self.revealed = True
        self.button.description = "Check again"

    def _judge(self, guess) -> str | None:
        """'right', 'wrong', or None when there is no guess (or it is not a number)."""
        if guess is None or guess == "":
            return None
        if isinstance(self.answer, str):
            return "right" if guess in (self.answer, *self.also_right) else "wrong"
        try:
            g = float(str(guess).strip().rstrip("%"))  # in the question's unit
        except ValueError:
            return None
        close = abs(g - self.answer) <= self.tolerance * max(abs(self.answer), 1e-12)
        return "right" if close else "wrong"
