"""A payment naming someone not in a PokerNow session's books lists its players each once, as
``Name (id)``: the books know a player by his platform id and by the name he played under
(his ``player_alias``), and the two are one player (docs/FORMATS-IMPORT.md, "PokerNow")."""

from __future__ import annotations

from tests.conftest import SHARED

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
SESSION = "charlestudor_Input_Log_002"


def test_a_refused_payment_lists_each_player_once(user) -> None:  # noqa: ANN001
    assert user("import", str(LOG))[0] == 0
    code, out, err = user("pay", SESSION, "Zed (gE4aE_Y)", "Zed", "10")
    assert (code, out) == (2, "")
    assert err == (
        f"error: Zed (gE4aE_Y) is not in the books of session {SESSION} (no buy-in, cash-out "
        "or hand there; its players: \"uhuhqb\"\"''' (6OQxLdU_ZO), @ovvkpfngo@@@ (CzMp1GAawT), "
        "A8 (gE4aE_Yhc3), ksv @ ycx (YJJJbgIQrB)): did you mean gE4aE_Yhc3? a payment settles a "
        "session between its players (and 'rake' names the house, who keeps the rake; 'bank' "
        "the bank, who holds the buy-ins)\n")
    # by his label, as balances prints it, he is in the books: the payee is the one refused
    code, _, err = user("pay", SESSION, "A8 (gE4aE_Yhc3)", "Zed", "10")
    assert code == 2 and err.startswith(f"error: Zed is not in the books of session {SESSION} ")
    # by his id, he is in the books: the payee is the one refused
    code, _, err = user("pay", SESSION, "gE4aE_Yhc3", "Zed", "10")
    assert code == 2 and err.startswith(f"error: Zed is not in the books of session {SESSION} "
                                        "(no buy-in, cash-out or hand there; its players: "
                                        "\"uhuhqb\"")
