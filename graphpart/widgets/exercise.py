"""Exercise: predict, then check -- a question, a guess, and the answer behind a button.

The answer is computed by the notebook from the graph in front of the student, and it stays
hidden until the button is pressed. The sentence that explains the answer is a claim about that
graph ("random partitioning cuts about 1 - 1/k of the edges"); the notebook passes whether the
claim holds, and an exercise whose claim does not hold refuses to be shown, so a notebook run
(every test run executes every notebook) fails the moment its lesson stops being true.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Sequence

import ipywidgets as w

from ..errors import GraphpartError
from ..utils.check import check_flag, check_rate, is_number, short_repr
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
        question, explain, unit = (
            check_text(question, "question"),
            check_text(explain, "explain"),
            check_text(unit, "unit"),
        )
        if not check_flag(holds, "holds"):
            raise GraphpartError(
                f"the explanation of the exercise {short_repr(question)} does not hold for its"
                f" data (answer {short_repr(answer)}): the lesson must be rewritten"
            )
        tolerance = check_rate(tolerance, "tolerance", zero=True)
        if not (is_number(answer) or choices is not None and isinstance(answer, str)):
            raise GraphpartError(
                f"answer must be a number (finite, not subnormal), or one of choices, got "
                f"{short_repr(answer, 60)}"
            )
        if isinstance(answer, numbers.Real):  # a whole number stays one ("74%", not "74.0%")
            answer = int(answer) if isinstance(answer, numbers.Integral) else float(answer)
        also_right = [c for c in check_texts(also_right, "also_right") if c != str(answer)]
        if choices is not None:
            choices = check_texts(choices, "choices", least=1)
            for c in [str(answer), *also_right]:
                check_choice(c, "answer", choices)
        elif also_right:
            raise GraphpartError("also_right needs choices: it names other choices that count")
        self.answer, self.explain, self.tolerance = answer, explain, tolerance
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


#: The longest text an exercise shows (a question, an explanation, a choice), in characters.
MAX_TEXT = 100_000
#: The most choices an exercise offers.
MAX_CHOICES = 64


def check_text(text: object, name: str) -> str:
    """``text`` if it is a string of at most :data:`MAX_TEXT` characters, else raise."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise GraphpartError(
            f"{name} must be a str of at most {MAX_TEXT} characters, got {short_repr(text, 60)}"
        )
    return text


def check_texts(texts: object, name: str, least: int = 0) -> list[str]:
    """``texts`` as a list if it is a list or tuple of ``least`` to :data:`MAX_CHOICES` short
    strings (numbers are written as text), else raise."""
    if (
        not isinstance(texts, (list, tuple))
        or not least <= len(texts) <= MAX_CHOICES
        or not all(isinstance(t, str) and len(t) <= 1000 or is_number(t) for t in texts)
    ):
        raise GraphpartError(
            f"{name} must be a list of {least} to {MAX_CHOICES} strings, got "
            f"{short_repr(texts, 80)}"
        )
    return [t if isinstance(t, str) else str(t) for t in texts]
