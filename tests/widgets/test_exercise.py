"""Exercise without a browser: the answer stays hidden until revealed, and a guess is judged."""

from __future__ import annotations

import pytest

from graphpart.errors import GraphpartError
from graphpart.widgets import Exercise


def test_the_answer_is_hidden_until_revealed():
    ex = Exercise("Guess the cut", 0.75, explain="about 1 - 1/k")
    assert ex.output.value == "" and not ex.revealed
    ex.button.click()
    assert ex.revealed and "0.75" in ex.output.value and "1 - 1/k" in ex.output.value


@pytest.mark.parametrize(
    ("guess", "verdict"),
    [
        ("70", "right"),
        ("75%", "right"),
        (" 80 ", "right"),
        ("50", "wrong"),
        ("", None),
        ("x", None),
    ],
)
def test_a_typed_guess_is_judged_within_the_tolerance(guess, verdict):
    ex = Exercise("Guess the cut (%)", 74, tolerance=0.1, unit="%")
    ex.guess.value = guess
    ex.reveal()
    assert ex.verdict == verdict
    assert "Answer: 74%." in ex.output.value
    assert ("Right" in ex.output.value) == (verdict == "right")
    assert ("Not quite" in ex.output.value) == (verdict == "wrong")


def test_a_picked_choice_is_judged():
    ex = Exercise("Which partition?", "part 2", choices=["part 0", "part 1", "part 2"])
    ex.guess.value = "part 1"
    ex.reveal()
    assert ex.verdict == "wrong" and "part 2" in ex.output.value
    ex.guess.value = "part 2"
    ex.reveal()
    assert ex.verdict == "right"


def test_an_exercise_whose_lesson_does_not_hold_refuses_to_be_shown():
    with pytest.raises(GraphpartError, match="does not hold"):
        Exercise("Guess the cut", 0.2, explain="about 1 - 1/k", holds=False)


def test_an_answer_outside_the_choices_or_not_a_number_is_refused():
    with pytest.raises(GraphpartError, match="answer"):
        Exercise("Which?", "part 9", choices=["part 0", "part 1"])
    with pytest.raises(GraphpartError, match="answer must be a number"):
        Exercise("How many?", "four")
