"""What ``act`` and ``state`` print for the three-handed hold'em hand of the live tests
(Ann, Bob, Cy; Cy on the button) while its hole cards are dealt: the next deal."""

NEXT_ANN = "next: d dh Ann CARDS (2 cards, ?? for each unseen card); then Bob, Cy"
NEXT_BOB = "next: d dh Bob CARDS (2 cards, ?? for each unseen card); then Cy"
NEXT_CY = "next: d dh Cy CARDS (2 cards, ?? for each unseen card)"

#: ``act``'s line after Ann's hole cards (seq 4) and Bob's (seq 5).
DEALT_ANN = f"4 cards_dealt; phase deal, {NEXT_BOB}\n"
DEALT_BOB = f"5 cards_dealt; phase deal, {NEXT_CY}\n"
