"""A card named twice in a discard, a show entered twice and a muck after a show, refused in
one line naming the player and the cards as shown: a card is thrown once (RULES.md §4.2), a
hand is shown once and stays shown (FORMATS.md §1, ``sm``). Only live entry refuses the
repeated show: real PHH and site files record one on each street
(``sm ????``), and an import reads them as they are."""

from __future__ import annotations

NEXT_DRAW = "now: phase draw, Ann to act: Ann sd CARDS (discard) or Ann sd (stand pat)"
NEXT_SHOW = ("now: phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), "
             "pay PLAYER AMOUNT, end")


def _start(user, game: str, hand: str = "u2") -> None:  # noqa: ANN001
    assert user("hand", "start", "--hand", hand, "--game", game, "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:50,Bob:50",
                "--button", "Ann")[0] == 0


def _acts(user, hand: str, actions: list[str]) -> None:  # noqa: ANN001
    for action in actions:
        code, _, err = user("act", hand, action)
        assert (code, err) == (0, ""), action


def test_a_card_discarded_twice_is_named_as_such_in_five_card_draw(user) -> None:  # noqa: ANN001
    _start(user, "F5D")
    _acts(user, "u2", ["d dh Ann AcAdKd2h3s", "d dh Bob 5c6d7h8s9s", "Ann cc", "Bob cc",
                       "Bob sd"])
    assert user("act", "u2", "Ann sd 2h2h") == (
        2, "", f"error: hand u2, action 'Ann sd 2h2h': Ann discards 2h twice; {NEXT_DRAW}\n")
    assert user("act", "u2", "Ann sd 4h") == (  # a card not held: named by the player
        2, "", f"error: hand u2, action 'Ann sd 4h': Ann discards 4h, which Ann does not "
        f"hold; {NEXT_DRAW}\n")
    _acts(user, "u2", ["Ann sd 2h"])  # nothing of the refusals was written


def test_a_card_discarded_twice_is_named_as_such_in_badugi(user) -> None:  # noqa: ANN001
    _start(user, "FB", "b1")
    _acts(user, "b1", ["d dh Ann Ac2d3h4h", "d dh Bob 5c6d7h8s", "Ann cc", "Bob cc",
                       "Bob sd"])
    code, _, err = user("act", "b1", "Ann sd 4h4h")
    assert (code, err.partition("; now:")[0]) == (
        2, "error: hand b1, action 'Ann sd 4h4h': Ann discards 4h twice")


def test_a_show_entered_again_is_refused(user) -> None:  # noqa: ANN001
    _start(user, "F5D")
    _acts(user, "u2", ["d dh Ann AcAdKd2h3s", "d dh Bob 5c6d7h8s9s", "Ann cc", "Bob cc",
                       "Bob sd", "Ann sd 2h", "d dh Ann Qs", "Bob cc", "Ann cc",
                       "Ann sm AcAdKdQs3s"])
    for _ in range(2):
        assert user("act", "u2", "Ann sm AcAdKdQs3s") == (
            2, "", "error: hand u2, action 'Ann sm AcAdKdQs3s': Ann has shown AcAdKdQs3s "
            f"already; {NEXT_SHOW}\n")  # as shown (dealt AcAdKd3s, Qs drawn)
    history = user("show", "u2")[1].splitlines()
    assert [row.split()[1:4] for row in history if " sm " in row] == [
        ["Ann", "sm", "AcAdKdQs3s"]]  # one reveal stored, as entered


def _holdem_at_showdown(user) -> None:  # noqa: ANN001
    """Hold'em heads-up, checked down to the showdown: Ann AsKs, Bob QhQd, board 2c7h9sKd3c."""
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    _acts(user, "h1", ["d dh Ann AsKs", "d dh Bob QhQd", "Ann cc", "Bob cc", "d db 2c7h9s",
                       "Bob cc", "Ann cc", "d db Kd", "Bob cc", "Ann cc", "d db 3c", "Bob cc",
                       "Ann cc"])


def test_a_muck_after_a_show_is_refused_naming_the_cards_shown(user) -> None:  # noqa: ANN001
    """``Ann sm AsKs`` then ``Ann sm`` (a muck): a shown hand stays shown (FORMATS.md §1, RULES.md
    §1.5), refused in one line, nothing written; Bob may still muck his unshown hand."""
    _holdem_at_showdown(user)
    _acts(user, "h1", ["Ann sm AsKs"])
    assert user("act", "h1", "Ann sm") == (
        2, "", "error: hand h1, action 'Ann sm': Ann has shown AsKs already; a shown hand "
        f"stays shown; {NEXT_SHOW}\n")
    history = user("show", "h1")[1].splitlines()
    assert [row.split()[1:4] for row in history if row.split()[2:3] == ["sm"]] == [
        ["Ann", "sm", "AsKs"]]
    _acts(user, "h1", ["Bob sm"])  # Bob showed nothing: his muck goes in


def test_a_show_repeated_names_the_cards_in_the_order_shown(user) -> None:  # noqa: ANN001
    """Ann dealt AsKs shows KsAs: a repeat, typed in either order, and a muck after it name
    the cards as shown and stored, KsAs, not as dealt."""
    _holdem_at_showdown(user)
    _acts(user, "h1", ["Ann sm KsAs"])
    for typed in ("AsKs", "KsAs"):
        assert user("act", "h1", f"Ann sm {typed}") == (
            2, "", f"error: hand h1, action 'Ann sm {typed}': Ann has shown KsAs already; "
            f"{NEXT_SHOW}\n")
    assert user("act", "h1", "Ann sm")[2].startswith(
        "error: hand h1, action 'Ann sm': Ann has shown KsAs already; a shown hand stays shown")
    history = user("show", "h1")[1].splitlines()
    assert [row.split()[1:4] for row in history if row.split()[2:3] == ["sm"]] == [
        ["Ann", "sm", "KsAs"]]
