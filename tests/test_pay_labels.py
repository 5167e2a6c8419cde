"""``pay`` takes a PokerNow player as ``balances`` labels him, ``Name (id)``, when the name
and the id are the same player of the session's books, storing his id as the id alone does;
a label whose name and id disagree is refused naming who each is, nothing written."""

from __future__ import annotations

from tests.conftest import SHARED

CT1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
S = "charlestudor_Input_Log_001"


def test_pay_takes_the_label_balances_prints_and_refuses_one_that_disagrees(user) -> None:  # noqa: ANN001
    """charlestudor's first log: Qapurjsa9 is BfS83Cedu3, TA is gE4aE_Yhc3 (balances:
    ``TA (gE4aE_Yhc3)``). The labels pay as the ids do; ``TA (BfS83Cedu3)`` is refused."""
    assert user("import", str(CT1))[0] == 0
    assert user("pay", S, "Qapurjsa9 (BfS83Cedu3)", "TA (gE4aE_Yhc3)", "1") == (
        0, f"{S}: Qapurjsa9 paid TA 1 (entry 11)\n", "")  # named as balances names them
    assert user("history", "--session", S)[1].splitlines()[-1].endswith(
        'payment {"payer":"BfS83Cedu3","payee":"gE4aE_Yhc3","amount_minor":1}')
    assert user("pay", S, "TA (BfS83Cedu3)", "Anvjfbmj2", "1") == (
        2, "", f"error: TA (BfS83Cedu3): the name and the id are not the same player of "
               f"session {S}: BfS83Cedu3 is Qapurjsa9 (BfS83Cedu3); TA is TA (gE4aE_Yhc3); "
               "name the player by the id or by the name; nothing written\n")
    assert user("history", "--session", S)[1].splitlines()[-1].startswith("   11 ")


def test_one_player_under_his_id_and_his_name_cannot_pay_himself(user) -> None:  # noqa: ANN001
    """Qapurjsa9 is BfS83Cedu3 in charlestudor's first log: paying between the two forms, or
    between his label and his name, is one player paying himself; refused, nothing
    written."""
    assert user("import", str(CT1))[0] == 0
    before = user("history", "--session", S)[1]
    refused = (f"error: pay {S}: BfS83Cedu3 and Qapurjsa9 are one player, Qapurjsa9 "
               "(BfS83Cedu3): a payment needs two different players (another player of that "
               "name: name that player by the id); nothing written\n")
    for payer, payee in (("BfS83Cedu3", "Qapurjsa9"), ("Qapurjsa9", "BfS83Cedu3"),
                         ("Qapurjsa9 (BfS83Cedu3)", "Qapurjsa9")):
        assert user("pay", S, payer, payee, "1") == (2, "", refused), (payer, payee)
    assert user("history", "--session", S)[1] == before
